package dev.quickstore.core.recovery;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.log.LogWriter;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.txn.TransactionManager;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.DoubleWriteBuffer;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Restart recovery: ARIES-style analysis, redo and undo (argument in docs/recovery.md).
 *
 * <ol>
 *   <li><b>Torn pages</b>: {@link DoubleWriteBuffer#restore} first puts back intact copies of pages torn
 *       or left stale in place.</li>
 *   <li><b>Analysis</b> ({@link #analyze}): scan from the last checkpoint's redoStart to the end of the
 *       log; learn each transaction's fate (COMMIT, END, or neither = loser) and its last LSN.</li>
 *   <li><b>Redo</b> ({@link #redo}): repeat history from redoStart: every UPDATE and CLR, and every REDO of
 *       a committed transaction, is applied to its page if the page LSN is older. REDO records of losers
 *       are skipped: they carry no undo information, and the WAL/no-force rule guarantees their effects
 *       never reached the volume (pages are written only after COMMIT is durable). A NEW_PAGE record (a page
 *       the transaction allocated, {@link LogRecord#NEW_PAGE}) is redone like a REDO, onto a zeroed page.</li>
 *   <li><b>Undo</b>: roll losers back through their UPDATE records with CLRs ({@link TransactionManager#undo}), then END.</li>
 * </ol>
 */
public final class Recovery {
    public Recovery() {}

    public static final class Analysis {
        public long redoStart;
        public long endLsn;
        public long maxTxnId;
        public long records;
        public final Map<Long, Long> lastLsn = new HashMap<>();
        public final Map<Long, Boolean> committed = new HashMap<>();
        public final Map<Long, Boolean> ended = new HashMap<>();

        public List<long[]> losers() {
            List<long[]> out = new ArrayList<>();
            lastLsn.forEach((txn, last) -> {
                if (!committed.containsKey(txn) && !ended.containsKey(txn)) {
                    out.add(new long[] {txn, last});
                }
            });
            out.sort((a, b) -> Long.compare(b[1], a[1]));
            return out;
        }
    }

    public static Analysis analyze(LogReader reader, ControlFile ctl) throws IOException {
        Analysis a = new Analysis();
        long start = ctl.logStartLsn();
        if (ctl.checkpointLsn() != 0) {
            LogRecord ck = reader.read(ctl.checkpointLsn());
            if (ck.type != LogRecord.CHECKPOINT) {
                throw new StoreFormatException(
                        "log",
                        -1,
                        ctl.checkpointLsn(),
                        "record named by the control file",
                        "CHECKPOINT",
                        LogRecord.typeName(ck.type));
            }
            start = ck.redoStartLsn;
            a.maxTxnId = ck.nextTxnId - 1;
        }
        a.redoStart = start;
        LogReader.Scan scan = reader.scan(start, ctl.checkpointLsn() + 1);
        for (LogRecord r = scan.next(); r != null; r = scan.next()) {
            a.records++;
            if (r.type == LogRecord.CHECKPOINT) {
                a.maxTxnId = Math.max(a.maxTxnId, r.nextTxnId - 1);
                continue;
            }
            a.maxTxnId = Math.max(a.maxTxnId, r.txnId);
            a.lastLsn.put(r.txnId, r.lsn);
            if (r.type == LogRecord.COMMIT) {
                a.committed.put(r.txnId, Boolean.TRUE);
            } else if (r.type == LogRecord.END) {
                a.ended.put(r.txnId, Boolean.TRUE);
            }
        }
        a.endLsn = scan.position();
        return a;
    }

    /** Repeats history from the analysis' redoStart; returns the number of records applied. */
    public static long redo(LogReader reader, Analysis a, BufferPool pool) throws IOException {
        long applied = 0;
        LogReader.Scan scan = reader.scan(a.redoStart, 0);
        for (LogRecord r = scan.next(); r != null && r.lsn < a.endLsn; r = scan.next()) {
            if (!r.isPageRecord()) {
                continue;
            }
            if ((r.type == LogRecord.REDO || r.type == LogRecord.NEW_PAGE) && !a.committed.containsKey(r.txnId)) {
                continue;
            }
            MemorySegment page = pool.fix(r.pageId);
            if (PageHeader.lsn(page) < r.lsn) {
                r.redo(page);
                pool.noteLogged(r.pageId, r.lsn);
                applied++;
            }
            pool.unpin(r.pageId);
        }
        return applied;
    }

    /** Rolls back every loser, newest first. */
    public static int undo(LogReader reader, Analysis a, BufferPool pool, LogWriter log) throws IOException {
        List<long[]> losers = a.losers();
        for (long[] l : losers) {
            long last = TransactionManager.undo(pool, log, reader, l[0], l[1], l[1]);
            log.append(LogRecord.encodeEnd(l[0], last));
        }
        log.flushAll();
        return losers.size();
    }
}
