package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.core.remote.TransactionConflictException;
import dev.quickstore.server.PageServerMain;
import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.LoopbackReplicas;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost of replication, measured in one run (a benchmark, not a test: it asserts only that work was done; run
 * with {@code -Dqs.bench=true}): commit latency of one client (sequential commits, median and 99th percentile) and
 * the throughput of three clients (commits per second, each client on its own page) against one page server
 * ({@link PageServerMain}, the baseline) and against a group of three replicas on loopback, reported as ratios.
 */
@EnabledIfSystemProperty(named = "qs.bench", matches = "true")
class ReplicationBenchmarkTest {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int COMMITS = Integer.getInteger("qs.bench.commits", 300);
    private static final int SECONDS = Integer.getInteger("qs.bench.seconds", 10);

    @TempDir
    Path dir;

    private record Result(double medianMs, double p99Ms, double commitsPerSecond) {}

    @Test
    void commitLatencyAndThroughputOfOneServerAndThreeReplicas() throws Exception {
        Path seed = dir.resolve("seed");
        long[] off = Seeds.build(seed, 4);
        Path secret = seed.resolve(ServerSecret.FILE);
        Path single = dir.resolve("single");
        LoopbackReplicas.copySeed(seed, single);
        Result one;
        try (ChildJvm.Running s = ChildJvm.main(PageServerMain.class)
                .workDir(dir)
                .jvmArgs("-Xmx384m")
                .args(single.toString(), "127.0.0.1:0")
                .timeout(Duration.ofSeconds(600))
                .start()) {
            String line = s.nextLine(Duration.ofSeconds(60));
            if (line == null || !line.startsWith("listening qs://")) {
                fail("the single server did not start: " + line + "; " + s.describe());
            }
            one = measure(List.of(line.substring("listening ".length())), secret, off);
        }
        Result three;
        try (ReplicaGroupFixture g = new ReplicaGroupFixture(dir.resolve("group"), seed, 3, 1000)) {
            g.startAll();
            g.awaitLeader(Duration.ofSeconds(60));
            three = measure(g.group.clientUris(), secret, off);
        }
        System.out.printf(
                "commit latency, 1 client: 1 server median %.2f ms p99 %.2f ms; 3 replicas median %.2f ms p99 %.2f ms;"
                        + " ratio (3 replicas / 1 server) median %.2f, p99 %.2f%n",
                one.medianMs(),
                one.p99Ms(),
                three.medianMs(),
                three.p99Ms(),
                three.medianMs() / one.medianMs(),
                three.p99Ms() / one.p99Ms());
        System.out.printf(
                "throughput, 3 clients: 1 server %.0f commits/s; 3 replicas %.0f commits/s; ratio %.2f%n",
                one.commitsPerSecond(), three.commitsPerSecond(), three.commitsPerSecond() / one.commitsPerSecond());
    }

    private static Result measure(List<String> members, Path secret, long[] off) throws Exception {
        long[] nanos = new long[COMMITS];
        try (RemotePages c = GroupClient.connect(members, secret, 5000, Duration.ofSeconds(60))) {
            for (int i = 0; i < 50; i++) {
                commit(c, off[1]); // warm-up
            }
            for (int i = 0; i < COMMITS; i++) {
                long t0 = System.nanoTime();
                commit(c, off[1]);
                nanos[i] = System.nanoTime() - t0;
            }
        }
        Arrays.sort(nanos);
        AtomicLong done = new AtomicLong();
        List<Thread> ts = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        long end = System.nanoTime() + Duration.ofSeconds(SECONDS).toNanos();
        for (int k = 0; k < 3; k++) {
            long own = off[k + 1];
            ts.add(Thread.ofPlatform().start(() -> {
                try (RemotePages c = GroupClient.connect(members, secret, 5000, Duration.ofSeconds(60))) {
                    while (System.nanoTime() < end) {
                        commit(c, own);
                        done.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        for (Thread t : ts) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> "a client failed: " + failures.getFirst());
        assertTrue(done.get() > 0);
        return new Result(nanos[COMMITS / 2] / 1e6, nanos[(int) (COMMITS * 0.99)] / 1e6, done.get() / (double) SECONDS);
    }

    private static void commit(RemotePages c, long offset) {
        while (true) {
            try (RemoteTransaction t = c.begin()) {
                t.view().set(LONG, offset, t.view().get(LONG, offset) + 1);
                t.commit();
                return;
            } catch (TransactionConflictException e) {
                // not expected: each client writes its own page
            }
        }
    }
}
