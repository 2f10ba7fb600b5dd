package dev.quickstore.core.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.volume.RealFileIO;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Segment boundaries and preallocation of the {@link LogWriter}, read back with the {@link LogReader}. */
class LogWriterTest {
    static final long SEGMENT = 1 << 18;

    @TempDir
    Path dir;

    /** A REDO page record of exactly {@code size} bytes (one range of size - 72 bytes). */
    static byte[] record(int size, long txn) {
        int payload = size - LogRecord.HEADER - LogRecord.PAGE_HEADER - LogRecord.RANGE_HEADER;
        PageDiff.Ranges r = new PageDiff.Ranges();
        r.add(0, payload);
        byte[] image = new byte[payload];
        java.util.Arrays.fill(image, (byte) txn);
        byte[] rec = LogRecord.encodePage(LogRecord.REDO, txn, 0, 7, 0, null, MemorySegment.ofArray(image), r);
        assertEquals(size, rec.length);
        return rec;
    }

    static List<Long> scanAll(Path logDir) throws Exception {
        return scanAll(logDir, SEGMENT);
    }

    static List<Long> scanAll(Path logDir, long segmentBytes) throws Exception {
        List<Long> lsns = new ArrayList<>();
        try (LogReader reader = new LogReader(RealFileIO.INSTANCE, logDir, segmentBytes)) {
            LogReader.Scan scan = reader.scan(LogSegments.HEADER, 0);
            for (LogRecord r = scan.next(); r != null; r = scan.next()) {
                lsns.add(r.lsn);
            }
        }
        return lsns;
    }

    @Test
    void aRecordEndingExactlyAtTheSegmentEndIsFollowedByANewSegment() throws Exception {
        Path logDir = dir.resolve("log");
        List<Long> written = new ArrayList<>();
        try (LogWriter w = new LogWriter(RealFileIO.INSTANCE, logDir, SEGMENT, 0)) {
            long txn = 1;
            while (w.endLsn() + 4096 < SEGMENT) {
                written.add(w.append(record(4000, txn++)));
            }
            int exact = Math.toIntExact(SEGMENT - w.endLsn());
            written.add(w.append(record(exact, txn++)));
            assertEquals(SEGMENT, w.endLsn(), "the record ends exactly at the segment end");
            for (int i = 0; i < 5; i++) {
                written.add(w.append(record(500, txn++)));
            }
            w.flushAll();
            assertEquals(SEGMENT + LogSegments.HEADER, written.get(written.size() - 5), "first record of segment 1");
        }
        assertEquals(written, scanAll(logDir), "every record reads back, none overwrote a segment header");
    }

    @Test
    void preallocatedSpaceIsCutOffOnCleanCloseAndReadsAsEndOfLogAfterACrash() throws Exception {
        Path logDir = dir.resolve("log");
        List<Long> written = new ArrayList<>();
        LogWriter w = new LogWriter(RealFileIO.INSTANCE, logDir, SEGMENT, 0);
        for (int i = 0; i < 3; i++) {
            written.add(w.append(record(300, i + 1)));
        }
        w.flushAll();
        Path seg0 = LogSegments.path(logDir, 0, SEGMENT);
        assertEquals(SEGMENT, Files.size(seg0), "preallocated to the segment size (segments are smaller than a chunk)");
        // a "crash": the zero tail is still there; the reader stops at it without calling it damage
        assertEquals(written, scanAll(logDir));
        long end = w.endLsn();
        w.close();
        assertEquals(end, Files.size(seg0), "a clean close cuts the zero tail");
        try (LogWriter again = new LogWriter(RealFileIO.INSTANCE, logDir, SEGMENT, end)) {
            written.add(again.append(record(300, 9)));
            again.flushAll();
        }
        assertEquals(written, scanAll(logDir));
    }

    @Test
    void aLargeWriteExtendsTheSegmentByItsRecordsAndOnlyASmallOneIsFollowedByZeros() throws Exception {
        long segment = 4L * LogWriter.PREALLOCATE_CHUNK;
        Path logDir = dir.resolve("log");
        Path seg0 = LogSegments.path(logDir, 0, segment);
        List<Long> written = new ArrayList<>();
        LogWriter w = new LogWriter(RealFileIO.INSTANCE, logDir, segment, 0);
        assertEquals(LogWriter.PREALLOCATE_CHUNK, Files.size(seg0), "a new segment starts with one chunk of zeros");
        long txn = 1;
        while (w.endLsn() < LogWriter.PREALLOCATE_CHUNK * 3L / 2) { // one flush of 1.5 MiB: a bulk load's commit
            written.add(w.append(record(8_000, txn++)));
        }
        w.flushAll();
        assertEquals(w.endLsn(), Files.size(seg0), "no zeros after a large write: the next one would overwrite them");
        assertEquals(written, scanAll(logDir, segment), "a crash now: the file's end is the log's end");
        written.add(w.append(record(300, txn++)));
        w.flushAll();
        assertTrue(LogWriter.PREALLOCATE_BELOW > 300);
        assertEquals(
                2L * LogWriter.PREALLOCATE_CHUNK, Files.size(seg0), "a small write is followed by zeros to the chunk");
        assertEquals(written, scanAll(logDir, segment), "and the zero tail reads as the end of the log");
        long end = w.endLsn();
        w.close();
        try (LogWriter again = new LogWriter(RealFileIO.INSTANCE, logDir, segment, end)) {
            written.add(again.append(record(300, txn)));
            again.flushAll();
        }
        assertEquals(written, scanAll(logDir, segment));
    }

    @Test
    void readerForgetsHandlesOfDeletedSegments() throws Exception {
        Path logDir = dir.resolve("log");
        try (LogWriter w = new LogWriter(RealFileIO.INSTANCE, logDir, SEGMENT, 0)) {
            w.append(record(300, 1));
            w.flushAll();
        }
        try (LogReader reader = new LogReader(RealFileIO.INSTANCE, logDir, SEGMENT)) {
            assertTrue(reader.scan(LogSegments.HEADER, 0).next() != null);
            Files.delete(LogSegments.path(logDir, 0, SEGMENT));
            reader.forget();
            assertNull(reader.scan(LogSegments.HEADER, 0).next(), "no stale handle to the deleted file");
        }
    }

    /** A file layer over the real one whose fsyncs throw {@code failure} while it is set. */
    private static final class UncheckedForceIO implements dev.quickstore.core.volume.FileIO {
        volatile RuntimeException failure;

        @Override
        public Handle open(Path file, boolean create) throws java.io.IOException {
            Handle h = RealFileIO.INSTANCE.open(file, create);
            return new Handle() {
                @Override
                public int read(java.nio.ByteBuffer dst, long pos) throws java.io.IOException {
                    return h.read(dst, pos);
                }

                @Override
                public void write(java.nio.ByteBuffer src, long pos) throws java.io.IOException {
                    h.write(src, pos);
                }

                @Override
                public long size() throws java.io.IOException {
                    return h.size();
                }

                @Override
                public void truncate(long size) throws java.io.IOException {
                    h.truncate(size);
                }

                @Override
                public void force() throws java.io.IOException {
                    RuntimeException f = failure;
                    if (f != null) {
                        throw f;
                    }
                    h.force();
                }

                @Override
                public String name() {
                    return h.name();
                }

                @Override
                public void close() throws java.io.IOException {
                    h.close();
                }
            };
        }

        @Override
        public boolean exists(Path file) {
            return RealFileIO.INSTANCE.exists(file);
        }

        @Override
        public void delete(Path file) throws java.io.IOException {
            RealFileIO.INSTANCE.delete(file);
        }

        @Override
        public void createDirectories(Path d) throws java.io.IOException {
            RealFileIO.INSTANCE.createDirectories(d);
        }

        @Override
        public List<Path> list(Path d) throws java.io.IOException {
            return RealFileIO.INSTANCE.list(d);
        }

        @Override
        public void replace(Path target, byte[] bytes) throws java.io.IOException {
            RealFileIO.INSTANCE.replace(target, bytes);
        }

        @Override
        public java.io.Closeable lock(Path lockFile) throws java.io.IOException {
            return RealFileIO.INSTANCE.lock(lockFile);
        }
    }

    /**
     * Regression (issue 14, storage fault sweep): a flush leader that left with an unchecked exception from the
     * file layer kept the "flushing" flag set, and every later flush - the abort that follows, the next commit -
     * waited for it forever. Now the failure poisons the log like a failed write: later calls throw at once.
     */
    @Test
    void anUncheckedFailureOfTheFlushLeaderPoisonsTheLogInsteadOfHangingLaterFlushes() throws Exception {
        UncheckedForceIO io = new UncheckedForceIO();
        try (LogWriter w = new LogWriter(io, dir.resolve("log"), SEGMENT, 0)) {
            long lsn = w.append(record(200, 1));
            io.failure = new java.io.UncheckedIOException(new java.io.IOException("Input/output error"));
            RuntimeException first =
                    org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class, () -> w.flush(lsn + 1));
            assertTrue(first == io.failure, "the leader's own exception reaches its caller: " + first);
            io.failure = null;
            java.io.IOException later = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                    java.time.Duration.ofSeconds(10),
                    () -> org.junit.jupiter.api.Assertions.assertThrows(
                            java.io.IOException.class, () -> w.flush(lsn + 1)),
                    "a later flush must not wait for the leader that left");
            assertTrue(later.getMessage().contains("failed earlier"), later.getMessage());
            java.io.IOException append = org.junit.jupiter.api.Assertions.assertThrows(
                    java.io.IOException.class, () -> w.append(record(200, 2)));
            assertTrue(append.getMessage().contains("failed earlier"), append.getMessage());
        }
    }
}
