package dev.quickstore.core.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link LogRecord#applyAfterImages} (kernel write tracking brings a page's twin to the page as logged with it):
 * for seeded random pages and changes, applying a REDO, UPDATE or CLR record of the diff to the before-image gives
 * the after-image, and a NEW_PAGE record gives the page whatever the bytes were before (but the checksum word); records that are not page records, and
 * ranges outside the page, are refused.
 */
@ExtendWith(SeedExtension.class)
class AfterImagesTest {
    @Test
    void applyingARecordToTheBeforeImageGivesTheAfterImage(Seed seed) {
        SplittableRandom rnd = new SplittableRandom(seed.value());
        int ps = 8192;
        for (int round = 0; round < 200; round++) {
            byte[] before = new byte[ps];
            rnd.nextBytes(before);
            byte[] after = before.clone();
            int changes = rnd.nextInt(40);
            for (int c = 0; c < changes; c++) {
                int at = rnd.nextInt(ps);
                int len = 1 + rnd.nextInt(Math.min(300, ps - at));
                for (int i = at; i < at + len; i++) {
                    after[i] = (byte) rnd.nextInt();
                }
            }
            PageDiff.Ranges r = PageDiff.diff(
                    MemorySegment.ofArray(before),
                    MemorySegment.ofArray(after),
                    rnd.nextInt(16),
                    new PageDiff.Ranges());
            for (byte type : new byte[] {LogRecord.REDO, LogRecord.UPDATE, LogRecord.CLR}) {
                byte[] rec = LogRecord.encodePage(
                        type, 7, 0, 3, 0, MemorySegment.ofArray(before), MemorySegment.ofArray(after), r);
                byte[] page = before.clone();
                LogRecord.applyAfterImages(rec, MemorySegment.ofArray(page));
                assertArrayEquals(after, page, "type " + type + ", round " + round);
            }
            PageDiff.Ranges fromZero = PageDiff.diff(
                    MemorySegment.ofArray(new byte[ps]), MemorySegment.ofArray(after), 1, new PageDiff.Ranges());
            byte[] rec =
                    LogRecord.encodePage(LogRecord.NEW_PAGE, 7, 0, 3, 0, null, MemorySegment.ofArray(after), fromZero);
            byte[] page = new byte[ps];
            LogRecord.applyAfterImages(rec, MemorySegment.ofArray(page));
            assertArrayEquals(after, page, "NEW_PAGE, round " + round);
            byte[] stale = before.clone(); // a frame's earlier bytes: NEW_PAGE zero-fills all but the checksum
            LogRecord.applyAfterImages(rec, MemorySegment.ofArray(stale));
            assertArrayEquals(
                    Arrays.copyOfRange(after, 4, ps),
                    Arrays.copyOfRange(stale, 4, ps),
                    "NEW_PAGE over stale bytes, round " + round);
        }
    }

    @Test
    void notAPageRecordOrARangeOutsideThePageIsRefused() {
        byte[] commit = LogRecord.encodeCommit(7, 0, 0);
        assertThrows(
                IllegalArgumentException.class,
                () -> LogRecord.applyAfterImages(commit, MemorySegment.ofArray(new byte[8192])));
        byte[] after = new byte[8192];
        after[8000] = 1;
        PageDiff.Ranges r = PageDiff.diff(
                MemorySegment.ofArray(new byte[8192]), MemorySegment.ofArray(after), 1, new PageDiff.Ranges());
        byte[] rec = LogRecord.encodePage(LogRecord.REDO, 7, 0, 3, 0, null, MemorySegment.ofArray(after), r);
        assertThrows(
                IllegalArgumentException.class,
                () -> LogRecord.applyAfterImages(rec, MemorySegment.ofArray(new byte[4096])));
    }
}
