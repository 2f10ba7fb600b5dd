package dev.quickstore.core.log;

import dev.quickstore.core.crashpoint.CrashPoints;
import dev.quickstore.core.volume.FileIO;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Appends records to the log ({@link LogSegments}) and makes them durable with group commit: appends
 * only copy into an in-memory buffer; {@link #flush(long)} makes everything up to an LSN durable. One
 * caller at a time (the leader) writes the whole buffer and forces the segment (one fdatasync); callers
 * arriving meanwhile wait, and are satisfied by the leader's force if their LSN was in its batch, or
 * lead the next one. Appends may continue while a leader is in I/O.
 *
 * <p>Preallocation: the current segment is extended with zeros {@value #PREALLOCATE_CHUNK} bytes at a
 * time, ahead of the records, so that a commit's fdatasync overwrites allocated blocks and does not
 * also have to journal a new file size (measured on ext4 here: about 105 us instead of 155 us per
 * small commit). The zeros go after the records of the write that needs them, never under them, and only
 * after a write smaller than {@value #PREALLOCATE_BELOW} bytes: a large write (a bulk load's commit) extends
 * the file by its own bytes, where zeros written first would reach the disk and then be overwritten by the
 * next commit's records, doubling what its fdatasync writes (docs/results.md, "The log extended by its records"). A
 * zero tail reads as the end of the log ({@link LogReader}); a segment that is
 * complete is truncated to its used length before the next one starts, so a zero tail never sits in
 * front of a later segment (which the reader would rightly call damage). On open, anything after the
 * end of the log found by recovery is cut off before appending resumes, so stale bytes from before a
 * crash can never follow new records.
 *
 * <p>Fail-stop: the first failed write or force is remembered and every later call throws (the store
 * handle is poisoned; the log on disk is whatever the file system kept, and recovery sorts it out).
 */
public final class LogWriter implements AutoCloseable {
    /** Bytes by which the current segment is extended with zeros ahead of the records. */
    static final int PREALLOCATE_CHUNK = 1 << 20;

    /** A write of at least this many bytes is not followed by zeros (the file grows by the write itself). */
    static final int PREALLOCATE_BELOW = 1 << 16;

    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 16).asReadOnlyBuffer();
    private final FileIO io;
    private final Path dir;
    private final long segmentBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition flushed = lock.newCondition();

    private FileIO.Handle segment;
    private long segmentNo;
    private long nextLsn;
    private long durableLsn;
    /**
     * The records appended since the last write, in direct memory: the channel writes them from here, where a heap
     * array would first be copied into the JDK's temporary direct buffer (a 0.9 MB commit copied twice;
     * docs/results.md, "The log buffer in direct memory").
     */
    private ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 16);
    /** The buffer of the previous batch, reused by the next leader (no allocation per commit). */
    private ByteBuffer spare = ByteBuffer.allocateDirect(1 << 16);
    /** Bytes of the current segment file that exist (records plus preallocated zeros). */
    private long allocatedEnd;

    private int buffered;
    private long bufferStartLsn;
    private boolean flushing;
    private IOException failure;
    private long bytesWritten;
    private long forces;
    private SegmentsDeleted segmentsDeleted = () -> {};

    /** Opens the log for appending at {@code endLsn} (the end found by recovery); cuts anything after it. */
    public LogWriter(FileIO io, Path dir, long segmentBytes, long endLsn) throws IOException {
        this.io = io;
        this.dir = dir;
        this.segmentBytes = segmentBytes;
        io.createDirectories(dir);
        long seg = endLsn / segmentBytes;
        long off = endLsn % segmentBytes;
        for (long s : LogSegments.list(io, dir, segmentBytes)) {
            if (s > seg) {
                io.delete(LogSegments.path(dir, s, segmentBytes)); // torn tail in later segments
            }
        }
        Path p = LogSegments.path(dir, seg, segmentBytes);
        boolean fresh = !io.exists(p) || off < LogSegments.HEADER;
        segment = io.open(p, true);
        if (fresh) {
            startSegment();
            endLsn = seg * segmentBytes + LogSegments.HEADER;
        } else if (segment.size() != off) {
            segment.truncate(off);
        }
        this.segmentNo = seg;
        this.allocatedEnd = segment.size();
        this.nextLsn = endLsn;
        this.durableLsn = endLsn;
        this.bufferStartLsn = endLsn;
    }

    private void startSegment() throws IOException {
        segment.truncate(0);
        segment.write(ByteBuffer.wrap(LogSegments.header()), 0);
        allocatedEnd = LogSegments.HEADER;
        ensureAllocated(segment, LogSegments.HEADER + 1);
        segment.force();
    }

    /**
     * Writes {@code len} bytes of records at segment offset {@code at}, then the zeros that preallocation puts
     * after them (class comment). Records are appended in order, so {@code at} is at most {@link #allocatedEnd}.
     * Called by the single writer of the segment: the flush leader, or a holder of the lock while no leader runs.
     */
    private void writeRecords(FileIO.Handle seg, ByteBuffer records, int len, long at) throws IOException {
        assert at <= allocatedEnd : "records at " + at + " past the segment's end " + allocatedEnd;
        seg.write(records.slice(0, len), at);
        long end = at + len;
        if (end > allocatedEnd) {
            allocatedEnd = end;
            if (len < PREALLOCATE_BELOW) {
                ensureAllocated(seg, end + 1);
            }
        }
    }

    /**
     * Extends the segment with zeros so that it holds at least {@code end} bytes (rounded up to a
     * {@link #PREALLOCATE_CHUNK}, at most the segment size). Called by the single writer of the
     * segment: the flush leader, or a holder of the lock while no leader runs.
     */
    private void ensureAllocated(FileIO.Handle seg, long end) throws IOException {
        if (end <= allocatedEnd) {
            return;
        }
        long target = Math.min(segmentBytes, (end + PREALLOCATE_CHUNK - 1) / PREALLOCATE_CHUNK * PREALLOCATE_CHUNK);
        long at = allocatedEnd;
        while (at < target) {
            ByteBuffer z = ZEROS.duplicate();
            int n = (int) Math.min(z.capacity(), target - at);
            z.limit(n);
            seg.write(z, at); // writes all of z (FileIO contract)
            at += n;
        }
        allocatedEnd = target;
    }

    public long segmentBytes() {
        return segmentBytes;
    }

    /** LSN the next record will get. */
    public long endLsn() {
        lock.lock();
        try {
            return nextLsn;
        } finally {
            lock.unlock();
        }
    }

    public long durableLsn() {
        lock.lock();
        try {
            return durableLsn;
        } finally {
            lock.unlock();
        }
    }

    long bytesWritten() {
        return bytesWritten;
    }

    long forces() {
        return forces;
    }

    /** Assigns the record its LSN, seals it and buffers it. */
    public long append(byte[] rec) throws IOException {
        return append(rec, rec.length);
    }

    /**
     * Assigns the record in {@code rec[0..length)} its LSN, seals it there and buffers a copy: {@code rec} may be
     * reused for the next record once this returns.
     */
    public long append(byte[] rec, int length) throws IOException {
        if (length > segmentBytes - LogSegments.HEADER) {
            throw new IllegalArgumentException(
                    "log record of " + length + " bytes exceeds the segment size " + segmentBytes);
        }
        if (length < LogRecord.HEADER || length > rec.length) {
            throw new IllegalArgumentException("record of " + length + " bytes in an array of " + rec.length);
        }
        assert LogRecord.peekLength(rec) == length
                : "record header says " + LogRecord.peekLength(rec) + ", not " + length;
        lock.lock();
        try {
            checkFailed();
            // offset in the current segment; equals segmentBytes when the last record ended exactly at its end
            if (nextLsn - segmentNo * segmentBytes + length > segmentBytes) {
                roll();
            }
            long lsn = nextLsn;
            LogRecord.seal(rec, length, lsn);
            if (buffered + length > buffer.capacity()) {
                ByteBuffer grown = ByteBuffer.allocateDirect(Math.max(buffer.capacity() * 2, buffered + length));
                grown.put(0, buffer, 0, buffered);
                buffer = grown;
            }
            buffer.put(buffered, rec, 0, length);
            buffered += length;
            nextLsn += length;
            return lsn;
        } finally {
            lock.unlock();
        }
    }

    private void checkFailed() throws IOException {
        if (failure != null) {
            throw new IOException("log " + dir + " failed earlier; the store handle is poisoned", failure);
        }
    }

    /** Makes the current segment complete and durable, then starts the next one. Lock held. */
    private void roll() throws IOException {
        while (flushing) {
            flushed.awaitUninterruptibly();
        }
        checkFailed();
        try {
            writeBuffered();
            // the complete segment ends at its last record: no zero tail in front of the next segment
            segment.truncate(nextLsn - segmentNo * segmentBytes);
            segment.close();
            segmentNo++;
            segment = io.open(LogSegments.path(dir, segmentNo, segmentBytes), true);
            CrashPoints.reach(CrashPoints.Point.LOG_ROLL);
            startSegment();
        } catch (IOException e) {
            failure = e;
            throw e;
        } catch (RuntimeException | Error e) {
            failure = new IOException("log " + dir + ": rolling over to segment " + segmentNo + " failed: " + e, e);
            throw e; // half rolled over: nothing more may be appended
        }
        nextLsn = segmentNo * segmentBytes + LogSegments.HEADER;
        bufferStartLsn = nextLsn;
        durableLsn = nextLsn;
    }

    private void writeBuffered() throws IOException {
        if (buffered > 0) {
            writeRecords(segment, buffer, buffered, bufferStartLsn % segmentBytes);
            bytesWritten += buffered;
        }
        segment.force();
        forces++;
        durableLsn = bufferStartLsn + buffered;
        bufferStartLsn = durableLsn;
        buffered = 0;
    }

    /** Returns once every record with LSN &lt; {@code upTo} (an end LSN) is durable. */
    public void flush(long upTo) throws IOException {
        lock.lock();
        try {
            while (true) {
                checkFailed();
                if (durableLsn >= upTo) {
                    return;
                }
                if (flushing) {
                    flushed.awaitUninterruptibly();
                    continue;
                }
                // become the leader: take the buffer, do the I/O without the lock
                flushing = true;
                ByteBuffer batch = buffer;
                int len = buffered;
                long start = bufferStartLsn;
                FileIO.Handle seg = segment;
                buffer = spare.capacity() >= batch.capacity() ? spare : ByteBuffer.allocateDirect(batch.capacity());
                spare = null;
                buffered = 0;
                bufferStartLsn = start + len;
                lock.unlock();
                IOException err = null;
                Throwable unchecked = null;
                try {
                    if (len > 0) {
                        writeRecords(seg, batch, len, start % segmentBytes);
                    }
                    seg.force();
                } catch (IOException e) {
                    err = e;
                } catch (RuntimeException | Error e) {
                    // the leader must never leave with flushing set: every later flush would wait forever
                    err = new IOException("log " + dir + ": writing or forcing " + seg.name() + " failed: " + e, e);
                    unchecked = e;
                } finally {
                    lock.lock();
                }
                flushing = false;
                spare = batch;
                if (err != null) {
                    failure = err;
                } else {
                    bytesWritten += len;
                    forces++;
                    durableLsn = Math.max(durableLsn, start + len);
                }
                flushed.signalAll();
                if (unchecked instanceof Error e) {
                    throw e;
                } else if (unchecked != null) {
                    throw (RuntimeException) unchecked;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    public void flushAll() throws IOException {
        flush(endLsn());
    }

    /** Called after segment files were deleted (see {@link LogReader#forget}). */
    public void onSegmentsDeleted(SegmentsDeleted listener) {
        this.segmentsDeleted = listener;
    }

    /** Listener for {@link #onSegmentsDeleted}. */
    public interface SegmentsDeleted {
        void deleted() throws IOException;
    }

    /** Deletes whole segments below {@code lsn} (never the current one). */
    public void truncateBefore(long lsn) throws IOException {
        long keepFrom = lsn / segmentBytes;
        boolean deleted = false;
        for (long s : LogSegments.list(io, dir, segmentBytes)) {
            if (s < keepFrom && s < segmentNo) {
                io.delete(LogSegments.path(dir, s, segmentBytes));
                deleted = true;
            }
        }
        if (deleted) {
            segmentsDeleted.deleted();
        }
    }

    /** Closes the segment; after a clean run (everything durable) its preallocated zero tail is cut off. */
    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            if (failure == null && !flushing && buffered == 0 && durableLsn == nextLsn) {
                segment.truncate(nextLsn - segmentNo * segmentBytes);
            }
            segment.close();
        } finally {
            lock.unlock();
        }
    }
}
