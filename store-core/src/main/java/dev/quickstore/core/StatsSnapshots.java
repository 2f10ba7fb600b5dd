package dev.quickstore.core;

import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.core.stats.StoreStats;

/**
 * The counters of one {@link Store} handle (this process only) as the snapshots its getters return
 * (docs/observability.md): the handle's {@link StoreStats}, the replacement counters ({@link PoolStats}), the commit
 * counters ({@link CommitStats}) and the resident pages, each taken under the store latch so that it is consistent
 * with itself. The MXBean ({@link StoreBean}) and the periodic JFR event ({@link PeriodicCounters}) read them
 * through those getters.
 */
final class StatsSnapshots {
    private StatsSnapshots() {}

    /** See {@link Store#stats}. */
    static StoreStats stats(Store s) {
        s.latch.lock();
        try {
            return new StoreStats(
                    s.options.bufferPoolPages(),
                    s.pool.reads,
                    s.pool.writes,
                    s.pool.steals(),
                    s.checkpointer == null ? 0 : s.checkpointer.checkpoints,
                    s.txns.nextTxnId(),
                    s.txns.redoRecords(),
                    s.txns.redoBytes(),
                    s.log == null ? 0 : s.log.endLsn(),
                    s.log == null ? 0 : s.log.durableLsn(),
                    s.recovery.logRecordsScanned(),
                    s.recovery.redoApplied(),
                    s.recovery.losersUndone(),
                    s.recovery.tornPagesRestored());
        } finally {
            s.latch.unlock();
        }
    }

    /** See {@link Store#poolStats}. */
    static PoolStats poolStats(Store s) {
        s.latch.lock();
        try {
            return s.pool.stats(
                    s.mappedFrames() != null ? s.mappedFrames().arena().counters() : null);
        } finally {
            s.latch.unlock();
        }
    }

    /** See {@link Store#commitStats}. */
    static CommitStats commitStats(Store s) {
        s.latch.lock();
        try {
            return s.txns.commitStats();
        } finally {
            s.latch.unlock();
        }
    }

    /** See {@link Store#residentPages}. */
    static long[] residentPages(Store s) {
        s.latch.lock();
        try {
            return s.pool.frames().residentPages();
        } finally {
            s.latch.unlock();
        }
    }
}
