package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store latch taken once per nest of operations ({@code Store.enter}/{@code exit}): an operation begun while
 * its thread holds the latch (an index scan's visitor looking up another index, as OO7 Q8 does; an abort inside
 * {@code Transaction.close}, which locks the latch itself) neither locks it again nor releases it, and the
 * operation that took it releases it exactly once, also when the nest ends by an exception. Each case checks
 * the hold count on the owning thread and that another thread's operation then gets the latch (a real second
 * thread, bounded wait).
 */
@Timeout(60)
class LatchNestingTest {
    @TempDir
    Path dir;

    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() throws InterruptedException {
        other.shutdownNow();
        assertTrue(other.awaitTermination(10, TimeUnit.SECONDS), "the second thread ended");
    }

    private static Store build(Path db) throws Exception {
        Store store = Store.create(db, 4096, new StoreOptions(256, 1 << 20, 1L << 30));
        try (Transaction tx = store.begin()) {
            tx.createIndex("outer", KeyType.INT, 0, true);
            tx.createIndex("inner", KeyType.INT, 0, true);
            for (int k = 0; k < 2_000; k++) {
                tx.index("outer").insertNumeric(k, 1);
                tx.index("inner").insertNumeric(k, value(k));
            }
            tx.commit();
        }
        return store;
    }

    private static long value(long key) {
        return 0x1000 + key * 8;
    }

    /** The sum of value(k) for k in [0, n). */
    private static long valueSum(long n) {
        return 0x1000 * n + 8 * (n * (n - 1) / 2);
    }

    /** An operation of another thread completes: the latch is free (it would wait forever for a leaked hold). */
    private void anotherThreadGetsTheLatch(Store store) throws Exception {
        Future<Boolean> f = other.submit(() -> store.run(() -> store.latch.isHeldByCurrentThread()));
        assertTrue(f.get(10, TimeUnit.SECONDS), "another thread's operation held the latch");
    }

    @Test
    void lookupsFromAScanTakeTheLatchOnce() throws Exception {
        try (Store store = build(dir.resolve("db"))) {
            try (Transaction tx = store.begin()) {
                Index inner = tx.index("inner");
                long[] sum = {0};
                int[] holds = {0, 0};
                tx.index("outer").scanNumeric(0, 1_999, (key, ref) -> {
                    holds[0] = Math.max(holds[0], store.latch.getHoldCount());
                    sum[0] += inner.lookupFirst(key);
                    holds[1] = Math.max(holds[1], store.run(() -> store.latch.getHoldCount()));
                    return true;
                });
                assertEquals(valueSum(2_000), sum[0], "every nested lookup found its key");
                assertEquals(1, holds[0], "the scan holds the latch once");
                assertEquals(1, holds[1], "an operation nested in the scan adds no hold");
                assertFalse(store.latch.isHeldByCurrentThread(), "released after the scan");
                anotherThreadGetsTheLatch(store);
                assertEquals(value(1_999), inner.lookupFirst(1_999), "the transaction goes on");
                tx.commit();
            }
            assertEquals(0, store.latch.getHoldCount());
            anotherThreadGetsTheLatch(store);
        }
    }

    @Test
    void aNestEndedByAnExceptionReleasesTheLatchOnce() throws Exception {
        try (Store store = build(dir.resolve("db"))) {
            try (Transaction tx = store.begin()) {
                Index inner = tx.index("inner");
                IllegalStateException e = assertThrows(
                        IllegalStateException.class,
                        () -> tx.index("outer").scanNumeric(0, 1_999, (key, ref) -> {
                            inner.lookupFirst(key);
                            if (key == 7) {
                                throw new IllegalStateException("visitor stops at 7");
                            }
                            return true;
                        }));
                assertEquals("visitor stops at 7", e.getMessage());
                assertEquals(0, store.latch.getHoldCount(), "no hold left by the scan or its lookups");
                anotherThreadGetsTheLatch(store);
                assertEquals(value(7), inner.lookupFirst(7), "the transaction goes on");
                tx.commit();
            }
        }
    }

    @Test
    void anAbortInsideCloseLeavesTheCallersLockToTheCaller() throws Exception {
        try (Store store = build(dir.resolve("db"))) {
            Transaction tx = store.begin();
            tx.index("inner").insertNumeric(5_000, 1);
            tx.close(); // locks the latch itself, then aborts through an operation nested in that lock
            assertEquals(0, store.latch.getHoldCount(), "close released its own lock, the abort none");
            anotherThreadGetsTheLatch(store);
            try (Transaction t2 = store.begin()) {
                assertEquals(0, t2.index("inner").lookupFirst(5_000), "the insert was aborted");
            }
        }
    }

    @Test
    void twoThreadsInterleaveNestsAndSingleOperations() throws Exception {
        try (Store store = build(dir.resolve("db"))) {
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch running = new CountDownLatch(1);
            Future<Integer> single = other.submit(() -> {
                int n = 0;
                while (!stop.get()) {
                    assertTrue(store.run(() -> store.latch.getHoldCount() == 1), "one hold inside an operation");
                    n++;
                    running.countDown();
                }
                return n;
            });
            // the nests below take well under a millisecond (lookups answered from the memo): start them only once
            // the other thread runs its operations, so that the two interleave
            if (!running.await(10, TimeUnit.SECONDS)) {
                single.get(1, TimeUnit.SECONDS); // its failure, if it failed
                fail("the other thread ran no operation in 10 s");
            }
            try (Transaction tx = store.begin()) {
                Index inner = tx.index("inner");
                for (int round = 0; round < 50; round++) {
                    long[] sum = {0};
                    tx.index("outer").scanNumeric(0, 99, (key, ref) -> {
                        assertEquals(1, store.latch.getHoldCount(), "one hold inside the nest");
                        sum[0] += inner.lookupFirst(key);
                        return true;
                    });
                    assertEquals(valueSum(100), sum[0], "round " + round);
                    assertFalse(store.latch.isHeldByCurrentThread());
                }
                tx.commit();
            } finally {
                stop.set(true);
            }
            assertTrue(single.get(10, TimeUnit.SECONDS) > 0, "the other thread ran operations");
        }
    }
}
