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
        List<Long> lsns = new ArrayList<>();
        try (LogReader reader = new LogReader(RealFileIO.INSTANCE, logDir, SEGMENT)) {
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
}
