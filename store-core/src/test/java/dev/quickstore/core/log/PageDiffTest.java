package dev.quickstore.core.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class PageDiffTest {
    @Test
    void rangesReproduceTheNewPageAndRespectTheMergeRule(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        for (int round = 0; round < 2000; round++) {
            byte[] before = new byte[8192];
            rnd.nextBytes(before);
            byte[] after = before.clone();
            int changes = rnd.nextInt(30);
            for (int c = 0; c < changes; c++) {
                int at = rnd.nextInt(8192);
                int len = 1 + rnd.nextInt(Math.min(64, 8192 - at));
                for (int i = at; i < at + len; i++) {
                    after[i] = (byte) (after[i] + 1 + rnd.nextInt(255));
                }
            }
            for (int images = 1; images <= 2; images++) {
                int gap = PageDiff.mergeGap(images);
                PageDiff.Ranges r = PageDiff.diff(
                        MemorySegment.ofArray(before), MemorySegment.ofArray(after), gap, new PageDiff.Ranges());
                byte[] rebuilt = before.clone();
                for (int i = 0; i < r.count; i++) {
                    System.arraycopy(after, r.start(i), rebuilt, r.start(i), r.end(i) - r.start(i));
                    assertTrue(
                            after[r.start(i)] != before[r.start(i)] && after[r.end(i) - 1] != before[r.end(i) - 1],
                            "ranges start and end on changed bytes, seed " + seed);
                    if (i > 0) {
                        assertTrue(r.start(i) - r.end(i - 1) > gap, "gaps <= " + gap + " are merged, seed " + seed);
                    }
                }
                assertArrayEquals(after, rebuilt, "seed " + seed);
            }
        }
    }

    /** Card marking: changes confined to marked cards; the card diff equals the whole-page diff. */
    @Test
    void cardDiffOfTheMarkedCardsEqualsTheWholePageDiff(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        int card = 512;
        for (int round = 0; round < 2000; round++) {
            byte[] before = new byte[8192];
            rnd.nextBytes(before);
            byte[] after = before.clone();
            long mask = 0;
            int changes = rnd.nextInt(12);
            for (int c = 0; c < changes; c++) {
                int at = rnd.nextInt(8192);
                int len = 1 + rnd.nextInt(Math.min(40, 8192 - at));
                for (int i = at; i < at + len; i++) {
                    after[i] = (byte) (after[i] + 1 + rnd.nextInt(255));
                    mask |= 1L << (i / card);
                }
            }
            mask |= rnd.nextInt(16) == 0 ? 1L << rnd.nextInt(16) : 0; // a marked card without a change
            int gap = PageDiff.mergeGap(1);
            PageDiff.Ranges whole = PageDiff.diff(
                    MemorySegment.ofArray(before), MemorySegment.ofArray(after), gap, new PageDiff.Ranges());
            PageDiff.Ranges cards = PageDiff.diffCards(
                    MemorySegment.ofArray(before),
                    MemorySegment.ofArray(after),
                    mask,
                    card,
                    gap,
                    new PageDiff.Ranges());
            assertEquals(whole.count, cards.count, "seed " + seed);
            for (int i = 0; i < whole.count; i++) {
                assertEquals(whole.start(i), cards.start(i), "seed " + seed);
                assertEquals(whole.end(i), cards.end(i), "seed " + seed);
            }
            // a change outside the marked cards is not seen (that is the contract of the barrier)
            if (mask != -1L && Long.bitCount(mask) < 16) {
                int free = Long.numberOfTrailingZeros(~mask);
                byte[] stray = after.clone();
                stray[free * card + 7]++;
                PageDiff.Ranges r = PageDiff.diffCards(
                        MemorySegment.ofArray(before),
                        MemorySegment.ofArray(stray),
                        mask,
                        card,
                        gap,
                        new PageDiff.Ranges());
                assertEquals(whole.count, r.count, "seed " + seed);
            }
        }
    }

    @Test
    void mergeRuleExamplesFromQuickStore() {
        // first, third and fifth byte changed: one range (gaps of 1 byte cost less than a range header)
        byte[] a = new byte[64];
        byte[] b = a.clone();
        b[0] = 1;
        b[2] = 1;
        b[4] = 1;
        PageDiff.Ranges r = PageDiff.diff(
                MemorySegment.ofArray(a), MemorySegment.ofArray(b), PageDiff.mergeGap(1), new PageDiff.Ranges());
        assertEquals(1, r.count);
        assertEquals(0, r.start(0));
        assertEquals(5, r.end(0));
        // first and last byte of a 1 KiB object: two ranges
        byte[] c = new byte[1024];
        byte[] d = c.clone();
        d[0] = 1;
        d[1023] = 1;
        r = PageDiff.diff(MemorySegment.ofArray(c), MemorySegment.ofArray(d), PageDiff.mergeGap(1), r);
        assertEquals(2, r.count);
        assertEquals(2, r.bytes());
    }

    /** Byte-by-byte reference: the merge rule applied literally. */
    static int[] reference(byte[] before, byte[] after, int maxGap) {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        int start = -1;
        int end = -1;
        for (int i = 0; i < before.length; i++) {
            if (before[i] != after[i]) {
                if (start >= 0 && i - end <= maxGap) {
                    end = i + 1;
                } else {
                    if (start >= 0) {
                        out.add(start);
                        out.add(end);
                    }
                    start = i;
                    end = i + 1;
                }
            }
        }
        if (start >= 0) {
            out.add(start);
            out.add(end);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    @FixedSeed(20261122L)
    void agreesWithTheByteByByteReferenceAtEveryDensityLengthAndGap(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        PageDiff.Ranges r = new PageDiff.Ranges();
        for (int round = 0; round < 3000; round++) {
            int n = round % 3 == 0 ? 8192 : rnd.nextInt(1, 300); // odd lengths exercise the tail
            byte[] before = new byte[n];
            rnd.nextBytes(before);
            byte[] after = before.clone();
            double density = new double[] {0.0005, 0.01, 0.1, 0.5, 1.0}[round % 5];
            for (int i = 0; i < n; i++) {
                if (rnd.nextDouble() < density) {
                    after[i] = (byte) (after[i] ^ (1 + rnd.nextInt(255)));
                }
            }
            for (int gap : new int[] {0, 1, 3, 5, 6, 7, 20}) {
                r = PageDiff.diff(MemorySegment.ofArray(before), MemorySegment.ofArray(after), gap, r);
                int[] expected = reference(before, after, gap);
                assertArrayEquals(
                        expected,
                        java.util.Arrays.copyOf(r.bounds, 2 * r.count),
                        "round " + round + " n " + n + " gap " + gap + " seed " + seed);
            }
        }
    }
}
