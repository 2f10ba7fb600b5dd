package dev.quickstore.core.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quickstore.core.volume.RealFileIO;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit encodes its page records into one reused array ({@link LogRecord#encodePageInto}) and the log takes each
 * from there ({@link LogWriter#append(byte[], int)}): every byte of a record must be written, whatever the array held
 * (a longer record, garbage), so that the record and its checksum are those of a record encoded into a fresh array.
 */
class RecordIntoReusedArrayTest {
    static final int PAGE = 8192;

    @Test
    void aRecordInAReusedArrayIsTheFreshRecord() {
        SplittableRandom rnd = new SplittableRandom(11);
        byte[] reused = new byte[3 * PAGE];
        for (int round = 0; round < 200; round++) {
            byte[] before = new byte[PAGE];
            byte[] after = new byte[PAGE];
            rnd.nextBytes(before);
            System.arraycopy(before, 0, after, 0, PAGE);
            for (int k = 0; k < 1 + rnd.nextInt(20); k++) { // scattered changes of up to 600 bytes
                int at = 64 + rnd.nextInt(PAGE - 700);
                for (int i = 0, n = 1 + rnd.nextInt(600); i < n; i++) {
                    after[at + i] = (byte) rnd.nextInt();
                }
            }
            PageDiff.Ranges r = PageDiff.diff(
                    MemorySegment.ofArray(before),
                    MemorySegment.ofArray(after),
                    PageDiff.mergeGap(1),
                    new PageDiff.Ranges());
            PageMoves moves = new PageMoves();
            byte type = switch (round % 3) {
                case 0 -> LogRecord.REDO;
                case 1 -> LogRecord.UPDATE;
                default -> LogRecord.NEW_PAGE;
            };
            if (type == LogRecord.REDO && rnd.nextBoolean()) {
                moves.add(100, 200, 1 + rnd.nextInt(500));
            }
            long txn = rnd.nextLong();
            long prev = rnd.nextLong();
            long page = rnd.nextLong(1 << 30);
            MemorySegment pre = type == LogRecord.UPDATE ? MemorySegment.ofArray(before) : null;
            byte[] fresh = LogRecord.encodePage(type, txn, prev, page, 0, pre, MemorySegment.ofArray(after), moves, r);
            Arrays.fill(reused, (byte) (0x5a + round)); // what the array held before: garbage, never zeros
            int size = LogRecord.encodePageInto(
                    reused, type, txn, prev, page, 0, pre, MemorySegment.ofArray(after), moves, r);
            assertEquals(fresh.length, size, "round " + round);
            assertArrayEquals(fresh, Arrays.copyOf(reused, size), "round " + round + ", " + LogRecord.typeName(type));
            long lsn = 4096 + 64L * round;
            LogRecord.seal(fresh, lsn);
            LogRecord.seal(reused, size, lsn);
            assertArrayEquals(fresh, Arrays.copyOf(reused, size), "round " + round + ", sealed");
            LogRecord decoded = LogRecord.decode("log", 0, lsn, Arrays.copyOf(reused, size));
            assertEquals(page, decoded.pageId, "round " + round);
        }
    }

    @Test
    void theLogRefusesALengthOutsideTheArray(@TempDir Path dir) throws Exception {
        byte[] rec = LogRecord.encodeEnd(1, 0);
        try (LogWriter w = new LogWriter(RealFileIO.INSTANCE, dir, 1 << 20, 0)) {
            assertThrows(IllegalArgumentException.class, () -> w.append(rec, rec.length + 1));
            assertThrows(IllegalArgumentException.class, () -> w.append(rec, LogRecord.HEADER - 1));
            long lsn = w.append(rec, rec.length);
            w.flushAll();
            assertEquals(lsn + rec.length, w.durableLsn(), "a record appended from its array's start");
        }
    }
}
