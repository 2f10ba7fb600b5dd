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
}
