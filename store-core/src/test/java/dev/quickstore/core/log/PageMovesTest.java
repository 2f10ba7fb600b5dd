package dev.quickstore.core.log;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Page-local moves ({@link MoveSearch}, REDO records of version 3): for seeded random pages edited by
 * insertions and deletions inside the page (with field writes and header changes beside), the moves and ranges
 * found rebuild the after-image from the before-image, never touch the page header, and through an encoded,
 * sealed and decoded record {@link LogRecord#redo} and {@link LogRecord#applyAfterImages} give the after-image; a
 * pure shift is found and logs a small fraction of the plain diff; a page of field writes is left to the plain
 * diff; moves where they do not belong (UPDATE, version 2, outside the page) are refused.
 */
@ExtendWith(SeedExtension.class)
class PageMovesTest {
    private static final int PS = 8192;
    private static final int FLOOR = PageHeader.SIZE;

    /** Bytes of a page: random, or text-like (few distinct bytes, so the anchor's eight bytes recur often). */
    private static byte[] page(SplittableRandom rnd) {
        byte[] p = new byte[PS];
        if (rnd.nextBoolean()) {
            rnd.nextBytes(p);
        } else {
            for (int i = 0; i < PS; i++) {
                p[i] = (byte) ("abc e".charAt(rnd.nextInt(rnd.nextInt(4) == 0 ? 2 : 5)));
            }
        }
        return p;
    }

    /** Inserts {@code k} random bytes at {@code at} (the tail shifts up, its end falls off) or deletes them. */
    private static void shift(byte[] p, int at, int k, boolean insert, SplittableRandom rnd) {
        shift(p, at, PS, k, insert, rnd);
    }

    /**
     * {@link #shift} inside {@code [at, end)} only (an object with room to grow, such as a text edited in place):
     * the bytes from {@code end} on stay where they are.
     */
    private static void shift(byte[] p, int at, int end, int k, boolean insert, SplittableRandom rnd) {
        if (insert) {
            System.arraycopy(p, at, p, at + k, end - at - k);
            for (int i = at; i < at + k; i++) {
                p[i] = (byte) rnd.nextInt();
            }
        } else {
            System.arraycopy(p, at + k, p, at, end - at - k);
            for (int i = end - k; i < end; i++) {
                p[i] = (byte) rnd.nextInt(); // the next page's bytes move in
            }
        }
    }

    private static byte[] rebuild(byte[] before, byte[] after, PageMoves m, PageDiff.Ranges r) {
        byte[] p = before.clone();
        m.applyTo(MemorySegment.ofArray(p));
        for (int i = 0; i < r.count; i++) {
            System.arraycopy(after, r.start(i), p, r.start(i), r.end(i) - r.start(i));
        }
        return p;
    }

    @Test
    void movesAndRangesRebuildTheAfterImageThroughTheLog(Seed seed) {
        SplittableRandom rnd = new SplittableRandom(seed.value());
        int found = 0;
        for (int round = 0; round < 400; round++) {
            byte[] before = page(rnd);
            byte[] after = before.clone();
            int edits = 1 + rnd.nextInt(3);
            if (rnd.nextInt(3) == 0) {
                // objects edited in place, each shifted inside itself (OO7 T5's documents): one stopped diff per
                // object, up to more objects than a record has moves
                edits = 1 + rnd.nextInt(LogRecord.MAX_MOVES + 2);
                int size = (PS - FLOOR) / edits;
                for (int e = 0; e < edits; e++) {
                    int at = FLOOR + e * size + rnd.nextInt(64);
                    int k = 1 + rnd.nextInt(rnd.nextBoolean() ? 8 : 200);
                    shift(after, at, FLOOR + (e + 1) * size - rnd.nextInt(32), k, rnd.nextBoolean(), rnd);
                }
                edits = 0;
            }
            for (int e = 0; e < edits; e++) {
                int at = FLOOR + rnd.nextInt(PS - FLOOR - 1200);
                shift(after, at, 1 + rnd.nextInt(rnd.nextBoolean() ? 16 : 1100), rnd.nextBoolean(), rnd);
            }
            for (int w = rnd.nextInt(20); w > 0; w--) { // field writes beside
                after[rnd.nextInt(PS)] = (byte) rnd.nextInt();
            }
            if (rnd.nextBoolean()) {
                after[rnd.nextInt(FLOOR)]++; // a header byte (the checksum, the LSN, ...)
            }
            MemorySegment b = MemorySegment.ofArray(before);
            MemorySegment a = MemorySegment.ofArray(after);
            PageDiff.Ranges plain = PageDiff.diff(b, a, PageDiff.mergeGap(1), new PageDiff.Ranges());
            // as commit diffs a whole page: stopped at the first long range, or (cards) to the end
            PageDiff.Ranges r = rnd.nextBoolean()
                    ? PageDiff.diff(b, a, PageDiff.mergeGap(1), new PageDiff.Ranges(), MoveSearch.MIN_BYTES)
                    : PageDiff.diff(b, a, PageDiff.mergeGap(1), new PageDiff.Ranges());
            PageMoves m = new PageMoves();
            boolean moved = new MoveSearch().search(b, a, FLOOR, PageDiff.mergeGap(1), m, r);
            String ctx = "round " + round + ", seed " + seed.value();
            assertEquals(moved, m.count > 0, ctx);
            assertFalse(r.partial, ctx + ": the diff was completed");
            if (!moved) {
                assertArrayEquals(
                        Arrays.copyOf(plain.bounds, 2 * plain.count),
                        Arrays.copyOf(r.bounds, 2 * r.count),
                        ctx + ": without moves, the plain diff");
            }
            found += moved ? 1 : 0;
            assertArrayEquals(after, rebuild(before, after, m, r), ctx);
            for (int i = 0; i < m.count; i++) {
                assertTrue(Math.min(m.src(i), m.dst(i)) >= FLOOR, ctx + ": move " + i + " below the page header");
                assertTrue(Math.max(m.src(i), m.dst(i)) + m.length(i) <= PS, ctx + ": move " + i + " off the page");
            }
            byte[] rec = LogRecord.encodePage(LogRecord.REDO, 5, 0, 9, 0, null, a, m, r);
            if (moved) {
                assertTrue(
                        rec.length < LogRecord.pageRecordSize(LogRecord.REDO, 0, plain),
                        ctx + ": a record with moves is smaller than the plain one");
            }
            long lsn = 1_000_000L + round;
            LogRecord.seal(rec, lsn);
            LogRecord d = LogRecord.decode("test.wal", 0, lsn, rec);
            assertEquals(m.count, d.moves.count, ctx);
            byte[] redone = before.clone();
            d.redo(MemorySegment.ofArray(redone));
            byte[] expected = after.clone();
            PageHeader.setLsn(MemorySegment.ofArray(expected), lsn);
            assertArrayEquals(expected, redone, ctx + ": redo");
            byte[] applied = before.clone();
            LogRecord.applyAfterImages(rec, MemorySegment.ofArray(applied));
            assertArrayEquals(after, applied, ctx + ": applyAfterImages");
        }
        assertTrue(found > 200, "moves found in " + found + " of 400 shifted pages");
    }

    @Test
    void aPureShiftIsLoggedAsAMoveAndTheBytesThatCameIn(Seed seed) {
        SplittableRandom rnd = new SplittableRandom(seed.value());
        for (int round = 0; round < 200; round++) {
            byte[] before = new byte[PS];
            rnd.nextBytes(before);
            byte[] after = before.clone();
            int k = 1 + rnd.nextInt(MoveSearch.MAX_SHIFT);
            int at = FLOOR + rnd.nextInt(PS - FLOOR - k - 600);
            boolean insert = rnd.nextBoolean();
            shift(after, at, k, insert, rnd);
            MemorySegment b = MemorySegment.ofArray(before);
            MemorySegment a = MemorySegment.ofArray(after);
            PageDiff.Ranges r = PageDiff.diff(b, a, PageDiff.mergeGap(1), new PageDiff.Ranges());
            long plain = r.bytes();
            PageMoves m = new PageMoves();
            String ctx = "round " + round + ", k " + k + (insert ? " inserted" : " deleted") + " at " + at;
            assertTrue(new MoveSearch().search(b, a, FLOOR, 7, m, r), ctx);
            assertEquals(1, m.count, ctx);
            assertTrue(r.bytes() <= k + 16, ctx + ": logged " + r.bytes() + " bytes of " + plain);
            assertEquals(insert ? k : -k, m.dst(0) - m.src(0), ctx + ": the shift");
            // the move starts at the edit, or a few bytes before it where bytes that came in equal those moved
            int edit = insert ? m.src(0) : m.dst(0);
            assertTrue(edit <= at && edit >= at - 8, ctx + ": the move starts at " + edit);
        }
    }

    @Test
    void fieldWritesAreLeftToThePlainDiff(Seed seed) {
        SplittableRandom rnd = new SplittableRandom(seed.value());
        byte[] before = page(rnd);
        byte[] after = before.clone();
        for (int at = 100; at + 8 < PS; at += 96) { // OO7 T2B's shape: a few bytes of every object
            for (int i = 0; i < 8; i++) {
                after[at + i] = (byte) rnd.nextInt();
            }
        }
        MemorySegment b = MemorySegment.ofArray(before);
        MemorySegment a = MemorySegment.ofArray(after);
        PageDiff.Ranges r = PageDiff.diff(b, a, 7, new PageDiff.Ranges());
        assertTrue(r.bytes() >= MoveSearch.MIN_BYTES, "enough bytes changed to search");
        int count = r.count;
        PageMoves m = new PageMoves();
        MoveSearch search = new MoveSearch();
        assertFalse(search.search(b, a, FLOOR, 7, m, r));
        assertEquals(count, r.count);
        assertEquals(0, search.copies, "no copy made when there is no anchor");
    }

    @Test
    void aRewrittenPageStoppedEarlyGetsItsWholeDiff(Seed seed) {
        SplittableRandom rnd = new SplittableRandom(seed.value());
        byte[] before = page(rnd);
        byte[] after = page(rnd); // every byte new: nothing moved
        MemorySegment b = MemorySegment.ofArray(before);
        MemorySegment a = MemorySegment.ofArray(after);
        PageDiff.Ranges r = PageDiff.diff(b, a, 7, new PageDiff.Ranges(), MoveSearch.MIN_BYTES);
        assertTrue(r.partial && r.bytes() < PS / 2, "stopped at the first long range");
        PageMoves m = new PageMoves();
        assertFalse(new MoveSearch().search(b, a, FLOOR, 7, m, r));
        PageDiff.Ranges whole = PageDiff.diff(b, a, 7, new PageDiff.Ranges());
        assertFalse(r.partial);
        assertArrayEquals(Arrays.copyOf(whole.bounds, 2 * whole.count), Arrays.copyOf(r.bounds, 2 * r.count));
        assertArrayEquals(after, rebuild(before, after, m, r));
    }

    /**
     * A move found in a stopped diff that does not pay for itself is refused, and the diff is completed from the
     * page as it was without it: a long changed range (ones over zeros) stops the diff; its middle anchor finds the
     * eight informative bytes after it shifted by three in free space, a run through thousands of zero bytes that
     * saves eleven changed bytes and costs a move. Once as the page's first move, once after a text shifted in place
     * before it was moved (the second stopped diff of the search).
     */
    @Test
    void aMoveOfAStoppedDiffThatDoesNotPayIsRefusedAndTheDiffCompleted() {
        for (boolean textFirst : new boolean[] {false, true}) {
            byte[] before = new byte[PS];
            byte[] after = new byte[PS];
            int at = FLOOR;
            if (textFirst) {
                byte[] text = "I am the documentation for composite part #00000042.\n".getBytes(US_ASCII);
                for (int i = FLOOR; i < 2000; i++) {
                    before[i] = text[(i - FLOOR) % text.length];
                }
                System.arraycopy(before, FLOOR, after, FLOOR + 3, 2000 - FLOOR - 3);
                after[FLOOR] = 'T';
                at = 3000;
            }
            Arrays.fill(after, at, at + 528, (byte) 0xff);
            byte[] informative = {1, 2, 3, 4, 5, 6, 7, 8};
            System.arraycopy(informative, 0, before, at + 528, 8);
            System.arraycopy(informative, 0, after, at + 531, 8);
            MemorySegment b = MemorySegment.ofArray(before);
            MemorySegment a = MemorySegment.ofArray(after);
            PageDiff.Ranges r = PageDiff.diff(b, a, PageDiff.mergeGap(1), new PageDiff.Ranges(), MoveSearch.MIN_BYTES);
            assertTrue(r.partial, "stopped in the first long range");
            PageMoves m = new PageMoves();
            MoveSearch search = new MoveSearch();
            assertEquals(textFirst, search.search(b, a, FLOOR, PageDiff.mergeGap(1), m, r));
            assertEquals(textFirst ? 1 : 0, m.count, "the text's move kept, the free space's refused");
            assertFalse(r.partial);
            assertArrayEquals(after, rebuild(before, after, m, r));
            if (!textFirst) {
                PageDiff.Ranges whole = PageDiff.diff(b, a, PageDiff.mergeGap(1), new PageDiff.Ranges());
                assertArrayEquals(Arrays.copyOf(whole.bounds, 2 * whole.count), Arrays.copyOf(r.bounds, 2 * r.count));
            } else {
                assertTrue(r.bytes() < 600, r.bytes() + " bytes logged beside the text's move");
            }
        }
    }

    @Test
    void movesAreRefusedWhereTheyDoNotBelong() {
        byte[] before = new byte[PS];
        new SplittableRandom(1).nextBytes(before);
        byte[] after = before.clone();
        System.arraycopy(before, 100, after, 140, 4000);
        MemorySegment b = MemorySegment.ofArray(before);
        MemorySegment a = MemorySegment.ofArray(after);
        PageDiff.Ranges r = PageDiff.diff(b, a, 7, new PageDiff.Ranges());
        PageMoves m = new PageMoves();
        assertTrue(new MoveSearch().search(b, a, FLOOR, 7, m, r));
        for (byte type : new byte[] {LogRecord.UPDATE, LogRecord.CLR, LogRecord.NEW_PAGE}) {
            assertThrows(IllegalArgumentException.class, () -> LogRecord.encodePage(type, 1, 0, 2, 0, b, a, m, r));
        }
        byte[] rec = LogRecord.encodePage(LogRecord.REDO, 1, 0, 2, 0, null, a, m, r);
        byte[] v2 = rec.clone();
        v2[9] = LogRecord.VERSION_2;
        LogRecord.seal(v2, 64);
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> LogRecord.decode("x.wal", 0, 64, v2));
        assertTrue(e.getMessage().contains("move count"), e.getMessage());
        byte[] off = rec.clone();
        MemorySegment.ofArray(off).set(PageHeader.INT, LogRecord.HEADER + LogRecord.PAGE_HEADER, 65000); // src
        LogRecord.seal(off, 64);
        e = assertThrows(StoreFormatException.class, () -> LogRecord.decode("x.wal", 0, 64, off));
        assertTrue(e.getMessage().contains("move"), e.getMessage());
        byte[] big = rec.clone();
        MemorySegment.ofArray(big).set(PageHeader.INT, LogRecord.HEADER + LogRecord.PAGE_HEADER + 4, 9000); // dst
        IllegalArgumentException x = assertThrows(
                IllegalArgumentException.class,
                () -> LogRecord.applyAfterImages(big, MemorySegment.ofArray(new byte[PS])));
        assertTrue(x.getMessage().contains("outside a 8192-byte page"), x.getMessage());
        // a move into (or out of) the page header: the writer never makes one (checksum and LSN are not the
        // diff's), the reader refuses it naming the move's offset, the twin's apply and the encoder too
        for (int field : new int[] {0, 4}) { // src, dst
            byte[] head = rec.clone();
            MemorySegment.ofArray(head).set(PageHeader.INT, LogRecord.HEADER + LogRecord.PAGE_HEADER + field, 8);
            LogRecord.seal(head, 64);
            e = assertThrows(StoreFormatException.class, () -> LogRecord.decode("x.wal", 0, 64, head));
            assertTrue(e.getMessage().contains("past its " + PageHeader.SIZE + "-byte header"), e.getMessage());
            assertTrue(e.getMessage().contains("x.wal"), e.getMessage());
            assertThrows(
                    IllegalArgumentException.class,
                    () -> LogRecord.applyAfterImages(head, MemorySegment.ofArray(new byte[PS])));
        }
        PageMoves intoHeader = new PageMoves();
        intoHeader.add(100, 16, 200);
        assertThrows(
                IllegalArgumentException.class,
                () -> LogRecord.encodePage(LogRecord.REDO, 1, 0, 2, 0, null, a, intoHeader, r));
    }
}
