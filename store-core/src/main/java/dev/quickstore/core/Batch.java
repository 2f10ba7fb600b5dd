package dev.quickstore.core;

/**
 * A batch: the store latch held by one thread across many operations of a transaction ({@link Transaction#batch},
 * {@code ObjectTransaction.batch}). Every store operation takes and releases the latch ({@link OperationNest}): a
 * compare-and-set to take it and a release store to release it ({@link StoreLatch}). Inside a batch the thread already holds the latch,
 * so an operation only counts its nesting; what it does and checks is otherwise the same (the transaction's state,
 * refusals, the pins it releases at its end). A run of many small operations from one thread gains: a small
 * object's creation took 0.68-1.06x the time in eight runs, about 0.9x (docs/results.md, "Batches").
 *
 * <p>The price is the latch's: while a batch is open, every other thread's operation on the store waits until it
 * is closed. A batch is closed by the thread that opened it; {@link #close} is idempotent. The transaction may be
 * committed or aborted inside it (the batch then holds the latch of no transaction until it is closed).
 *
 * <p>Invariant: {@code latch} is non-null exactly while this batch holds one hold count of the latch, by
 * {@code owner}.
 */
public final class Batch implements AutoCloseable {
    private StoreLatch latch;
    private final Thread owner;

    /** Takes one hold of {@code latch} for the calling thread (the caller has locked it: this is the record). */
    Batch(StoreLatch latch) {
        assert latch.isHeldByCurrentThread();
        this.latch = latch;
        this.owner = Thread.currentThread();
    }

    /** Whether the batch still holds the latch (not closed yet). */
    public boolean isOpen() {
        return latch != null;
    }

    /**
     * Releases the latch: other threads' operations may run again.
     *
     * @throws IllegalStateException if called by another thread than the one that opened the batch
     */
    @Override
    public void close() {
        if (latch == null) {
            return;
        }
        Thread t = Thread.currentThread();
        if (t != owner) {
            throw new IllegalStateException("a batch is closed by the thread that opened it: opened by '"
                    + owner.getName() + "', closed by '" + t.getName() + "'");
        }
        StoreLatch l = latch;
        latch = null;
        l.unlock();
    }
}
