package dev.quickstore.core;

/**
 * The store latch held once per nest of operations: {@link Store#enter} and {@link Store#exit} bracket every store
 * operation, and operations nest (an index scan's visitor looks up another index, as OO7 Q8's join does; an abort
 * runs as an operation inside {@code Transaction.close}, which locks the latch itself). An operation begun while
 * its thread holds the latch neither locks it again nor releases it; the operation that took it releases it
 * exactly once, when the nest unwinds to it.
 *
 * <p>Why not simply lock reentrantly: when the latch was a {@code ReentrantLock}, its {@code lock()} by its holder
 * first tried a compare-and-set that failed, and its {@code unlock()} was a volatile store; per nested lookup the
 * two were about a quarter of OO7 Q8 at steady state (docs/results.md, "The latch taken once per nest"). The
 * {@link StoreLatch} reentered would still write its hold count; a nested operation here reads the owner only.
 *
 * <p>Invariants (asserted): {@code depth >= 0}; {@code depth > 0} only while this thread holds the latch;
 * {@code lockedAt} is -1 or below {@code depth}. Both fields are written by the latch's holder only and read by it,
 * except {@link #depth}, which {@code Store.insideOperation} may read from any thread as a hint that the owner check
 * after it decides (an int read is never torn; the holder's own value is exact).
 * {@link StoreLatch#isHeldByCurrentThread()} is exact for the calling thread: the owner field is either its own
 * last write or another thread's value or null, never this thread by mistake.
 */
final class OperationNest {
    private final StoreLatch latch;

    /** Operations begun and not ended by the holder of the latch. */
    private int depth;

    /** The {@link #depth} at which {@link #enter} took the latch, whose matching {@link #exit} releases it; -1 none. */
    private int lockedAt = -1;

    OperationNest(StoreLatch latch) {
        this.latch = latch;
    }

    /** Begins an operation: takes the latch unless this thread holds it already (an operation of a nest). */
    void enter() {
        if (!latch.isHeldByCurrentThread()) {
            latch.lock();
            assert lockedAt == -1 && depth == 0 : "latch free but depth " + depth + ", taken at " + lockedAt;
            lockedAt = depth;
        }
        depth++;
    }

    /** Ends the operation begun by the matching {@link #enter}; releases the latch if that call took it. */
    void exit() {
        assert depth > 0 && latch.isHeldByCurrentThread() : "exit at depth " + depth + " without the latch";
        depth--;
        if (depth == lockedAt) {
            lockedAt = -1;
            latch.unlock();
        }
    }

    /** Operations of the running nest, the calling one included (latch held). */
    int depth() {
        return depth;
    }
}
