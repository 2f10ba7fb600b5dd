package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repeated failovers under a multi-client update workload (issue 18): three replica processes, three clients (each
 * its own connection, in this JVM, which is not a replica's) adding 1 to a shared counter and to their own in every
 * transaction; the leader is SIGKILLed {@value #CI_FAILOVERS} times ({@value #LONG_FAILOVERS} with {@code
 * -Dqs.long=true}) and restarted each time. Afterwards: every acknowledged commit is present (each client's own
 * counter is at least its last acknowledged value, and at most that plus its commits whose outcome it could not
 * know), the shared counter equals the sum of the clients' (commits are atomic, none applied twice), no client hung
 * (every wait is bounded), and the three replicas agree page for page at the same applied index.
 */
class FailoverTest {
    static final int CI_FAILOVERS = 5;
    static final int LONG_FAILOVERS = 50;
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    @TempDir
    Path dir;

    /** One client: its last acknowledged value of its own counter and its commits of unknown outcome. */
    private static final class Client {
        final AtomicLong acked = new AtomicLong();
        final AtomicLong commits = new AtomicLong();
        final AtomicLong inDoubt = new AtomicLong();
        final AtomicLong conflicts = new AtomicLong();
    }

    @Test
    void repeatedLeaderKillsUnderAMultiClientWorkloadLoseNoAcknowledgedCommit() throws Exception {
        int failovers = ChildJvm.longMode() ? LONG_FAILOVERS : CI_FAILOVERS;
        Path seed = dir.resolve("seed");
        long[] off = Seeds.build(seed, 4);
        Path secret = seed.resolve(ServerSecret.FILE);
        try (ReplicaGroupFixture g = new ReplicaGroupFixture(dir, seed, 3, 25)) {
            g.startAll();
            assertTimeoutPreemptively(Duration.ofSeconds(ChildJvm.longMode() ? 3000 : 500), () -> {
                g.awaitLeader(Duration.ofSeconds(60));
                AtomicBoolean stop = new AtomicBoolean();
                ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
                List<Client> clients = new ArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    Client c = new Client();
                    clients.add(c);
                    long own = off[i + 1];
                    threads.add(Thread.ofPlatform().name("client-" + i).start(() -> {
                        try {
                            work(g, secret, off[0], own, c, stop);
                        } catch (Throwable t) {
                            failures.add(t);
                        }
                    }));
                }
                List<Long> failoverMs = new ArrayList<>();
                try {
                    for (int f = 0; f < failovers; f++) {
                        awaitCommits(clients, 10, failures, g);
                        ClusterStatus.Member leader = g.awaitLeader(Duration.ofSeconds(60));
                        long before = total(clients);
                        g.kill(leader.id());
                        long t0 = System.nanoTime();
                        awaitCommits(clients, 1, failures, g);
                        failoverMs.add((System.nanoTime() - t0) / 1_000_000);
                        assertTrue(total(clients) > before);
                        g.start(leader.id());
                    }
                } finally {
                    stop.set(true);
                    for (Thread t : threads) {
                        t.join(60_000);
                    }
                }
                if (!failures.isEmpty()) {
                    fail("a client failed: " + failures.peek() + "\n" + g.describe(), failures.peek());
                }
                System.out.println("failover times (ms, leader SIGKILL to the next acknowledged commit): "
                        + failoverMs.stream().sorted().toList());
                try (RemotePages c = GroupClient.connect(g.group.clientUris(), secret, 5000, Duration.ofSeconds(60));
                        RemoteTransaction t = c.begin()) {
                    MemorySegment v = t.view();
                    long sum = 0;
                    for (int i = 0; i < clients.size(); i++) {
                        Client cl = clients.get(i);
                        long own = v.get(LONG, off[i + 1]);
                        sum += own;
                        assertTrue(
                                own >= cl.acked.get() && own <= cl.acked.get() + cl.inDoubt.get(),
                                "client " + i + ": counter " + own + ", last acknowledged " + cl.acked.get() + ", "
                                        + cl.inDoubt.get() + " in doubt");
                        assertTrue(cl.commits.get() > 0, "client " + i + " committed");
                    }
                    assertEquals(sum, v.get(LONG, off[0]), "the shared counter is the sum of the clients'");
                    t.commit();
                }
                g.awaitAgreement(Duration.ofSeconds(120));
            });
        }
    }

    private static long total(List<Client> clients) {
        return clients.stream().mapToLong(c -> c.commits.get()).sum();
    }

    /** Waits until the clients acknowledged {@code n} more commits (60 s at most: no hang). */
    private static void awaitCommits(
            List<Client> clients, int n, ConcurrentLinkedQueue<Throwable> failures, ReplicaGroupFixture g)
            throws InterruptedException {
        long target = total(clients) + n;
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (total(clients) < target) {
            if (!failures.isEmpty() || System.nanoTime() > deadline) {
                fail("the clients made no progress (" + total(clients) + " of " + target + " commits): "
                        + failures.peek() + "\n" + g.describe());
            }
            Thread.sleep(5);
        }
    }

    /** A client's loop: own and shared counters +1 per transaction; reconnects after a failover. */
    private static void work(ReplicaGroupFixture g, Path secret, long shared, long own, Client c, AtomicBoolean stop)
            throws Exception {
        RemotePages pages = null;
        try {
            while (!stop.get()) {
                if (pages == null) {
                    pages = GroupClient.connect(g.group.clientUris(), secret, 5000, Duration.ofSeconds(60));
                }
                try (RemoteTransaction t = pages.begin()) {
                    MemorySegment v = t.view();
                    long mine = v.get(LONG, own) + 1;
                    v.set(LONG, own, mine);
                    v.set(LONG, shared, v.get(LONG, shared) + 1);
                    try {
                        t.commit();
                    } catch (TransactionConflictException e) {
                        c.conflicts.incrementAndGet();
                        continue;
                    } catch (RuntimeException e) {
                        c.inDoubt.incrementAndGet(); // the server went away while committing: outcome unknown
                        throw e;
                    }
                    c.acked.set(mine);
                    c.commits.incrementAndGet();
                } catch (TransactionConflictException e) {
                    c.conflicts.incrementAndGet();
                } catch (NoLeaderException e) {
                    throw e;
                } catch (RuntimeException e) { // ServerUnavailableException: the leader died or stepped down
                    pages.close();
                    pages = null;
                }
            }
        } finally {
            if (pages != null) {
                pages.close();
            }
        }
    }
}
