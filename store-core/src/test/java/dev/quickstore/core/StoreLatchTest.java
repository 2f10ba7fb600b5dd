package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The store latch ({@link StoreLatch}) with real threads: mutual exclusion of plain (unfenced) updates under
 * contention, many hand-offs between two threads with nothing lost (a missed wake-up ends by the park's bound, so
 * every wait here is bounded by the watchdog), reentrant holds, a release by a stranger refused, a timed try that
 * gives up while another thread holds the latch, an interrupted try, and an interrupt kept through an
 * uninterruptible wait.
 */
@Timeout(60)
class StoreLatchTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS), "the test's threads ended");
    }

    /** A counter that is neither volatile nor atomic: only the latch orders its updates. */
    private static final class Counter {
        long value;
        boolean inside;
    }

    @Test
    void fourThreadsIncrementAPlainCounterWithoutLosingAnUpdate() throws Exception {
        StoreLatch latch = new StoreLatch();
        Counter c = new Counter();
        AtomicBoolean overlap = new AtomicBoolean();
        int perThread = 200_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            fs.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < perThread; i++) {
                    latch.lock();
                    try {
                        if (c.inside) {
                            overlap.set(true);
                        }
                        c.inside = true;
                        c.value++;
                        c.inside = false;
                    } finally {
                        latch.unlock();
                    }
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : fs) {
            f.get(50, TimeUnit.SECONDS);
        }
        latch.lock();
        try {
            assertEquals(4L * perThread, c.value, "updates lost: the latch let two holders in");
            assertFalse(overlap.get(), "two threads were inside at once");
        } finally {
            latch.unlock();
        }
        assertFalse(latch.hasQueuedThreads(), "no thread waits any more");
    }

    /** Two threads hand the latch back and forth; each hand-off wakes a parked waiter (or its bounded park does). */
    @Test
    void handOffsBetweenTwoThreadsAllComplete() throws Exception {
        StoreLatch latch = new StoreLatch();
        Counter turn = new Counter();
        int rounds = 2_000;
        Future<?>[] fs = new Future<?>[2];
        for (int me = 0; me < 2; me++) {
            int mine = me;
            fs[me] = pool.submit(() -> {
                int done = 0;
                while (done < rounds) {
                    latch.lock();
                    try {
                        if (turn.value % 2 == mine) {
                            turn.value++;
                            done++;
                        }
                    } finally {
                        latch.unlock();
                    }
                }
                return null;
            });
        }
        for (Future<?> f : fs) {
            f.get(50, TimeUnit.SECONDS);
        }
        latch.lock();
        try {
            assertEquals(2L * rounds, turn.value);
        } finally {
            latch.unlock();
        }
    }

    @Test
    void holdsAreCountedAndOnlyTheOwnerReleases() throws Exception {
        StoreLatch latch = new StoreLatch();
        assertEquals(0, latch.getHoldCount());
        assertFalse(latch.isHeldByCurrentThread());
        latch.lock();
        latch.lock();
        assertTrue(latch.tryLock(1, TimeUnit.MILLISECONDS), "reentrant try");
        assertEquals(3, latch.getHoldCount());
        Future<Boolean> stranger = pool.submit(() -> {
            assertEquals(0, latch.getHoldCount(), "another thread holds nothing");
            assertThrows(IllegalMonitorStateException.class, latch::unlock);
            return latch.isHeldByCurrentThread();
        });
        assertFalse(stranger.get(10, TimeUnit.SECONDS));
        latch.unlock();
        latch.unlock();
        assertTrue(latch.isHeldByCurrentThread(), "one hold left");
        latch.unlock();
        assertFalse(latch.isHeldByCurrentThread());
        assertThrows(IllegalMonitorStateException.class, latch::unlock, "a free latch is not released");
        assertTrue(
                pool.submit(() -> latch.tryLock(10, TimeUnit.SECONDS)).get(20, TimeUnit.SECONDS),
                "another thread takes the freed latch");
    }

    /** Waits (at most 10 s) until a thread is counted as waiting for {@code latch}. */
    private static void awaitQueued(StoreLatch latch, String who) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!latch.hasQueuedThreads()) {
            assertTrue(System.nanoTime() < deadline, who + " did not queue in 10 s");
            Thread.onSpinWait();
        }
    }

    @Test
    void aTimedTryGivesUpWhileAnotherThreadHoldsTheLatchAndAWaiterIsWokenByTheRelease() throws Exception {
        StoreLatch latch = new StoreLatch();
        latch.lock();
        try {
            assertFalse(
                    pool.submit(() -> latch.tryLock(30, TimeUnit.MILLISECONDS)).get(10, TimeUnit.SECONDS),
                    "the latch is held here");
            Future<Boolean> waiter = pool.submit(() -> {
                latch.lock();
                try {
                    return latch.getHoldCount() == 1;
                } finally {
                    latch.unlock();
                }
            });
            awaitQueued(latch, "the waiter");
            assertFalse(waiter.isDone(), "the waiter waits while the latch is held");
            latch.unlock();
            assertTrue(waiter.get(10, TimeUnit.SECONDS), "the waiter took the latch once");
            latch.lock();
        } finally {
            latch.unlock();
        }
        assertFalse(latch.hasQueuedThreads());
    }

    @Test
    void anInterruptedTryThrowsAndALockKeepsTheInterrupt() throws Exception {
        StoreLatch latch = new StoreLatch();
        latch.lock();
        try {
            Future<Boolean> tryer = pool.submit(() -> {
                Thread.currentThread().interrupt();
                assertThrows(InterruptedException.class, () -> latch.tryLock(10, TimeUnit.SECONDS));
                return latch.isHeldByCurrentThread();
            });
            assertFalse(tryer.get(10, TimeUnit.SECONDS), "the interrupted try did not take the latch");
            AtomicReference<Thread> lockerThread = new AtomicReference<>();
            Future<Boolean> locker = pool.submit(() -> {
                lockerThread.set(Thread.currentThread());
                latch.lock(); // interrupted while it waits (below): it keeps waiting
                try {
                    return Thread.currentThread().isInterrupted();
                } finally {
                    latch.unlock();
                }
            });
            awaitQueued(latch, "the locker");
            lockerThread.get().interrupt();
            assertFalse(locker.isDone(), "the interrupted locker still waits: the latch is held here");
            latch.unlock();
            assertTrue(locker.get(10, TimeUnit.SECONDS), "the locker took the latch and kept its interrupt");
            latch.lock();
        } finally {
            latch.unlock();
        }
    }
}
