package dev.quickstore.core.inspect;

import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.log.LogSegments;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.VolumeFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The control file and the write-ahead log as the inspector shows them: segments, records decoded by the
 * log's own reader ({@link LogReader}, {@link LogRecord}: one definition of the format), and whether the
 * store was closed cleanly (the last record is the checkpoint the control file names). Read-only.
 */
final class LogInspector {
    private final FileIO io;
    private final Path dir;

    LogInspector(FileIO io, Path dir) {
        this.io = io;
        this.dir = dir;
    }

    ControlFile control() throws IOException {
        Path ctl = dir.resolve(VolumeFile.CONTROL_FILE);
        return io.exists(ctl) ? ControlFile.read(io, ctl) : null;
    }

    /**
     * Where listing starts: the first record of the oldest segment still present. Records there that lie
     * before the control file's logStartLsn are history recovery no longer needs, but still intact.
     */
    long scanStart(ControlFile ctl) throws IOException {
        long[] segs = LogSegments.list(io, dir.resolve(VolumeFile.LOG_DIR), ctl.logSegmentBytes());
        return segs.length == 0 ? ctl.logStartLsn() : segs[0] * ctl.logSegmentBytes();
    }

    /** The control file and the log: segments, end, records, and whether the store was closed cleanly. */
    LogState state() throws IOException {
        ControlFile ctl = control();
        if (ctl == null) {
            return new LogState(false, 0, 0, 0, 0, 0, 0, true, List.of());
        }
        Path logDir = dir.resolve(VolumeFile.LOG_DIR);
        List<LogState.Segment> segments = new ArrayList<>();
        for (long s : LogSegments.list(io, logDir, ctl.logSegmentBytes())) {
            Path f = LogSegments.path(logDir, s, ctl.logSegmentBytes());
            try (FileIO.Handle h = io.open(f, false)) {
                segments.add(new LogState.Segment(f.getFileName().toString(), s * ctl.logSegmentBytes(), h.size()));
            }
        }
        long records = 0;
        long after = 0;
        long lastLsn = 0;
        long end;
        try (LogReader reader = new LogReader(io, logDir, ctl.logSegmentBytes())) {
            LogReader.Scan scan = reader.scan(scanStart(ctl), ctl.checkpointLsn() + 1);
            for (LogRecord r = scan.next(); r != null; r = scan.next()) {
                records++;
                after += r.lsn > ctl.checkpointLsn() ? 1 : 0;
                lastLsn = r.lsn;
            }
            end = scan.position();
        }
        boolean clean = lastLsn == ctl.checkpointLsn();
        return new LogState(
                true,
                ctl.checkpointLsn(),
                ctl.logStartLsn(),
                ctl.logSegmentBytes(),
                end,
                records,
                after,
                clean,
                segments);
    }

    /** Visits log records from {@code fromLsn} to the end of the log while {@code visitor} returns true. */
    void visit(long fromLsn, Predicate<LogEntry> visitor) throws IOException {
        ControlFile ctl = control();
        if (ctl == null) {
            return;
        }
        try (LogReader reader = new LogReader(io, dir.resolve(VolumeFile.LOG_DIR), ctl.logSegmentBytes())) {
            long start = Math.max(fromLsn, scanStart(ctl));
            LogReader.Scan scan = reader.scan(scanStart(ctl), ctl.checkpointLsn() + 1);
            for (LogRecord r = scan.next(); r != null; r = scan.next()) {
                if (r.lsn >= start && !visitor.test(entry(r))) {
                    return;
                }
            }
        }
    }

    private static LogEntry entry(LogRecord r) {
        List<LogEntry.Range> ranges = new ArrayList<>(r.offsets.length);
        for (int i = 0; i < r.offsets.length; i++) {
            ranges.add(new LogEntry.Range(r.offsets[i], r.lengths[i]));
        }
        List<LogEntry.Move> moves = new ArrayList<>(r.moves.count);
        for (int i = 0; i < r.moves.count; i++) {
            moves.add(new LogEntry.Move(r.moves.src(i), r.moves.dst(i), r.moves.length(i)));
        }
        LogEntry.Checkpoint ck = null;
        if (r.type == LogRecord.CHECKPOINT) {
            List<Long> pages = new ArrayList<>();
            List<Long> recs = new ArrayList<>();
            for (int i = 0; i < r.dirtyPages.length; i++) {
                pages.add(r.dirtyPages[i]);
                recs.add(r.dirtyRecLsns[i]);
            }
            ck = new LogEntry.Checkpoint(r.redoStartLsn, r.nextTxnId, r.activeTxnId, pages, recs);
        }
        return new LogEntry(
                r.lsn,
                LogRecord.typeName(r.type),
                r.txnId,
                r.prevLsn,
                r.length,
                r.isPageRecord() ? r.pageId : -1,
                r.undoNextLsn,
                moves,
                ranges,
                ck);
    }
}
