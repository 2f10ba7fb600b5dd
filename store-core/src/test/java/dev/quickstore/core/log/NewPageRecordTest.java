package dev.quickstore.core.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The NEW_PAGE log record ({@link LogRecord#NEW_PAGE}, record version 2): its ranges are a page's difference from
 * zeros, and redo rebuilds the page from them whatever bytes the volume held there before.
 */
class NewPageRecordTest {
    static final int PAGE = 8192;

    /** A page image with a header and a few scattered non-zero runs (the rest zero, as a fresh slotted page). */
    static byte[] image(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] page = new byte[PAGE];
        MemorySegment s = MemorySegment.ofArray(page);
        PageHeader.format(s, 42, PageHeader.SLOTTED);
        for (int k = 0; k < 12; k++) {
            int at = 64 + rnd.nextInt(PAGE - 400);
            for (int i = 0; i < 1 + rnd.nextInt(300); i++) {
                page[at + i] = (byte) (1 + rnd.nextInt(255));
            }
        }
        return page;
    }

    static byte[] encode(byte[] page) {
        PageDiff.Ranges r = PageDiff.diff(
                MemorySegment.ofArray(new byte[PAGE]),
                MemorySegment.ofArray(page),
                PageDiff.mergeGap(1),
                new PageDiff.Ranges());
        byte[] rec = LogRecord.encodePage(LogRecord.NEW_PAGE, 9, 0, 42, 0, null, MemorySegment.ofArray(page), r);
        LogRecord.seal(rec, 4096);
        return rec;
    }

    @Test
    void redoRebuildsThePageOverStaleBytes() {
        for (long seed = 1; seed <= 20; seed++) {
            byte[] page = image(seed);
            byte[] rec = encode(page);
            assertTrue(rec.length < PAGE / 2, "a mostly zero page logs its non-zero bytes only: " + rec.length);
            LogRecord r = LogRecord.decode("log", 0, 4096, rec);
            assertEquals(LogRecord.NEW_PAGE, r.type);
            assertEquals(42, r.pageId);
            assertTrue(r.isPageRecord());
            // the volume held something else there: a page freed earlier, never zeroed
            byte[] stale = new byte[PAGE];
            new SplittableRandom(-seed).nextBytes(stale);
            MemorySegment target = MemorySegment.ofArray(stale);
            r.redo(target);
            byte[] want = page.clone();
            PageHeader.setLsn(MemorySegment.ofArray(want), 4096);
            assertArrayEquals(
                    Arrays.copyOfRange(want, PageHeader.TYPE, PAGE),
                    Arrays.copyOfRange(stale, PageHeader.TYPE, PAGE),
                    "seed " + seed + ": the page after redo, all but its checksum word");
            assertEquals(4096, PageHeader.lsn(target));
        }
    }

    @Test
    void anAllZeroNewPageStillZeroesThePage() {
        byte[] zeros = new byte[PAGE];
        PageDiff.Ranges none = PageDiff.diff(
                MemorySegment.ofArray(zeros),
                MemorySegment.ofArray(zeros),
                PageDiff.mergeGap(1),
                new PageDiff.Ranges());
        assertEquals(0, none.count);
        byte[] rec = LogRecord.encodePage(LogRecord.NEW_PAGE, 3, 0, 5, 0, null, MemorySegment.ofArray(zeros), none);
        LogRecord.seal(rec, 64);
        LogRecord r = LogRecord.decode("log", 0, 64, rec);
        byte[] stale = new byte[PAGE];
        Arrays.fill(stale, (byte) 0x5a);
        r.redo(MemorySegment.ofArray(stale));
        for (int i = PageHeader.TYPE; i < PAGE; i++) {
            if (i < PageHeader.LSN || i >= PageHeader.LSN + 8) {
                assertEquals(0, stale[i], "byte " + i);
            }
        }
    }

    @Test
    void versionOneRecordsAreReadButANewPageRecordMustBeVersionTwo() {
        byte[] page = image(7);
        byte[] rec = encode(page);
        assertEquals(LogRecord.VERSION, rec[9], "records are written at the current version");
        rec[9] = 1;
        LogRecord.seal(rec, 4096);
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> LogRecord.decode("log", 0, 4096, rec));
        assertTrue(e.getMessage().contains("NEW_PAGE"), e.getMessage());
        // a REDO record of version 1 (a log written before NEW_PAGE existed) still decodes
        PageDiff.Ranges r = new PageDiff.Ranges();
        r.add(100, 200);
        byte[] redo = LogRecord.encodePage(LogRecord.REDO, 9, 0, 42, 0, null, MemorySegment.ofArray(page), r);
        redo[9] = 1;
        LogRecord.seal(redo, 4096);
        assertEquals(LogRecord.REDO, LogRecord.decode("log", 0, 4096, redo).type);
        redo[9] = 2; // and of version 2 (before moves)
        LogRecord.seal(redo, 4096);
        assertEquals(LogRecord.REDO, LogRecord.decode("log", 0, 4096, redo).type);
        redo[9] = 4; // a version from the future
        LogRecord.seal(redo, 4096);
        assertThrows(StoreFormatException.class, () -> LogRecord.decode("log", 0, 4096, redo));
    }
}
