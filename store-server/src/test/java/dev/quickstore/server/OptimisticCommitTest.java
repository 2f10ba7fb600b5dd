package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.core.remote.TransactionConflictException;
import dev.quickstore.testkit.ChildJvm;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Optimistic transactions of page-server clients (issue 12): commits validated at the server, conflicts,
 * invalidations, and - with real client processes and a real SIGKILL of the server - no acknowledged commit
 * lost and no transaction observed in part.
 */
class OptimisticCommitTest {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int TIMEOUT_MS = 5000;

    @TempDir
    Path dir;

    private int lastPort;

    /** A store of {@code n} zeroed 7,000-byte objects, one per page; their arena offsets. */
    private static long[] build(Path db, int n) throws Exception {
        long[] offsets = new long[n];
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            for (int i = 0; i < n; i++) {
                long ref = tx.allocate(7000);
                tx.write(ref, 0, new byte[8]);
                offsets[i] = ref - s.arenaBase();
            }
            tx.commit();
        }
        return offsets;
    }

    private ChildJvm.Running startServer(Path db) throws Exception {
        return startServer(db, PageServer.DEFAULT_LEASE_MS);
    }

    private ChildJvm.Running startServer(Path db, int leaseMs) throws Exception {
        return startServer(db, leaseMs, "optimistic");
    }

    private ChildJvm.Running startServer(Path db, int leaseMs, String cc) throws Exception {
        ChildJvm.Running server = ChildJvm.main(PageServerMain.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m", "-Dqs.server.leaseMs=" + leaseMs, "-Dqs.server.cc=" + cc)
                .args(db.toString(), "127.0.0.1:0")
                .timeout(Duration.ofSeconds(300))
                .start();
        String line = server.nextLine(Duration.ofSeconds(60));
        if (line == null || !line.startsWith("listening qs://127.0.0.1:")) {
            server.kill();
            fail("server did not start: " + line + "; " + server.describe());
        }
        lastPort = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
        return server;
    }

    private String uri() {
        return "qs://127.0.0.1:" + lastPort;
    }

    @Test
    void commitsAreSeenByOtherClientsAndAStaleReadConflicts() throws Exception {
        Path db = dir.resolve("db");
        long[] off = build(db, 4);
        Path secret = db.resolve(ServerSecret.FILE);
        try (ChildJvm.Running server = startServer(db)) {
            assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
                try (RemotePages c1 = RemotePages.connect(uri(), secret, TIMEOUT_MS);
                        RemotePages c2 = RemotePages.connect(uri(), secret, TIMEOUT_MS)) {
                    try (RemoteTransaction t = c1.begin()) {
                        t.view().set(LONG, off[0], 41);
                        assertTrue(t.commit() > 0, "a commit LSN");
                    }
                    try (RemoteTransaction t = c2.begin()) {
                        assertEquals(41, t.view().get(LONG, off[0]), "c2 reads c1's commit");
                        assertEquals(0, t.commit(), "a read-only transaction validates and logs nothing");
                    }
                    // c1 reads, c2 commits a change of the same page, c1's commit must not overwrite it
                    RemoteTransaction t1 = c1.begin();
                    long seen = t1.view().get(LONG, off[0]);
                    try (RemoteTransaction t2 = c2.begin()) {
                        t2.view().set(LONG, off[0], t2.view().get(LONG, off[0]) + 1);
                        t2.commit();
                    }
                    t1.view().set(LONG, off[0], seen + 100);
                    TransactionConflictException e = assertThrows(TransactionConflictException.class, t1::commit);
                    long page = off[0] / c1.pageSize();
                    assertEquals(page, e.conflicts().getFirst().page(), e.getMessage());
                    assertTrue(e.getMessage().contains("page " + page + " (read at LSN"), e.getMessage());
                    try (RemoteTransaction t = c1.begin()) {
                        assertEquals(42, t.view().get(LONG, off[0]), "the retry reads the committed value");
                        t.commit();
                    }
                    // a page c2 caches is invalidated by c1's commit before c2's next transaction begins
                    try (RemoteTransaction t = c2.begin()) {
                        assertEquals(0, t.view().get(LONG, off[1]));
                        t.commit();
                    }
                    try (RemoteTransaction t = c1.begin()) {
                        t.view().set(LONG, off[1], 7);
                        t.commit();
                    }
                    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                    while (c2.transactionCounters()[2] == 0 && System.nanoTime() < deadline) {
                        c2.begin().abort(); // begin applies the invalidations received so far
                        Thread.sleep(10);
                    }
                    assertTrue(c2.transactionCounters()[2] > 0, "c2 received the invalidation");
                    try (RemoteTransaction t = c2.begin()) {
                        assertEquals(7, t.view().get(LONG, off[1]), "and reads the new value, no conflict");
                        t.commit();
                    }
                    // different bytes of one page: page-grained validation, so the second one conflicts
                    RemoteTransaction a = c1.begin();
                    RemoteTransaction b = c2.begin();
                    a.view().set(LONG, off[2], 1);
                    b.view().set(LONG, off[2] + 64, 2);
                    a.commit();
                    assertThrows(TransactionConflictException.class, b::commit);
                    // the server's view of its clients (qs clients)
                    dev.quickstore.core.remote.ServerStatus st = c1.serverStatus();
                    assertEquals("2", st.server().get("clients"), st.toString());
                    assertTrue(Long.parseLong(st.server().get("commits")) >= 5, st.toString());
                    assertTrue(Long.parseLong(st.server().get("conflicts")) >= 2, st.toString());
                    assertTrue(Long.parseLong(st.server().get("pagesInvalidated")) >= 1, st.toString());
                    assertEquals(2, st.sessions().size(), st.toString());
                    for (var s : st.sessions()) {
                        assertTrue(Integer.parseInt(s.get("cachedPages")) >= 1, st.toString());
                        assertEquals("true", s.get("dataConnection"), st.toString());
                    }
                    // an aborted transaction leaves nothing behind
                    try (RemoteTransaction t = c1.begin()) {
                        t.view().set(LONG, off[3], 99);
                        t.abort();
                    }
                    try (RemoteTransaction t = c2.begin()) {
                        assertEquals(0, t.view().get(LONG, off[3]));
                        t.commit();
                    }
                }
            });
            server.terminate();
            assertTrue(server.stderr().contains("conflicts"), server.describe());
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"optimistic", "locking"})
    void concurrentClientProcessesLoseNoAcknowledgedCommitWhenTheServerIsKilled(String cc) throws Exception {
        Path db = dir.resolve("db");
        int clients = 3;
        long[] off = build(db, 1 + clients);
        Path secret = db.resolve(ServerSecret.FILE);
        int[] acked = new int[clients];
        try (ChildJvm.Running server = startServer(db, PageServer.DEFAULT_LEASE_MS, cc)) {
            List<ChildJvm.Running> cs = new ArrayList<>();
            try {
                for (int i = 0; i < clients; i++) {
                    cs.add(ChildJvm.main(CounterClient.class)
                            .workDir(dir)
                            .jvmArgs("-Xmx256m")
                            .args(uri(), secret.toString(), "1000000", Long.toString(off[0]), Long.toString(off[1 + i]))
                            .timeout(Duration.ofSeconds(300))
                            .start());
                }
                // let them commit concurrently, then SIGKILL the server in the middle of it
                long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                while (total(acked) < 120 && System.nanoTime() < deadline) {
                    for (int i = 0; i < clients; i++) {
                        String l = cs.get(i).nextLine(Duration.ofMillis(20));
                        if (l != null && l.startsWith("committed ")) {
                            acked[i] = Integer.parseInt(l.substring(10));
                        }
                    }
                }
                assertTrue(total(acked) >= 120, "clients committed " + total(acked) + "; " + server.describe());
                server.kill();
                for (int i = 0; i < clients; i++) {
                    ChildJvm.Running c = cs.get(i);
                    for (String l = c.nextLine(Duration.ofSeconds(60));
                            l != null;
                            l = c.nextLine(Duration.ofSeconds(60))) {
                        if (l.startsWith("committed ")) {
                            acked[i] = Integer.parseInt(l.substring(10));
                        }
                    }
                    assertTrue(c.ended(), "client " + i + " ended after the server died: " + c.describe());
                    assertTrue(c.stderr().contains("ServerUnavailableException"), c.describe());
                }
            } finally {
                for (ChildJvm.Running c : cs) {
                    c.close();
                }
            }
        }
        try (ChildJvm.Running again = startServer(db, PageServer.DEFAULT_LEASE_MS, cc);
                RemotePages reader = RemotePages.connect(uri(), secret, TIMEOUT_MS)) {
            MemorySegment v = reader.view();
            long shared = reader.read(() -> v.get(LONG, off[0]));
            long sum = 0;
            for (int i = 0; i < clients; i++) {
                long own = readOwn(reader, v, off[1 + i]);
                assertTrue(
                        own == acked[i] || own == acked[i] + 1,
                        "client " + i + ": " + acked[i] + " commits acknowledged, " + own
                                + " present (one more if the server applied it and died before answering)");
                sum += own;
            }
            assertEquals(sum, shared, "every transaction is there whole: the shared counter is the sum of the own");
            again.terminate();
        }
    }

    private static long readOwn(RemotePages reader, MemorySegment v, long at) {
        return reader.read(() -> v.get(LONG, at));
    }

    private static int total(int[] a) {
        int t = 0;
        for (int x : a) {
            t += x;
        }
        return t;
    }

    @Test
    void aStoppedClientLosesItsSessionAfterOneLeaseAndAnIdleLiveOneKeepsIt() throws Exception {
        Path db = dir.resolve("db");
        long[] off = build(db, 2);
        Path secret = db.resolve(ServerSecret.FILE);
        int lease = 2000; // heartbeats every 667 ms: slack for a loaded CI machine
        try (ChildJvm.Running server = startServer(db, lease);
                RemotePages idle = RemotePages.connect(uri(), secret, TIMEOUT_MS)) {
            try (ChildJvm.Running c = ChildJvm.main(CounterClient.class)
                    .workDir(dir)
                    .jvmArgs("-Xmx256m")
                    .args(uri(), secret.toString(), "1", Long.toString(off[0]), Long.toString(off[1]), "park")
                    .timeout(Duration.ofSeconds(120))
                    .start()) {
                assertEquals("written", c.nextLine(Duration.ofSeconds(60)), c.describe());
                signal("STOP", c.pid()); // a real SIGSTOP: the process stays, its connections stay open, it is silent
                try {
                    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    while (!server.stderr().contains("sent nothing within its lease") && System.nanoTime() < deadline) {
                        Thread.sleep(50);
                    }
                    assertTrue(
                            server.stderr().contains("sent nothing within its lease of " + lease + " ms"),
                            server.describe());
                } finally {
                    signal("CONT", c.pid());
                }
                // the stopped client's session is gone: its control connection was closed by the server
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (!server.stderr().contains("disconnected") && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                assertTrue(server.stderr().contains("disconnected"), server.describe());
            }
            Thread.sleep(3L * lease); // the idle client in this JVM sent only heartbeats meanwhile
            try (RemoteTransaction t = idle.begin()) {
                t.view().set(LONG, off[0], 3);
                assertTrue(t.commit() > 0, "an idle but live client keeps its session");
            }
            server.terminate();
        }
    }

    private static void signal(String sig, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid))
                .redirectErrorStream(true)
                .start();
        assertEquals(
                0,
                p.waitFor(),
                "kill -" + sig + " " + pid + ": "
                        + new String(p.getInputStream().readAllBytes()));
    }

    @Test
    void aKilledClientLosesOnlyItsUncommittedTransactionAndHoldsNothing() throws Exception {
        Path db = dir.resolve("db");
        long[] off = build(db, 2);
        Path secret = db.resolve(ServerSecret.FILE);
        try (ChildJvm.Running server = startServer(db)) {
            try (ChildJvm.Running c = ChildJvm.main(CounterClient.class)
                    .workDir(dir)
                    .jvmArgs("-Xmx256m")
                    .args(uri(), secret.toString(), "1", Long.toString(off[0]), Long.toString(off[1]), "park")
                    .timeout(Duration.ofSeconds(120))
                    .start()) {
                assertEquals("written", c.nextLine(Duration.ofSeconds(60)), c.describe());
                c.kill();
                assertEquals(137, c.exitCode());
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!server.stderr().contains("disconnected") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(server.stderr().contains("disconnected"), "the server saw the client go: " + server.describe());
            try (RemotePages other = RemotePages.connect(uri(), secret, TIMEOUT_MS)) {
                try (RemoteTransaction t = other.begin()) {
                    assertEquals(0, t.view().get(LONG, off[0]), "the killed client's write never left it");
                    t.view().set(LONG, off[0], 5);
                    t.commit();
                }
            }
            server.terminate();
        }
    }
}
