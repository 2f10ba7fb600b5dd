package dev.quickstore.core;

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
 * <p>Fail-stop: the first failed write or force is remembered and every later call throws (the store
 * handle is poisoned; the log on disk is whatever the file system kept, and recovery sorts it out).
 */
final class LogWriter implements AutoCloseable {
    private final FileIO io;
    private final Path dir;
    private final long segmentBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition flushed = lock.newCondition();

    private FileIO.Handle segment;
    private long segmentNo;
    private long nextLsn;
    private long durableLsn;
    private byte[] buffer = new byte[1 << 16];
    private int buffered;
    private long bufferStartLsn;
    private boolean flushing;
    private IOException failure;
    private long bytesWritten;
    private long forces;

    /** Opens the log for appending at {@code endLsn} (the end found by recovery); cuts anything after it. */
    LogWriter(FileIO io, Path dir, long segmentBytes, long endLsn) throws IOException {
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
        this.nextLsn = endLsn;
        this.durableLsn = endLsn;
        this.bufferStartLsn = endLsn;
    }

    private void startSegment() throws IOException {
        segment.truncate(0);
        segment.write(ByteBuffer.wrap(LogSegments.header()), 0);
        segment.force();
    }

    long segmentBytes() {
        return segmentBytes;
    }

    /** LSN the next record will get. */
    long endLsn() {
        lock.lock();
        try {
            return nextLsn;
        } finally {
            lock.unlock();
        }
    }

    long durableLsn() {
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
    long append(byte[] rec) throws IOException {
        if (rec.length > segmentBytes - LogSegments.HEADER) {
            throw new IllegalArgumentException(
                    "log record of " + rec.length + " bytes exceeds the segment size " + segmentBytes);
        }
        lock.lock();
        try {
            checkFailed();
            if (nextLsn % segmentBytes + rec.length > segmentBytes) {
                roll();
            }
            long lsn = nextLsn;
            LogRecord.seal(rec, lsn);
            if (buffered + rec.length > buffer.length) {
                buffer = java.util.Arrays.copyOf(buffer, Math.max(buffer.length * 2, buffered + rec.length));
            }
            System.arraycopy(rec, 0, buffer, buffered, rec.length);
            buffered += rec.length;
            nextLsn += rec.length;
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
            segment.close();
            segmentNo++;
            segment = io.open(LogSegments.path(dir, segmentNo, segmentBytes), true);
            startSegment();
        } catch (IOException e) {
            failure = e;
            throw e;
        }
        nextLsn = segmentNo * segmentBytes + LogSegments.HEADER;
        bufferStartLsn = nextLsn;
        durableLsn = nextLsn;
    }

    private void writeBuffered() throws IOException {
        if (buffered > 0) {
            segment.write(ByteBuffer.wrap(buffer, 0, buffered), bufferStartLsn % segmentBytes);
            bytesWritten += buffered;
        }
        segment.force();
        forces++;
        durableLsn = bufferStartLsn + buffered;
        bufferStartLsn = durableLsn;
        buffered = 0;
    }

    /** Returns once every record with LSN &lt; {@code upTo} (an end LSN) is durable. */
    void flush(long upTo) throws IOException {
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
                byte[] batch = buffer;
                int len = buffered;
                long start = bufferStartLsn;
                FileIO.Handle seg = segment;
                buffer = new byte[Math.max(1 << 16, batch.length)];
                buffered = 0;
                bufferStartLsn = start + len;
                lock.unlock();
                IOException err = null;
                try {
                    if (len > 0) {
                        seg.write(ByteBuffer.wrap(batch, 0, len), start % segmentBytes);
                    }
                    seg.force();
                } catch (IOException e) {
                    err = e;
                } finally {
                    lock.lock();
                }
                flushing = false;
                if (err != null) {
                    failure = err;
                } else {
                    bytesWritten += len;
                    forces++;
                    durableLsn = Math.max(durableLsn, start + len);
                }
                flushed.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    void flushAll() throws IOException {
        flush(endLsn());
    }

    /** Deletes whole segments below {@code lsn} (never the current one). */
    void truncateBefore(long lsn) throws IOException {
        long keepFrom = lsn / segmentBytes;
        for (long s : LogSegments.list(io, dir, segmentBytes)) {
            if (s < keepFrom && s < segmentNo) {
                io.delete(LogSegments.path(dir, s, segmentBytes));
            }
        }
    }

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            segment.close();
        } finally {
            lock.unlock();
        }
    }
}
