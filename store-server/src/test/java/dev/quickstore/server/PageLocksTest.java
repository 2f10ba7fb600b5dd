package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link PageLocks}: the youngest transaction of a deadlock cycle is the victim, whoever closes the cycle. */
class PageLocksTest {
    private static final long WAIT_MS = 10_000;

    @Test
    void theYoungestOfACycleIsRefusedEvenWhenTheOldestClosesIt() throws Exception {
        PageLocks locks = new PageLocks();
        ExecutorService pool = Executors.newFixedThreadPool(2); // own threads: the common pool has one here
        try {
            // old (session 1) and young (session 2) each read a page; young wants to write old's page first
            assertEquals(PageLocks.Outcome.GRANTED, locks.acquire(1, 100, PageLocks.SHARED, WAIT_MS));
            assertEquals(PageLocks.Outcome.GRANTED, locks.acquire(2, 200, PageLocks.SHARED, WAIT_MS));
            Future<PageLocks.Outcome> young = pool.submit(() -> locks.acquire(2, 100, PageLocks.EXCLUSIVE, WAIT_MS));
            waitUntilWaiting(locks, young);
            // the old transaction closes the cycle: the young one, waiting, is refused; the old one waits
            Future<PageLocks.Outcome> old = pool.submit(() -> locks.acquire(1, 200, PageLocks.EXCLUSIVE, WAIT_MS));
            assertEquals(PageLocks.Outcome.DEADLOCK, young.get(WAIT_MS, TimeUnit.MILLISECONDS));
            locks.releaseAll(2); // the victim's client aborts
            assertEquals(PageLocks.Outcome.GRANTED, old.get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertEquals(1, locks.counters()[1], "one deadlock");

            // the young one retries as a new transaction and waits for the old one to end
            Future<PageLocks.Outcome> retry = pool.submit(() -> locks.acquire(2, 100, PageLocks.EXCLUSIVE, WAIT_MS));
            waitUntilWaiting(locks, retry);
            locks.releaseAll(1);
            assertEquals(PageLocks.Outcome.GRANTED, retry.get(WAIT_MS, TimeUnit.MILLISECONDS));

            // a young requester that closes a cycle with an older waiter is refused itself
            locks.releaseAll(2);
            assertEquals(PageLocks.Outcome.GRANTED, locks.acquire(3, 300, PageLocks.SHARED, WAIT_MS)); // older
            assertEquals(PageLocks.Outcome.GRANTED, locks.acquire(4, 400, PageLocks.SHARED, WAIT_MS)); // younger
            Future<PageLocks.Outcome> older = pool.submit(() -> locks.acquire(3, 400, PageLocks.EXCLUSIVE, WAIT_MS));
            waitUntilWaiting(locks, older);
            assertEquals(PageLocks.Outcome.DEADLOCK, locks.acquire(4, 300, PageLocks.EXCLUSIVE, WAIT_MS));
            locks.releaseAll(4);
            assertEquals(PageLocks.Outcome.GRANTED, older.get(WAIT_MS, TimeUnit.MILLISECONDS));
            assertEquals(2, locks.counters()[1], "two deadlocks");
        } finally {
            pool.shutdownNow();
        }
    }

    /** Until {@code f}'s request is queued (it cannot be granted; bounded by the test's wait). */
    private static void waitUntilWaiting(PageLocks locks, Future<?> f) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!locks.anyWaiting() && !f.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertEquals(false, f.isDone(), "the request should wait");
    }
}
