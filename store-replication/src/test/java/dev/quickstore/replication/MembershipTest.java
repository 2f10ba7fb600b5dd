package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.core.remote.TransactionConflictException;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Membership changes while a client commits (issue 18; {@link ClusterMembership}): a fourth replica, started from
 * the seed, is added to a running group of three - it catches up and agrees page for page with the others - then
 * a follower is removed and stopped, and the group of three goes on; every change is refused in one line when the
 * member is unknown, already there or down, or when the new configuration would not have a majority up. A client
 * commits throughout: every acknowledged commit is there at the end, and the replicas of the final configuration
 * (the added one among them) agree page for page and pass {@code verify}.
 */
class MembershipTest {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    @TempDir
    Path dir;

    @Test
    void aFourthReplicaIsAddedAndCatchesUpThenAFollowerIsRemovedWhileCommitsGoOn() throws Exception {
        Path seed = dir.resolve("seed");
        long[] off = Seeds.build(seed, 4);
        Path secret = seed.resolve(ServerSecret.FILE);
        try (ReplicaGroupFixture g = new ReplicaGroupFixture(dir, seed, 4, 3, 10)) {
            g.startAll();
            assertTimeoutPreemptively(Duration.ofSeconds(400), () -> {
                g.awaitLeader(Duration.ofSeconds(60));
                AtomicBoolean stop = new AtomicBoolean();
                AtomicLong acked = new AtomicLong();
                AtomicLong inDoubt = new AtomicLong();
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                Thread client = Thread.ofPlatform().name("committer").start(() -> {
                    try {
                        commitUntil(g, secret, off[0], stop, acked, inDoubt);
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                });
                try {
                    awaitMore(acked, 10, failures);
                    InetSocketAddress fourth = g.all.member(4);
                    ClusterMembership.RefusedException down = assertThrows(
                            ClusterMembership.RefusedException.class,
                            () -> ClusterMembership.add(g.group, fourth, 2000));
                    assertTrue(down.getMessage().contains("does not answer"), down.getMessage());

                    g.start(4);
                    ReplicaGroup four = ClusterMembership.add(g.group, fourth, 5000);
                    assertEquals(g.all.members(), four.members());
                    g.group = four;
                    awaitMore(acked, 10, failures);
                    ClusterStatus.Member leader = g.awaitLeader(Duration.ofSeconds(60));
                    awaitApplied(g, g.all.clientUri(4), leader.commitIndex()); // the new replica caught up
                    assertEquals(4, leader.conf().size(), "the leader's configuration: " + leader.conf());
                    ClusterMembership.RefusedException again = assertThrows(
                            ClusterMembership.RefusedException.class,
                            () -> ClusterMembership.add(g.group, fourth, 2000));
                    assertTrue(again.getMessage().contains("already a member"), again.getMessage());

                    // remove a follower other than the new one, then stop it
                    int removed = leader.id() == 1 ? 2 : 1;
                    ReplicaGroup three = ClusterMembership.remove(g.group, g.all.member(removed), 5000);
                    assertEquals(3, three.members().size());
                    assertTrue(!three.members().contains(g.all.member(removed)));
                    g.group = three;
                    g.kill(removed);
                    awaitMore(acked, 10, failures);
                    ClusterMembership.RefusedException unknown = assertThrows(
                            ClusterMembership.RefusedException.class,
                            () -> ClusterMembership.remove(g.group, g.all.member(removed), 2000));
                    assertTrue(unknown.getMessage().startsWith("unknown member"), unknown.getMessage());

                    // one of the three down: removing another live one would leave 1 of 2 up
                    ClusterStatus.Member l3 = g.awaitLeader(Duration.ofSeconds(60));
                    List<ClusterStatus.Member> st = ClusterStatus.query(g.group, false, 2000);
                    ClusterStatus.Member[] followers =
                            st.stream().filter(m -> m.up() && m.id() != l3.id()).toArray(ClusterStatus.Member[]::new);
                    assertEquals(2, followers.length, st.toString());
                    g.kill(g.index(followers[0]));
                    ClusterMembership.RefusedException majority = assertThrows(
                            ClusterMembership.RefusedException.class,
                            () -> ClusterMembership.remove(g.group, g.group.member(followers[1].id()), 2000));
                    assertTrue(majority.getMessage().contains("would lose the majority"), majority.getMessage());
                    g.start(g.index(followers[0]));
                    awaitMore(acked, 10, failures);
                } finally {
                    stop.set(true);
                    client.join(60_000);
                }
                if (!failures.isEmpty()) {
                    fail("the client failed: " + failures.peek() + "\n" + g.describe(), failures.peek());
                }
                try (RemotePages c = connect(g, secret);
                        RemoteTransaction t = c.begin()) {
                    long v = t.view().get(LONG, off[0]);
                    assertTrue(
                            v >= acked.get() && v <= acked.get() + inDoubt.get(),
                            "counter " + v + ", acknowledged " + acked + ", in doubt " + inDoubt);
                    t.commit();
                }
                String digest = g.awaitAgreement(Duration.ofSeconds(120));
                assertNotEquals(null, digest);
            });
        }
    }

    private static RemotePages connect(ReplicaGroupFixture g, Path secret) throws Exception {
        return GroupClient.connect(g.group.clientUris(), secret, 5000, Duration.ofSeconds(60));
    }

    /** Waits (2 minutes at most) until the member {@code uri} has applied the log up to {@code index}. */
    private static void awaitApplied(ReplicaGroupFixture g, String uri, long index) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        List<ClusterStatus.Member> st = List.of();
        while (System.nanoTime() < deadline) {
            st = ClusterStatus.query(g.group, false, 2000);
            if (st.stream().anyMatch(m -> m.uri().equals(uri) && m.up() && m.appliedIndex() >= index)) {
                return;
            }
            Thread.sleep(100);
        }
        fail(uri + " did not apply the log up to " + index + ": " + st + "\n" + g.describe());
    }

    private static void awaitMore(AtomicLong acked, int n, ConcurrentLinkedQueue<Throwable> failures)
            throws InterruptedException {
        long target = acked.get() + n;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (acked.get() < target) {
            if (!failures.isEmpty() || System.nanoTime() > deadline) {
                fail("no commits (" + acked + " of " + target + "): " + failures.peek());
            }
            Thread.sleep(5);
        }
    }

    /** +1 per transaction; reconnects (to the group the test currently names) after a refusal. */
    private static void commitUntil(
            ReplicaGroupFixture g, Path secret, long off, AtomicBoolean stop, AtomicLong acked, AtomicLong inDoubt)
            throws Exception {
        RemotePages pages = null;
        try {
            while (!stop.get()) {
                if (pages == null) {
                    pages = connect(g, secret);
                }
                try (RemoteTransaction t = pages.begin()) {
                    long v = t.view().get(LONG, off) + 1;
                    t.view().set(LONG, off, v);
                    try {
                        t.commit();
                    } catch (TransactionConflictException e) {
                        continue;
                    } catch (RuntimeException e) {
                        inDoubt.incrementAndGet();
                        throw e;
                    }
                    acked.incrementAndGet();
                } catch (TransactionConflictException e) {
                    // retried
                } catch (RuntimeException e) {
                    pages.close();
                    pages = null;
                }
                Thread.sleep(10);
            }
        } finally {
            if (pages != null) {
                pages.close();
            }
        }
    }
}
