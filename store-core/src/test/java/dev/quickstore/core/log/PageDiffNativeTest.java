package dev.quickstore.core.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.mmu.NativeDiff;
import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The native diff ({@code qs_diff.c} through {@link NativeDiff}) against the Java loop it replaced ({@link
 * PageDiff#diffInJava}): the same ranges, the same early stop, for heap and native segments at any offset, and an
 * output array grown when a page has more ranges than it holds.
 */
@ExtendWith(SeedExtension.class)
class PageDiffNativeTest {
    private static int[] bounds(PageDiff.Ranges r) {
        return Arrays.copyOf(r.bounds, 2 * r.count);
    }

    @Test
    @FixedSeed(20261127L)
    void findsTheRangesAndTheStopOfTheJavaLoop(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        long[] stops = {Long.MAX_VALUE, MoveSearch.MIN_BYTES, 8, 64, 1000};
        int partials = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nb = arena.allocate(8192 + 64, 64);
            MemorySegment na = arena.allocate(8192 + 64, 64);
            for (int round = 0; round < 1500; round++) {
                int n = round % 3 == 0 ? 8192 : rnd.nextInt(0, 400);
                int off = rnd.nextInt(0, 16);
                byte[] before = new byte[n + off];
                rnd.nextBytes(before);
                byte[] after = before.clone();
                double density = new double[] {0.0005, 0.01, 0.1, 0.5, 1.0}[round % 5];
                boolean runs = round % 7 == 0; // long changed runs, which the stop cuts
                for (int i = off; i < n + off; i++) {
                    if (runs ? (i / 300) % 2 == 1 : rnd.nextDouble() < density) {
                        after[i] = (byte) (after[i] ^ (1 + rnd.nextInt(255)));
                    }
                }
                MemorySegment hb = MemorySegment.ofArray(before).asSlice(off, n);
                MemorySegment ha = MemorySegment.ofArray(after).asSlice(off, n);
                MemorySegment sb = nb.asSlice(off, n).copyFrom(hb);
                MemorySegment sa = na.asSlice(off, n).copyFrom(ha);
                for (int gap : new int[] {0, 1, 5, 6, 7, 12, 20}) {
                    for (long stop : stops) {
                        PageDiff.Ranges want = PageDiff.diffInJava(hb, ha, gap, new PageDiff.Ranges(), stop);
                        String what = "round " + round + " n " + n + " off " + off + " gap " + gap + " stop " + stop
                                + " seed " + seed;
                        for (MemorySegment[] pair : new MemorySegment[][] {{hb, ha}, {sb, sa}, {hb, sa}, {sb, ha}}) {
                            PageDiff.Ranges got = PageDiff.diff(pair[0], pair[1], gap, new PageDiff.Ranges(), stop);
                            assertArrayEquals(bounds(want), bounds(got), what);
                            assertEquals(want.partial, got.partial, "partial: " + what);
                        }
                        partials += want.partial ? 1 : 0;
                    }
                }
            }
        }
        assertTrue(partials > 100, "the rounds stopped early " + partials + " times");
    }

    @Test
    void growsTheOutputWhenAPageHasMoreRangesThanItHolds() {
        byte[] before = new byte[8192];
        byte[] after = new byte[8192];
        for (int i = 0; i < 8192; i += 16) {
            after[i] = 1; // 512 ranges at gap 6: more than the 32 pairs a new Ranges holds
        }
        PageDiff.Ranges r = new PageDiff.Ranges();
        int room = r.bounds.length / 2;
        PageDiff.diff(MemorySegment.ofArray(before), MemorySegment.ofArray(after), 6, r);
        assertEquals(512, r.count);
        assertTrue(room < 512, "the test needs a page with more ranges than a new Ranges holds: " + room);
        for (int k = 0; k < 512; k++) {
            assertEquals(16 * k, r.start(k));
            assertEquals(16 * k + 1, r.end(k));
        }
        long raw = NativeDiff.ranges(
                MemorySegment.ofArray(before), MemorySegment.ofArray(after), 6, Long.MAX_VALUE, new int[8]);
        assertEquals(2 * 512, raw, "the count past the room of the array");
        assertFalse(PageDiff.diff(MemorySegment.ofArray(before), MemorySegment.ofArray(before), 6, r).partial);
        assertEquals(0, r.count);
    }

    @Test
    void refusesSegmentsOfDifferentLengthsAndNamesThem() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> NativeDiff.ranges(
                        MemorySegment.ofArray(new byte[16]),
                        MemorySegment.ofArray(new byte[8]),
                        6,
                        Long.MAX_VALUE,
                        new int[8]));
        assertTrue(e.getMessage().contains("16 bytes against 8 bytes"), e.getMessage());
    }

    @Test
    void theSwitchTakesNativeOrJavaAndNamesItselfOtherwise() {
        assertFalse(PageDiff.inJava("native"));
        assertTrue(PageDiff.inJava("java"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PageDiff.inJava("c"));
        assertTrue(e.getMessage().contains("qs.diff") && e.getMessage().contains("'c'"), e.getMessage());
    }

    /** A page as the store's pages look: random fields, free space (zeros), repeated text, sorted 16-byte entries. */
    private static void fillPage(byte[] p, SplittableRandom rnd) {
        int i = 0;
        while (i < p.length) {
            int len = Math.min(p.length - i, 64 + rnd.nextInt(1500));
            switch (rnd.nextInt(4)) {
                case 0 -> {
                    for (int k = 0; k < len; k++) {
                        p[i + k] = (byte) rnd.nextInt();
                    }
                }
                case 1 -> {} // free space
                case 2 -> {
                    String text = "the quick brown fox " + rnd.nextInt(1000) + " ";
                    for (int k = 0; k < len; k++) {
                        p[i + k] = (byte) text.charAt(k % text.length());
                    }
                }
                default -> {
                    long key = rnd.nextInt(1000);
                    for (int k = 0; k + 16 <= len; k += 16) {
                        key += 1 + rnd.nextInt(5);
                        for (int b = 0; b < 8; b++) {
                            p[i + k + b] = (byte) (key >>> (8 * b));
                            p[i + k + 8 + b] = (byte) (key * 31 >>> (8 * b));
                        }
                    }
                }
            }
            i += len;
        }
    }

    @Test
    @FixedSeed(20261128L)
    void theMoveScanFindsTheRunOfTheJavaLoop(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        MoveSearch search = new MoveSearch();
        int floor = 32;
        int moves = 0;
        int searched = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nb = arena.allocate(8192, 64);
            MemorySegment na = arena.allocate(8192, 64);
            for (int round = 0; round < 1500; round++) {
                byte[] before = new byte[8192];
                fillPage(before, rnd);
                byte[] after = before.clone();
                int at = floor + (round % 3 == 0 ? rnd.nextInt(300) : rnd.nextInt(8192 - floor - 1));
                int k = 1 + rnd.nextInt(round % 4 == 0 ? 1200 : 200); // beyond MAX_SHIFT too
                k = Math.min(k, 8192 - at);
                if (rnd.nextBoolean()) { // insertion of k bytes at `at`
                    System.arraycopy(before, at, after, at + k, 8192 - at - k);
                    for (int b = at; b < at + k; b++) {
                        after[b] = (byte) rnd.nextInt();
                    }
                } else { // deletion
                    System.arraycopy(before, at + k, after, at, 8192 - at - k);
                    java.util.Arrays.fill(after, 8192 - k, 8192, (byte) 0);
                }
                if (round % 3 == 0) { // the header's LSN changed too: a range may start below the floor
                    after[8 + rnd.nextInt(8)] ^= (byte) (1 + rnd.nextInt(255));
                }
                for (int f = rnd.nextInt(4); f > 0; f--) { // a few fields updated besides
                    after[floor + rnd.nextInt(8192 - floor)] ^= (byte) (1 + rnd.nextInt(255));
                }
                MemorySegment hb = MemorySegment.ofArray(before);
                MemorySegment ha = MemorySegment.ofArray(after);
                PageDiff.Ranges r =
                        PageDiff.diffInJava(hb, ha, PageDiff.mergeGap(1), new PageDiff.Ranges(), Long.MAX_VALUE);
                int[] anchors = search.anchorsFor(r);
                if (anchors.length == 0) {
                    continue;
                }
                searched++;
                boolean byJava = search.findMoveInJava(hb, ha, floor, anchors.length);
                long[] want = search.lastBest();
                nb.copyFrom(hb);
                na.copyFrom(ha);
                for (MemorySegment[] pair : new MemorySegment[][] {{hb, ha}, {nb, na}}) {
                    long[] got = new long[3];
                    boolean found = NativeDiff.moveFind(
                            pair[0],
                            pair[1],
                            floor,
                            anchors,
                            anchors.length,
                            MoveSearch.NEAR_SHIFT,
                            MoveSearch.MAX_SHIFT,
                            MoveSearch.MIN_MOVE,
                            MoveSearch.MAX_CANDIDATES,
                            got);
                    String what = "round " + round + " at " + at + " k " + k + " anchors "
                            + java.util.Arrays.toString(anchors) + " seed " + seed;
                    assertEquals(byJava, found, what);
                    assertArrayEquals(want, got, what);
                }
                moves += byJava ? 1 : 0;
            }
        }
        assertTrue(searched > 1000 && moves > 500 && moves < searched, "searched " + searched + ", moves " + moves);
    }

    @Test
    void theMoveScanRefusesAnchorsOutsideThePage() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> NativeDiff.moveFind(
                        MemorySegment.ofArray(new byte[64]),
                        MemorySegment.ofArray(new byte[64]),
                        0,
                        new int[] {70, 0},
                        1,
                        128,
                        1024,
                        256,
                        8,
                        new long[3]));
        assertTrue(e.getMessage().contains("anchor 70 outside the page of 64 bytes"), e.getMessage());
    }
}
