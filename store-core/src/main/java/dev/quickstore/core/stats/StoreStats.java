package dev.quickstore.core.stats;

import java.util.List;

/**
 * Counters of one opened store handle (this process only: another process's counters are not visible).
 *
 * @param bufferPoolPages frames in the buffer pool
 * @param pageReads pages read from the volume by this handle
 * @param pageWrites pages written back by this handle
 * @param steals pages written back before their transaction committed
 * @param checkpoints checkpoints taken by this handle
 * @param nextTxnId next transaction id (= transactions begun over the store's life, plus one)
 * @param redoRecords REDO records written at commits by this handle
 * @param redoBytes bytes of those records
 * @param logEndLsn end of the log
 * @param logDurableLsn log forced to disk up to here
 * @param recoveryRecordsScanned log records the open scanned
 * @param recoveryRedoApplied records redone by the open
 * @param recoveryLosersUndone uncommitted transactions rolled back by the open
 * @param recoveryTornPagesRestored pages restored from the double-write file by the open
 */
public record StoreStats(
        int bufferPoolPages,
        long pageReads,
        long pageWrites,
        long steals,
        long checkpoints,
        long nextTxnId,
        long redoRecords,
        long redoBytes,
        long logEndLsn,
        long logDurableLsn,
        long recoveryRecordsScanned,
        long recoveryRedoApplied,
        int recoveryLosersUndone,
        List<Long> recoveryTornPagesRestored) {}
