package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.ServerSecret;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Catch-up from a snapshot (issue 18): a replica is stopped, the others commit and snapshot long enough for the
 * leader to purge the log past the stopped replica's applied index (purge up to the snapshot index, small log
 * segments), the replica is restarted: it cannot catch up from the log, the leader sends it its snapshot (Ratis's
 * snapshot installation, file chunks), it restores its store from it and applies the entries after it, and the
 * three replicas end with byte-identical pages at the same applied index, each store passing {@code verify}. The
 * seed has 400 one-page objects (a 3.2 MB volume), so the snapshot's files are sent in several 1 MiB chunks
 * ({@code -Dqs.test.snapshotObjects=N} and {@code -Dqs.test.snapshotChunkBytes=N} change both).
 */
class SnapshotInstallTest {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    @TempDir
    Path dir;

    @Test
    void aReplicaBehindThePurgedLogInstallsTheLeadersSnapshotAndCatchesUp() throws Exception {
        Path seed = dir.resolve("seed");
        long[] all = Seeds.build(seed, Integer.getInteger("qs.test.snapshotObjects", 400));
        long[] off = java.util.Arrays.copyOf(all, 4);
        Path secret = seed.resolve(ServerSecret.FILE);
        try (ReplicaGroupFixture g = new ReplicaGroupFixture(dir, seed, 3, 10)) {
            g.jvmArgs.addAll(List.of("-Dqs.replica.purgeUptoSnapshot=true", "-Dqs.replica.logSegmentBytes=4096"));
            // the diagnosis of issue 18's OutOfMemoryError (docs/results.md): other chunk sizes, GC logs kept
            if (System.getProperty("qs.test.snapshotChunkBytes") != null) {
                g.jvmArgs.add("-Dqs.replica.snapshotChunkBytes=" + System.getProperty("qs.test.snapshotChunkBytes"));
            }
            if (System.getProperty("qs.test.gcLogDir") != null) {
                g.jvmArgs.add("-Xlog:gc:file=" + System.getProperty("qs.test.gcLogDir") + "/gc-%p.log");
                g.jvmArgs.add("-XX:HeapDumpPath=" + System.getProperty("qs.test.gcLogDir"));
            }
            g.startAll();
            assertTimeoutPreemptively(Duration.ofSeconds(400), () -> {
                ClusterStatus.Member leader = g.awaitLeader(Duration.ofSeconds(60));
                int lagging = leader.id() == 3 ? 2 : 3;
                try (RemotePages c = connect(g, secret)) {
                    increment(c, off, 5);
                }
                g.awaitAgreement(Duration.ofSeconds(60));
                long behind = ClusterStatus.query(g.group, false, 2000)
                        .get(lagging - 1)
                        .appliedIndex();
                g.kill(lagging);
                long expected;
                try (RemotePages c = connect(g, secret)) {
                    expected = increment(c, off, 200);
                }
                ClusterStatus.Member now = g.awaitLeader(Duration.ofSeconds(60));
                assertTrue(
                        now.logStartIndex() > behind + 1,
                        "the leader purged its log past the stopped replica's applied index " + behind + ": " + now);
                g.start(lagging);
                g.awaitAgreement(Duration.ofSeconds(120));
                assertTrue(
                        g.running[lagging - 1].stderr().contains("installing the snapshot the leader sent"),
                        "replica " + lagging + " caught up through the leader's snapshot:\n" + g.describe());
                try (RemotePages c = connect(g, secret);
                        RemoteTransaction t = c.begin()) {
                    for (long o : off) {
                        assertEquals(expected, t.view().get(LONG, o), "every acknowledged commit is there");
                    }
                    t.commit();
                }
                // the group goes on with the restored replica: kill the old leader, the restored one is needed
                g.kill(now.id());
                try (RemotePages c = connect(g, secret)) {
                    assertEquals(expected + 3, increment(c, off, 3));
                }
                g.start(now.id());
                g.awaitAgreement(Duration.ofSeconds(120));
            });
        }
    }

    private static RemotePages connect(ReplicaGroupFixture g, Path secret) throws Exception {
        return GroupClient.connect(g.group.clientUris(), secret, 5000, Duration.ofSeconds(60));
    }

    /** Adds 1 to every object, {@code n} times (one transaction each); returns the value after the last. */
    private static long increment(RemotePages c, long[] off, int n) {
        long v = -1;
        for (int i = 0; i < n; i++) {
            try (RemoteTransaction t = c.begin()) {
                for (long o : off) {
                    v = t.view().get(LONG, o) + 1;
                    t.view().set(LONG, o, v);
                }
                t.commit();
            }
        }
        return v;
    }
}
