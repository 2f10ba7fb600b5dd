package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.core.remote.ServerUnavailableException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replica processes on loopback (issue 18): commits through the leader reach every replica (equal page
 * digests at equal applied indexes), a follower refuses clients naming the leader, the leader's SIGKILL elects a
 * new one whose store holds every acknowledged commit, the killed replica restarted catches up, and a leader cut
 * off from its majority (the followers paused with SIGSTOP) acknowledges nothing.
 */
class ReplicatedPageServerTest {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final int TIMEOUT_MS = 5000;

    @TempDir
    Path dir;

    private long[] off;
    private Path secret;

    private ReplicaGroupFixture group(int checkpointEvery) throws Exception {
        Path seed = dir.resolve("seed");
        off = Seeds.build(seed, 4);
        secret = seed.resolve(ServerSecret.FILE);
        return new ReplicaGroupFixture(dir, seed, 3, checkpointEvery);
    }

    private RemotePages connect(ReplicaGroupFixture g) throws Exception {
        return GroupClient.connect(g.group.clientUris(), secret, TIMEOUT_MS, Duration.ofSeconds(60));
    }

    /** Adds 1 to object 0, {@code n} times; returns the value after the last. */
    private static long increment(RemotePages c, long offset, int n) {
        long v = -1;
        for (int i = 0; i < n; i++) {
            try (RemoteTransaction t = c.begin()) {
                v = t.view().get(LONG, offset) + 1;
                t.view().set(LONG, offset, v);
                t.commit();
            }
        }
        return v;
    }

    private static long read(RemotePages c, long offset) {
        try (RemoteTransaction t = c.begin()) {
            long v = t.view().get(LONG, offset);
            t.commit();
            return v;
        }
    }

    @Test
    void commitsReachEveryReplicaAndSurviveTheLeadersKill() throws Exception {
        try (ReplicaGroupFixture g = group(7)) {
            g.startAll();
            assertTimeoutPreemptively(Duration.ofSeconds(400), () -> {
                ClusterStatus.Member leader = g.awaitLeader(Duration.ofSeconds(60));
                String before = g.awaitAgreement(Duration.ofSeconds(60));
                // a follower refuses a client, naming the leader
                int follower = leader.id() == 1 ? 2 : 1;
                ServerUnavailableException refused = assertThrows(
                        ServerUnavailableException.class,
                        () -> RemotePages.connect(g.group.clientUri(follower), secret, TIMEOUT_MS)
                                .close());
                assertTrue(refused.getMessage().contains("the leader is " + leader.uri()), refused.getMessage());
                try (RemotePages c = connect(g)) {
                    assertEquals(20, increment(c, off[0], 20));
                }
                String after = g.awaitAgreement(Duration.ofSeconds(60));
                assertNotEquals(before, after, "the commits changed the replicas' pages");
                List<ClusterStatus.Member> st = ClusterStatus.query(g.group, false, 2000);
                assertTrue(
                        st.stream().allMatch(m -> m.snapshotIndex() > 0), "CHECKPOINT entries made snapshots: " + st);

                g.kill(leader.id());
                ClusterStatus.Member next = g.awaitLeader(Duration.ofSeconds(60));
                assertNotEquals(leader.id(), next.id());
                try (RemotePages c = connect(g)) {
                    assertEquals(20, read(c, off[0]), "every acknowledged commit survives the leader's death");
                    assertEquals(30, increment(c, off[0], 10));
                }
                g.start(leader.id()); // restarted: rebuilt from its snapshot, then the log it missed
                g.awaitAgreement(Duration.ofSeconds(120));
            });
        } finally {
            // fixtures stop every child
        }
    }

    @Test
    void aLeaderCutOffFromItsMajorityAcknowledgesNothing() throws Exception {
        try (ReplicaGroupFixture g = group(1000)) {
            g.startAll();
            assertTimeoutPreemptively(Duration.ofSeconds(300), () -> {
                ClusterStatus.Member leader = g.awaitLeader(Duration.ofSeconds(60));
                try (RemotePages c = connect(g)) {
                    assertEquals(3, increment(c, off[1], 3));
                    int[] followers = leader.id() == 1
                            ? new int[] {2, 3}
                            : leader.id() == 2 ? new int[] {1, 3} : new int[] {1, 2};
                    for (int f : followers) {
                        g.signal(f, "STOP");
                    }
                    try {
                        RemoteTransaction t = c.begin();
                        t.view().set(LONG, off[1], 100);
                        assertThrows(ServerUnavailableException.class, t::commit, "a minority cannot acknowledge");
                    } finally {
                        for (int f : followers) {
                            g.signal(f, "CONT");
                        }
                    }
                }
                g.awaitLeader(Duration.ofSeconds(60));
                try (RemotePages c = connect(g)) {
                    long v = read(c, off[1]);
                    assertTrue(v == 3 || v == 100, "the unacknowledged commit is in doubt, nothing else: " + v);
                    assertEquals(v + 1, increment(c, off[1], 1), "the group goes on once the majority is back");
                }
                g.awaitAgreement(Duration.ofSeconds(60));
            });
        }
    }
}
