package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch ({@link Transaction#batch}) holds the store latch for its thread until it is closed: the operations inside
 * add no hold of their own and release none, what they change commits and survives a reopen like any operation's,
 * another thread's operation waits until the batch is closed (a real second thread, observed parked on the latch,
 * bounded waits), and every way out of a batch (close, close again, close by a stranger, an exception inside, a
 * commit or an abort inside) leaves the latch held exactly as often as before it.
 */
@Timeout(60)
class BatchTest {
    @TempDir
    Path dir;

    private final ExecutorService other = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() throws InterruptedException {
        other.shutdownNow();
        assertTrue(other.awaitTermination(10, TimeUnit.SECONDS), "the second thread ended");
    }

    private Store create() throws Exception {
        return Store.create(dir.resolve("db"), 4096, new StoreOptions(256, 1 << 20, 1L << 30));
    }

    /** An operation of another thread completes within 10 s: no hold of the latch was left behind. */
    private void anotherThreadGetsTheLatch(Store store) throws Exception {
        Future<Boolean> f = other.submit(() -> store.run(() -> store.latch.isHeldByCurrentThread()));
        assertTrue(f.get(10, TimeUnit.SECONDS), "another thread's operation held the latch");
    }

    @Test
    void operationsInsideABatchAddNoHoldAndCommit() throws Exception {
        long[] refs = new long[500];
        try (Store store = create()) {
            try (Transaction tx = store.begin()) {
                tx.createIndex("ids", KeyType.INT, 0, true);
                try (Batch b = tx.batch()) {
                    assertTrue(b.isOpen());
                    assertEquals(1, store.latch.getHoldCount(), "the batch holds the latch once");
                    Index ids = tx.index("ids");
                    for (int i = 0; i < refs.length; i++) {
                        refs[i] = tx.allocate(16, i == 0 ? 0 : refs[i - 1]);
                        tx.putLong(refs[i], 8, 1_000L + i);
                        ids.insertNumeric(i, refs[i]);
                        assertEquals(1, store.latch.getHoldCount(), "an operation inside adds no hold");
                    }
                    assertEquals(refs[123], ids.lookupFirst(123));
                }
                assertEquals(0, store.latch.getHoldCount(), "closing the batch released its hold");
                anotherThreadGetsTheLatch(store);
                tx.commit();
            }
        }
        try (Store store = Store.open(dir.resolve("db"))) {
            try (Transaction tx = store.begin()) {
                Index ids = tx.index("ids");
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(refs[i], ids.lookupFirst(i), "index entry " + i + " after reopen");
                    assertEquals(1_000L + i, tx.getLong(refs[i], 8), "object " + i + " after reopen");
                }
            }
        }
    }

    @Test
    void anotherThreadWaitsUntilTheBatchIsClosed() throws Exception {
        try (Store store = create()) {
            try (Transaction tx = store.begin()) {
                long ref;
                Future<Long> waiting;
                Thread[] waiter = new Thread[1];
                try (Batch _ = tx.batch()) {
                    ref = tx.allocate(16);
                    tx.putLong(ref, 0, 42);
                    waiting = other.submit(() -> {
                        waiter[0] = Thread.currentThread();
                        return tx.getLong(ref, 0); // an operation of the same transaction from another thread
                    });
                    assertParkedOnTheLatch(store, waiting);
                    assertFalse(waiting.isDone(), "the other thread's operation ran inside the batch");
                    assertEquals(42, tx.getLong(ref, 0), "the batch's own thread goes on meanwhile");
                }
                assertEquals(42L, waiting.get(10, TimeUnit.SECONDS), "the other thread ran after the close");
                tx.commit();
            }
        }
    }

    /** Waits (at most 10 s) until a thread is queued on the store latch while {@code f} has not completed. */
    private static void assertParkedOnTheLatch(Store store, Future<?> f) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!store.latch.hasQueuedThreads()) {
            if (f.isDone()) {
                f.get(); // its failure, if it failed
                throw new AssertionError("the other thread's operation completed while the batch was open");
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the other thread did not queue on the latch in 10 s");
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void onlyTheOpeningThreadClosesABatchAndClosingTwiceIsNothing() throws Exception {
        try (Store store = create()) {
            try (Transaction tx = store.begin()) {
                Batch b = tx.batch();
                Future<?> stranger = other.submit(b::close);
                ExecutionException e = assertThrows(ExecutionException.class, () -> stranger.get(10, TimeUnit.SECONDS));
                IllegalStateException cause = (IllegalStateException) e.getCause();
                assertTrue(
                        cause.getMessage()
                                .startsWith("a batch is closed by the thread that opened it: opened by '"
                                        + Thread.currentThread().getName() + "', closed by '"),
                        cause.getMessage());
                assertTrue(b.isOpen(), "a stranger's close left the batch open");
                assertEquals(1, store.latch.getHoldCount());
                b.close();
                assertFalse(b.isOpen());
                b.close();
                assertEquals(0, store.latch.getHoldCount(), "a second close released nothing more");
                anotherThreadGetsTheLatch(store);
                tx.commit();
            }
        }
    }

    @Test
    void aBatchOfAnEndedTransactionIsRefusedAndHoldsNothing() throws Exception {
        try (Store store = create()) {
            Transaction tx = store.begin();
            tx.commit();
            StoreException e = assertThrows(StoreException.class, tx::batch);
            assertEquals("transaction " + tx.id() + " is committed", e.getMessage());
            assertEquals(0, store.latch.getHoldCount(), "the refused batch left no hold");
            anotherThreadGetsTheLatch(store);
        }
    }

    @Test
    void anExceptionInsideLeavesTheBatchToItsClose() throws Exception {
        try (Store store = create()) {
            try (Transaction tx = store.begin()) {
                long ref = tx.allocate(16);
                try (Batch _ = tx.batch()) {
                    assertThrows(IllegalArgumentException.class, () -> tx.allocate(1 << 20), "too big for a page");
                    assertEquals(1, store.latch.getHoldCount(), "the failed operation released nothing");
                    tx.putLong(ref, 0, 7); // the transaction goes on inside the batch
                }
                assertEquals(0, store.latch.getHoldCount());
                anotherThreadGetsTheLatch(store);
                assertEquals(7, tx.getLong(ref, 0));
                tx.commit();
            }
        }
    }

    @Test
    void aCommitOrAbortInsideABatchEndsTheTransactionAndTheBatchStillHoldsTheLatch() throws Exception {
        long ref;
        try (Store store = create()) {
            Transaction tx = store.begin();
            Batch b = tx.batch();
            Future<Boolean> begin;
            try {
                ref = tx.allocate(16);
                tx.putLong(ref, 0, 11);
                tx.setRoot("r", ref);
                tx.commit();
                assertFalse(tx.isActive());
                assertEquals(1, store.latch.getHoldCount(), "the batch holds the latch after the commit");
                begin = other.submit(() -> {
                    try (Transaction t2 = store.begin()) {
                        return t2.root("r") == ref;
                    }
                });
                assertParkedOnTheLatch(store, begin);
            } finally {
                b.close();
            }
            assertTrue(begin.get(10, TimeUnit.SECONDS), "another thread began after the close");
            Transaction t3 = store.begin();
            try (Batch _ = t3.batch()) {
                t3.putLong(ref, 0, 99);
                t3.abort();
                assertEquals(1, store.latch.getHoldCount());
            }
            assertEquals(0, store.latch.getHoldCount());
            try (Transaction t4 = store.begin()) {
                assertEquals(11, t4.getLong(ref, 0), "the abort inside the batch rolled back");
            }
        }
    }

    @Test
    void batchesNest() throws Exception {
        try (Store store = create()) {
            try (Transaction tx = store.begin()) {
                try (Batch _ = tx.batch()) {
                    try (Batch _ = tx.batch()) {
                        assertEquals(2, store.latch.getHoldCount());
                        tx.allocate(16);
                    }
                    assertEquals(1, store.latch.getHoldCount(), "the inner close released the inner hold only");
                    tx.allocate(16);
                }
                assertEquals(0, store.latch.getHoldCount());
                anotherThreadGetsTheLatch(store);
                tx.commit();
            }
        }
    }
}
