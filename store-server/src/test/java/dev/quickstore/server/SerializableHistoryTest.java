package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A randomized multi-client model test (issue 12): client processes run seeded random transactions over
 * counters against one page server; every acknowledged transaction reports the values it read. The history
 * is checked for serializability: per counter, the committed increments read 0, 1, 2, ... exactly once each
 * (no lost update) and the store holds their count; the read-from order of every counter (the increment that
 * read v before the one that read v+1; a reader of v after the increment that wrote v and before the one that
 * overwrote it) must form one acyclic graph over all transactions, so that a serial order exists - and no
 * read-only transaction saw another transaction in part. {@code -Dqs.long=true}: ten times as many.
 */
@ExtendWith(SeedExtension.class)
class SerializableHistoryTest {
    @TempDir
    Path dir;

    /** A transaction of the history: its name and the (counter, value read) pairs. */
    record Txn(String name, boolean writes, long[][] reads) {}

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"optimistic", "locking"})
    @FixedSeed(2026)
    void randomTransactionsOfSeveralClientProcessesFormASerializableHistory(String cc, Seed seed) throws Exception {
        int clients = 3;
        int perClient = Integer.getInteger("qs.history.perClient", ChildJvm.longMode() ? 7000 : 700);
        int counters = 12;
        Path db = dir.resolve("db");
        long[] off = new long[counters];
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            for (int i = 0; i < counters; i++) {
                long ref = tx.allocate(7000); // one counter per page
                tx.write(ref, 0, new byte[8]);
                off[i] = ref - s.arenaBase();
            }
            tx.commit();
        }
        String offsets = LongStream.of(off).mapToObj(Long::toString).collect(Collectors.joining(","));
        Path secret = db.resolve(ServerSecret.FILE);
        List<Txn> history = new ArrayList<>();
        long conflicts = 0;
        long invalidated = 0;
        try (ChildJvm.Running server = ChildJvm.main(PageServerMain.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m", "-Dqs.server.cc=" + cc)
                .args(db.toString(), "127.0.0.1:0")
                .timeout(Duration.ofSeconds(1200))
                .start()) {
            String line = server.nextLine(Duration.ofSeconds(60));
            if (line == null || !line.startsWith("listening ")) {
                fail("server did not start: " + server.describe());
            }
            String uri = line.substring("listening ".length());
            List<ChildJvm.Running> cs = new ArrayList<>();
            try {
                for (int i = 0; i < clients; i++) {
                    cs.add(ChildJvm.main(ModelClient.class)
                            .workDir(dir)
                            .jvmArgs("-Xmx256m")
                            .args(
                                    uri,
                                    secret.toString(),
                                    Long.toString(seed.value() + i),
                                    Integer.toString(perClient),
                                    offsets)
                            .timeout(Duration.ofSeconds(1200))
                            .start());
                }
                for (int i = 0; i < clients; i++) {
                    ChildJvm.Running c = cs.get(i);
                    boolean finished = false;
                    for (String l = c.nextLine(Duration.ofSeconds(600));
                            l != null;
                            l = c.nextLine(Duration.ofSeconds(600))) {
                        if (l.startsWith("done ")) {
                            finished = true;
                            Map<String, Long> kv = parse(l.substring(5));
                            conflicts += kv.get("conflicts");
                            invalidated += kv.get("invalidated");
                            continue;
                        }
                        String[] w = l.split(" ");
                        String[] pairs = w[2].split(",");
                        long[][] reads = new long[pairs.length][];
                        for (int k = 0; k < pairs.length; k++) {
                            String[] cv = pairs[k].split(":");
                            reads[k] = new long[] {Long.parseLong(cv[0]), Long.parseLong(cv[1])};
                        }
                        history.add(new Txn("client " + i + " txn " + w[1], w[0].equals("W"), reads));
                    }
                    assertTrue(finished, "client " + i + " finished: " + c.describe());
                }
            } finally {
                for (ChildJvm.Running c : cs) {
                    c.close();
                }
            }
            long[] finalValues = new long[counters];
            try (RemotePages reader = RemotePages.connect(uri, secret, 5000)) {
                MemorySegment v = reader.view();
                for (int i = 0; i < counters; i++) {
                    long at = off[i];
                    finalValues[i] = reader.read(() -> v.get(ValueLayout.JAVA_LONG_UNALIGNED, at));
                }
            }
            server.terminate();
            server.stderr().lines().filter(l -> l.contains("stopped (")).forEach(System.out::println);
            check(history, finalValues);
        }
        assertEquals(clients * perClient, history.size());
        if (cc.equals("optimistic")) {
            assertTrue(conflicts > 0, "the clients contended (conflicts: " + conflicts + ")");
            assertTrue(invalidated > 0, "invalidations were delivered (" + invalidated + ")");
        }
        System.out.println("SerializableHistoryTest (" + cc + "): " + history.size() + " transactions, " + conflicts
                + " conflicts retried, " + invalidated + " pages invalidated");
    }

    private static Map<String, Long> parse(String kvs) {
        Map<String, Long> m = new HashMap<>();
        for (String kv : kvs.split(" ")) {
            String[] p = kv.split("=");
            m.put(p[0], Long.parseLong(p[1]));
        }
        return m;
    }

    /** The serializability check of the class comment. */
    static void check(List<Txn> history, long[] finalValues) {
        int counters = finalValues.length;
        List<Map<Long, Integer>> writerOf = new ArrayList<>(); // counter -> value read -> txn index
        for (int c = 0; c < counters; c++) {
            writerOf.add(new HashMap<>());
        }
        for (int t = 0; t < history.size(); t++) {
            Txn x = history.get(t);
            if (!x.writes()) {
                continue;
            }
            for (long[] r : x.reads()) {
                Integer before = writerOf.get((int) r[0]).put(r[1], t);
                if (before != null) {
                    fail("lost update: " + history.get(before).name() + " and " + x.name() + " both read counter "
                            + r[0] + " = " + r[1] + " and committed an increment");
                }
            }
        }
        for (int c = 0; c < counters; c++) {
            long n = writerOf.get(c).size();
            assertEquals(n, finalValues[c], "counter " + c + ": " + n + " committed increments");
            for (long v = 0; v < n; v++) {
                assertTrue(writerOf.get(c).containsKey(v), "counter " + c + ": no committed increment read " + v);
            }
        }
        List<List<Integer>> edges = new ArrayList<>();
        for (int t = 0; t < history.size(); t++) {
            edges.add(new ArrayList<>());
        }
        int[] indegree = new int[history.size()];
        for (int t = 0; t < history.size(); t++) {
            Txn x = history.get(t);
            for (long[] r : x.reads()) {
                Map<Long, Integer> w = writerOf.get((int) r[0]);
                Integer wroteIt = w.get(r[1] - 1); // the increment whose result this one read
                Integer overwrote = x.writes() ? null : w.get(r[1]); // for a reader: the next increment
                if (r[1] > 0 && wroteIt == null) {
                    fail(x.name() + " read counter " + r[0] + " = " + r[1] + ", which no committed increment wrote");
                }
                if (wroteIt != null && wroteIt != t) {
                    edges.get(wroteIt).add(t);
                    indegree[t]++;
                }
                if (overwrote != null) {
                    edges.get(t).add(overwrote);
                    indegree[overwrote]++;
                }
            }
        }
        ArrayDeque<Integer> ready = new ArrayDeque<>();
        for (int t = 0; t < history.size(); t++) {
            if (indegree[t] == 0) {
                ready.add(t);
            }
        }
        int ordered = 0;
        while (!ready.isEmpty()) {
            int t = ready.poll();
            ordered++;
            for (int u : edges.get(t)) {
                if (--indegree[u] == 0) {
                    ready.add(u);
                }
            }
        }
        if (ordered != history.size()) {
            List<String> cyclic = new ArrayList<>();
            for (int t = 0; t < history.size() && cyclic.size() < 10; t++) {
                if (indegree[t] > 0) {
                    cyclic.add(history.get(t).name() + " "
                            + java.util.Arrays.deepToString(history.get(t).reads()));
                }
            }
            fail("the history is not serializable: " + (history.size() - ordered)
                    + " transactions are on a cycle of read-from orders, e.g. " + cyclic);
        }
    }

    @Test
    void theCheckerFindsALostUpdateAndAPartialRead() {
        // two increments read the same value: a lost update
        List<Txn> lost = List.of(new Txn("a", true, new long[][] {{0, 0}}), new Txn("b", true, new long[][] {{0, 0}}));
        AssertionError e1 =
                org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> check(lost, new long[] {1}));
        assertTrue(e1.getMessage().contains("lost update"), e1.getMessage());
        // w increments counters 0 and 1; r saw w's write of counter 0 but not of counter 1: a partial read
        List<Txn> partial = List.of(
                new Txn("w", true, new long[][] {{0, 0}, {1, 0}}), new Txn("r", false, new long[][] {{0, 1}, {1, 0}}));
        AssertionError e2 = org.junit.jupiter.api.Assertions.assertThrows(
                AssertionError.class, () -> check(partial, new long[] {1, 1}));
        assertTrue(e2.getMessage().contains("not serializable"), e2.getMessage());
    }
}
