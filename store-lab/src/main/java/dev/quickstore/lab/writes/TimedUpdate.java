package dev.quickstore.lab.writes;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.stats.CommitStats;

/**
 * One measured update transaction of {@link WriteDetectionLab} (Hosking and Moss, section 4: begin, the updates and
 * the checkpoint at commit, timed apart): {@link #begin} snapshots the store's counters, times the begin and fetches
 * the parts to update (not timed); the experiment times its own update loops on {@link #parts}; {@link #commit}
 * times the commit and {@link #cost} turns a run time into a {@link TransactionCost} with the commit's log force,
 * REDO bytes, pages and write faults taken from the counters.
 */
final class TimedUpdate {
    private final Store st;
    private final CommitStats c0;
    private final long writeFaults0;
    private final ObjectTransaction tx;
    private final long beginNs;
    private long commitNs;

    /** The parts the transaction updates, fetched in it. */
    final UpdatePart[] parts;

    private TimedUpdate(
            Store st, CommitStats c0, long writeFaults0, ObjectTransaction tx, long beginNs, UpdatePart[] parts) {
        this.st = st;
        this.c0 = c0;
        this.writeFaults0 = writeFaults0;
        this.tx = tx;
        this.beginNs = beginNs;
        this.parts = parts;
    }

    /** Begins a transaction on {@code s} (timed) and fetches the parts {@code idx} of {@code db} (not timed). */
    static TimedUpdate begin(PersistentStore s, PartsDatabase db, int[] idx) {
        Store st = s.storageManager();
        CommitStats c0 = st.commitStats();
        long wf0 = st.faultCounters().writeFaults();
        long t0 = System.nanoTime();
        ObjectTransaction tx = s.begin();
        long t1 = System.nanoTime();
        return new TimedUpdate(st, c0, wf0, tx, t1 - t0, db.select(s, tx, idx));
    }

    /** Commits (timed) and closes the transaction. */
    void commit() {
        long t0 = System.nanoTime();
        tx.commit();
        commitNs = System.nanoTime() - t0;
        tx.close();
    }

    /**
     * The committed transaction's cost with {@code runNs} as its run phase: the commit without the log force and
     * the store checkpoint that may follow it, and those two apart.
     */
    TransactionCost cost(long runNs) {
        CommitStats c1 = st.commitStats();
        long flush = c1.flushNanos() - c0.flushNanos() + c1.checkpointNanos() - c0.checkpointNanos();
        return new TransactionCost(
                beginNs,
                runNs,
                commitNs - flush,
                flush,
                c1.redoBytes() - c0.redoBytes(),
                c1.pages() - c0.pages(),
                st.faultCounters().writeFaults() - writeFaults0);
    }
}
