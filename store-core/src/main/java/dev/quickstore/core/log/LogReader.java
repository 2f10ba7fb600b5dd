package dev.quickstore.core.log;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.volume.FileIO;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads log records by LSN and scans the log forward to its end.
 *
 * <p>End of log: the first position where no valid record starts (EOF of the last segment, a short
 * or zero length, a checksum mismatch, an LSN field that does not match its position). Everything from
 * there on was never durably written (the writer forces a segment completely before starting the next,
 * and a commit returns only after its records were forced), so it is a torn tail and is cut off. Two
 * cases prove instead that durable data is damaged, and raise {@link StoreFormatException}: the invalid
 * record lies before {@code durableBefore} (the last checkpoint, known durable), or a later segment
 * exists with a valid header.
 */
public final class LogReader implements AutoCloseable {
    private final FileIO io;
    private final Path dir;
    private final long segmentBytes;
    private final Map<Long, FileIO.Handle> open = new HashMap<>();

    public LogReader(FileIO io, Path dir, long segmentBytes) {
        this.io = io;
        this.dir = dir;
        this.segmentBytes = segmentBytes;
    }

    /**
     * Closes every cached segment handle. Segment files are deleted and created again under the same
     * name (a torn segment cut off after recovery, truncation after a checkpoint); a cached handle would
     * keep reading the deleted file and keep its disk space allocated. Whoever deletes segment files
     * calls this afterwards ({@link LogWriter#onSegmentsDeleted}).
     */
    public void forget() throws IOException {
        IOException first = null;
        for (FileIO.Handle h : open.values()) {
            try {
                h.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }

    private FileIO.Handle segment(long seg) throws IOException {
        FileIO.Handle h = open.get(seg);
        if (h == null) {
            Path p = LogSegments.path(dir, seg, segmentBytes);
            if (!io.exists(p)) {
                return null;
            }
            h = io.open(p, false);
            open.put(seg, h);
        }
        return h;
    }

    /** Reads the record at {@code lsn}, which must be valid. */
    public LogRecord read(long lsn) throws IOException {
        Result r = tryRead(lsn);
        if (r.record == null) {
            throw new StoreFormatException(
                    LogSegments.path(dir, lsn / segmentBytes, segmentBytes).toString(),
                    -1,
                    lsn % segmentBytes,
                    "log record at LSN " + lsn,
                    "a valid record",
                    r.problem);
        }
        return r.record;
    }

    private record Result(LogRecord record, String problem, StoreFormatException error) {}

    private Result tryRead(long lsn) throws IOException {
        long seg = lsn / segmentBytes;
        long off = lsn % segmentBytes;
        FileIO.Handle h = segment(seg);
        if (h == null) {
            return new Result(null, "segment file missing", null);
        }
        long size = h.size();
        if (off + LogRecord.HEADER > size) {
            return new Result(
                    null, off >= size ? "end of segment" : "partial header (" + (size - off) + " bytes)", null);
        }
        byte[] head = new byte[8];
        h.read(ByteBuffer.wrap(head), off);
        int len = LogRecord.peekLength(head);
        if (len < LogRecord.HEADER || off + len > size || off + len > segmentBytes) {
            return new Result(null, "record length " + len + " does not fit the segment", null);
        }
        byte[] rec = new byte[len];
        h.read(ByteBuffer.wrap(rec), off);
        try {
            return new Result(LogRecord.decode(h.name(), off, lsn, rec), null, null);
        } catch (StoreFormatException e) {
            return new Result(null, e.getMessage(), e);
        }
    }

    /** A forward scan from {@code from} to the end of the log. */
    public Scan scan(long from, long durableBefore) {
        return new Scan(from, durableBefore);
    }

    public final class Scan {
        private long pos;
        private final long durableBefore;

        private Scan(long from, long durableBefore) {
            this.pos = from;
            this.durableBefore = durableBefore;
        }

        /** LSN just past the last record returned (the end of the log once {@link #next} returned null). */
        public long position() {
            return pos;
        }

        /** The next record, or null at the end of the log. */
        public LogRecord next() throws IOException {
            while (true) {
                long seg = pos / segmentBytes;
                if (pos % segmentBytes < LogSegments.HEADER) {
                    FileIO.Handle h = segment(seg);
                    if (h == null || !LogSegments.headerValid(h)) {
                        return null;
                    }
                    pos = seg * segmentBytes + LogSegments.HEADER;
                }
                FileIO.Handle h = segment(seg);
                if (h == null) {
                    return null;
                }
                if (pos % segmentBytes == h.size()) {
                    FileIO.Handle nextSeg = segment(seg + 1);
                    if (nextSeg != null && LogSegments.headerValid(nextSeg)) {
                        pos = (seg + 1) * segmentBytes; // continue in the next segment
                        continue;
                    }
                    return null;
                }
                Result r = tryRead(pos);
                if (r.record != null) {
                    pos += r.record.length;
                    return r.record;
                }
                FileIO.Handle nextSeg = segment(seg + 1);
                if (pos < durableBefore || (nextSeg != null && LogSegments.headerValid(nextSeg))) {
                    if (r.error != null) {
                        throw r.error;
                    }
                    throw new StoreFormatException(
                            h.name(),
                            -1,
                            pos % segmentBytes,
                            "log record at LSN " + pos
                                    + " (durable: before the last checkpoint or followed by a later segment)",
                            "a valid record",
                            r.problem);
                }
                return null; // torn tail
            }
        }
    }

    @Override
    public void close() throws IOException {
        for (FileIO.Handle h : open.values()) {
            h.close();
        }
        open.clear();
    }
}
