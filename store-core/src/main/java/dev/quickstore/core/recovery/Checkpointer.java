package dev.quickstore.core.recovery;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.crashpoint.CrashPoints;
import dev.quickstore.core.events.CheckpointEvent;
import dev.quickstore.core.events.Recorder;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.log.LogWriter;
import dev.quickstore.core.txn.TransactionManager;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.FileIO;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Fuzzy checkpoints and log truncation. A checkpoint does not stop the running transaction: it writes
 * back the disk-dirty pages the transaction has not changed (pages the transaction has changed stay in
 * memory; they cannot be written without a steal), then logs a CHECKPOINT record holding the remaining
 * dirty page table (page, recLSN), the active transaction (id, first and last LSN) and
 * {@code redoStart = min(recLSNs, active first LSN, checkpoint LSN)}; once the record is durable the
 * control file is replaced to name it, and log segments wholly below redoStart are deleted. The unit of
 * checkpointing is the changed byte range, not the page (Kakkad and Wilson, Texas, 1999, section 3.5).
 */
public final class Checkpointer {
    private final BufferPool pool;
    private final LogWriter log;
    private final TransactionManager txns;
    private final FileIO io;
    private final Path controlFile;
    private long lastCheckpointEnd;
    public long checkpoints;

    public Checkpointer(BufferPool pool, LogWriter log, TransactionManager txns, FileIO io, Path controlFile) {
        this.pool = pool;
        this.log = log;
        this.txns = txns;
        this.io = io;
        this.controlFile = controlFile;
    }

    /** Whether more than {@code everyBytes} of log were written since the last checkpoint. */
    public boolean due(long everyBytes) {
        return log.endLsn() - lastCheckpointEnd > everyBytes;
    }

    public void checkpoint() throws IOException {
        CheckpointEvent ev = null;
        long written0 = pool.writes;
        if (Recorder.initialized() && CheckpointEvent.enabled()) {
            ev = new CheckpointEvent();
            ev.begin();
        }
        pool.writeBackAll();
        CrashPoints.reach(CrashPoints.Point.CHECKPOINT_PAGES_WRITTEN);
        Map<Long, Long> dpt = pool.dirtyPageTable();
        long[] pages = new long[dpt.size()];
        long[] recs = new long[dpt.size()];
        long redoStart = log.endLsn();
        int i = 0;
        for (Map.Entry<Long, Long> e : dpt.entrySet()) {
            pages[i] = e.getKey();
            recs[i] = e.getValue();
            redoStart = Math.min(redoStart, recs[i]);
            i++;
        }
        long activeTxn = txns.active() && txns.firstLsn() != 0 ? txns.txnId() : 0;
        if (activeTxn != 0) {
            redoStart = Math.min(redoStart, txns.firstLsn());
        }
        long lsn = log.append(LogRecord.encodeCheckpoint(
                redoStart,
                txns.nextTxnId(),
                activeTxn,
                activeTxn != 0 ? txns.firstLsn() : 0,
                activeTxn != 0 ? txns.lastLsn() : 0,
                pages,
                recs));
        log.flush(lsn + 1);
        CrashPoints.reach(CrashPoints.Point.CHECKPOINT_LOGGED);
        new ControlFile(lsn, log.segmentBytes(), redoStart).write(io, controlFile);
        log.truncateBefore(redoStart);
        lastCheckpointEnd = log.endLsn();
        checkpoints++;
        if (ev != null && ev.shouldCommit()) {
            ev.store = pool.name();
            ev.pagesWritten = pool.writes - written0;
            ev.dirtyPagesLeft = pages.length;
            ev.checkpointLsn = lsn;
            ev.redoStartLsn = redoStart;
            ev.commit();
        }
    }
}
