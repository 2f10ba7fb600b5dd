package dev.quickstore.core.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SeedExtension.class)
class SlottedPageTest {
    @Test
    void randomAllocateAndFreeKeepInvariantsAndNeverMoveObjects(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        MemorySegment p = MemorySegment.ofArray(new byte[8192]);
        SlottedPage.format(p, 5);
        List<int[]> live = new ArrayList<>(); // offset, length, fill byte
        for (int step = 0; step < 20000; step++) {
            if (live.isEmpty() || rnd.nextInt(3) > 0) {
                int len = 1 + rnd.nextInt(rnd.nextBoolean() ? 64 : 900);
                int[] ptrs = len >= 16 && rnd.nextBoolean() ? new int[] {8} : new int[0];
                int off = SlottedPage.allocate(p, len, ptrs);
                if (off < 0) {
                    assertTrue(SlottedPage.largestFit(p) < ((len + 7) & ~7), "fit claimed but refused, seed " + seed);
                    continue;
                }
                byte fill = (byte) (1 + rnd.nextInt(255));
                p.asSlice(off, len).fill(fill);
                live.add(new int[] {off, len, fill});
            } else {
                int[] o = live.remove(rnd.nextInt(live.size()));
                SlottedPage.free(p, o[0]);
            }
            if (step % 500 == 0) {
                VerifyReport r = new VerifyReport();
                SlottedPage.check(p, 5, r);
                assertTrue(r.ok(), r + " seed " + seed);
                assertEquals(live.size(), SlottedPage.liveCount(p));
                for (int[] o : live) {
                    for (int i = 0; i < o[1]; i++) {
                        assertEquals(
                                (byte) o[2],
                                p.get(java.lang.foreign.ValueLayout.JAVA_BYTE, o[0] + i),
                                "object moved, seed " + seed);
                    }
                }
            }
        }
    }

    /**
     * The pointer map holds exactly the pointer words of the live objects: every word of the page is checked against
     * the test's record after random allocations (no pointers, one, a random subset in ascending or descending order,
     * or every word as a reference array's node has) and frees. {@code place} sets the bits of one map byte together
     * and {@code freeSlot} clears a byte's bits at once; a mask one bit off either way fails here.
     */
    @Test
    void pointerMapHoldsExactlyTheLiveObjectsPointerWords(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        MemorySegment p = MemorySegment.ofArray(new byte[8192]);
        SlottedPage.format(p, 9);
        boolean[] pointer = new boolean[8192 / 8];
        List<int[]> live = new ArrayList<>(); // offset, length
        List<int[]> livePointers = new ArrayList<>();
        for (int step = 0; step < 6000; step++) {
            if (live.isEmpty() || rnd.nextInt(3) > 0) {
                int len = 1 + rnd.nextInt(rnd.nextBoolean() ? 80 : 700);
                int words = len / 8; // pointer words lie wholly inside the object
                int[] ptrs = switch (rnd.nextInt(4)) {
                    case 0 -> new int[0];
                    case 1 -> words == 0 ? new int[0] : new int[] {8 * rnd.nextInt(words)};
                    case 2 -> randomWords(rnd, words);
                    default ->
                        java.util.stream.IntStream.range(0, words)
                                .map(w -> 8 * w)
                                .toArray();
                };
                int off = SlottedPage.allocate(p, len, ptrs);
                if (off < 0) {
                    continue;
                }
                for (int po : ptrs) {
                    pointer[(off + po) / 8] = true;
                }
                live.add(new int[] {off, len});
                livePointers.add(ptrs);
            } else {
                int k = rnd.nextInt(live.size());
                int[] o = live.remove(k);
                for (int po : livePointers.remove(k)) {
                    pointer[(o[0] + po) / 8] = false;
                }
                SlottedPage.free(p, o[0]);
            }
            if (step % 50 == 0) {
                for (int w = 0; w < pointer.length; w++) {
                    assertEquals(
                            pointer[w],
                            SlottedPage.isPointer(p, w),
                            "word " + w + " at step " + step + ", seed " + seed);
                }
            }
        }
    }

    /**
     * A 64 KiB page holds more slots than the scans' scratch array starts with (2,048): filled with one-byte objects,
     * thinned, and filled again, it keeps its invariants, finds every object and places first fit as an oracle
     * over the test's record says.
     */
    @Test
    void aPageWithMoreSlotsThanTheScratchArray() {
        MemorySegment p = MemorySegment.ofArray(new byte[65536]);
        SlottedPage.format(p, 3);
        List<Integer> offsets = new ArrayList<>();
        for (int off; (off = SlottedPage.allocate(p, 1, new int[0])) >= 0; ) {
            offsets.add(off);
        }
        assertTrue(offsets.size() > 4000, offsets.size() + " objects");
        for (int i = 0; i < offsets.size(); i += 2) {
            SlottedPage.free(p, offsets.get(i));
        }
        for (int i = 1; i < offsets.size(); i += 2) {
            assertTrue(SlottedPage.slotAt(p, offsets.get(i)) >= 0, "object at " + offsets.get(i));
        }
        assertEquals(offsets.get(0), SlottedPage.placement(p, 8), "first fit: the first freed unit");
        assertEquals(8, SlottedPage.largestFit(p), "every gap is one unit");
        int again = SlottedPage.allocate(p, 8, new int[] {0});
        assertEquals((int) offsets.get(0), again);
        assertTrue(SlottedPage.isPointer(p, again / 8));
        VerifyReport r = new VerifyReport();
        SlottedPage.check(p, 3, r);
        assertTrue(r.ok(), r.toString());
    }

    /** A random subset of the words {@code [0, words)} as byte offsets, ascending or descending. */
    private static int[] randomWords(SplittableRandom rnd, int words) {
        int[] chosen = java.util.stream.IntStream.range(0, words)
                .filter(w -> rnd.nextBoolean())
                .map(w -> 8 * w)
                .toArray();
        if (rnd.nextBoolean()) {
            for (int i = 0, j = chosen.length - 1; i < j; i++, j--) {
                int t = chosen[i];
                chosen[i] = chosen[j];
                chosen[j] = t;
            }
        }
        return chosen;
    }

    /**
     * The one-pass placement (slots in offset order) and its sorting fallback (slots reused out of order after
     * frees) place every object exactly where first fit over the live objects sorted by offset does; the oracle
     * here is that rule written out on the test's own record of the live objects.
     */
    @Test
    void placementIsFirstFitInOffsetOrderWithOrWithoutReusedSlots(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        int ps = 8192;
        MemorySegment p = MemorySegment.ofArray(new byte[ps]);
        SlottedPage.format(p, 7);
        java.util.TreeMap<Integer, Integer> live = new java.util.TreeMap<>(); // offset -> length
        int unsortedPlacements = 0;
        for (int step = 0; step < 20000; step++) {
            if (live.isEmpty() || rnd.nextInt(5) > 1) {
                int len = 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 700 : 48);
                int expected = firstFit(live, SlottedPage.slotCount(p), hasFreeSlot(p), len, ps);
                if (!slotsInOffsetOrder(p)) {
                    unsortedPlacements++;
                }
                assertEquals(expected, SlottedPage.placement(p, len), "placement, step " + step + " seed " + seed);
                int dense = SlottedPage.denseEnd(p);
                if (dense >= 0) { // a densely packed page: the next object goes at its end or nowhere
                    assertEquals(
                            SlottedPage.denseFits(ps, SlottedPage.slotCount(p), dense, len) ? dense : -1,
                            expected,
                            "dense placement, step " + step + " seed " + seed);
                }
                int off = SlottedPage.allocate(p, len, new int[0]);
                assertEquals(expected, off, "allocate, step " + step + " seed " + seed);
                if (off > 0) {
                    live.put(off, len);
                }
            } else {
                Integer[] offs = live.keySet().toArray(new Integer[0]);
                int off = offs[rnd.nextInt(offs.length)];
                live.remove(off);
                SlottedPage.free(p, off);
            }
        }
        assertTrue(unsortedPlacements > 100, "the bitmap fallback ran only " + unsortedPlacements + " times");
    }

    /**
     * A {@link UnitMap} kept beside a page as the allocator keeps it - advanced by {@code placed} after each allocation
     * at its placement and slot, learned again after a free (which its {@code describes} check refuses) - places every
     * object where {@code allocate} does and leaves the page byte for byte as {@code allocate} does (slot reuse,
     * counts, zero fill, pointer bits); after every step it answers as a map learned from the page afresh.
     */
    @Test
    void aKeptUnitMapPlacesAsAllocateDoes(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        int ps = 8192;
        MemorySegment a = MemorySegment.ofArray(new byte[ps]);
        MemorySegment b = MemorySegment.ofArray(new byte[ps]);
        SlottedPage.format(a, 7);
        SlottedPage.format(b, 7);
        UnitMap map = UnitMap.of(b);
        List<Integer> live = new ArrayList<>();
        int placed = 0;
        int relearned = 0;
        for (int step = 0; step < 20000; step++) {
            if (live.isEmpty() || rnd.nextInt(5) > 1) {
                int len = 8 + rnd.nextInt(rnd.nextInt(4) == 0 ? 700 : 48);
                int[] pointers = len >= 16 ? new int[] {8} : new int[0];
                int off = SlottedPage.allocate(a, len, pointers);
                assertTrue(map.describes(b), "step " + step);
                int found = map.placement(len);
                assertEquals(off, found, "placement, step " + step + " seed " + seed);
                if (found >= 0) {
                    b.asSlice(found, len).fill((byte) 0x77); // the object must be zero-filled as allocate does
                    int slot = map.firstFreeSlot();
                    SlottedPage.allocateAt(b, found, slot, len, pointers);
                    map.placed(found, slot, len);
                    live.add(off);
                    placed++;
                }
            } else {
                int off = live.remove(rnd.nextInt(live.size()));
                SlottedPage.free(a, off);
                SlottedPage.free(b, off);
                assertFalse(map.describes(b), "a free changes the counts the map is checked against, step " + step);
                map = UnitMap.of(b);
                relearned++;
            }
            assertEquals(-1L, a.mismatch(b), "pages differ after step " + step + " seed " + seed);
            UnitMap fresh = UnitMap.of(b);
            for (int len : new int[] {1, 8, 24, 64, 300, 1500, 4000}) {
                assertEquals(fresh.placement(len), map.placement(len), len + " bytes, step " + step + " seed " + seed);
            }
            assertEquals(fresh.firstFreeSlot(), map.firstFreeSlot(), "step " + step + " seed " + seed);
        }
        assertTrue(placed > 1000 && relearned > 1000, "placed " + placed + ", relearned " + relearned);
    }

    /**
     * The slot index of a page ({@code indexSlots}) finds the slot of every live object as {@code slotAt} does, on a
     * page whose slots were reused out of order; after further frees and allocations it is stale and {@code
     * indexedSlot} either finds the right slot or misses (-1), never another slot, for live offsets, freed ones and
     * offsets where no object starts.
     */
    @Test
    void aSlotIndexFindsOrMissesButNeverMisleads(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        int ps = 8192;
        MemorySegment p = MemorySegment.ofArray(new byte[ps]);
        SlottedPage.format(p, 7);
        List<Integer> live = new ArrayList<>();
        char[] index = new char[ps / 8];
        int found = 0;
        int missed = 0;
        for (int step = 0; step < 20000; step++) {
            if (live.isEmpty() || rnd.nextInt(5) > 1) {
                int off = SlottedPage.allocate(p, 8 + rnd.nextInt(rnd.nextInt(4) == 0 ? 300 : 40), new int[0]);
                if (off > 0) {
                    live.add(off);
                }
            } else {
                SlottedPage.free(p, live.remove(rnd.nextInt(live.size())));
            }
            if (step % 50 == 0) {
                SlottedPage.indexSlots(p, index);
                for (int off : live) {
                    assertEquals(
                            SlottedPage.slotAt(p, off), SlottedPage.indexedSlot(p, index, off), "fresh, step " + step);
                }
            }
            for (int k = 0; k < 8; k++) {
                int off = k < 4 && !live.isEmpty() ? live.get(rnd.nextInt(live.size())) : rnd.nextInt(ps);
                int s = SlottedPage.indexedSlot(p, index, off);
                int truth = SlottedPage.slotAt(p, off);
                if (s >= 0) {
                    assertEquals(truth, s, "offset " + off + " step " + step + " seed " + seed);
                    found++;
                } else if (truth >= 0) {
                    missed++;
                }
            }
        }
        assertTrue(found > 10000 && missed > 100, "found " + found + ", missed " + missed);
    }

    /**
     * A page filled by appending only is densely packed: {@code denseEnd} is where the next object goes (first fit
     * agrees) until it no longer fits below the slot array; freeing an object in the middle ends it.
     */
    @Test
    void appendOnlyPageIsDenselyPackedUntilAnObjectIsFreed(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        int ps = 8192;
        MemorySegment p = MemorySegment.ofArray(new byte[ps]);
        SlottedPage.format(p, 9);
        List<Integer> offsets = new ArrayList<>();
        while (true) {
            int len = 1 + rnd.nextInt(120);
            int end = SlottedPage.denseEnd(p);
            assertTrue(end >= SlottedPage.dataStart(ps), "an append-only page is dense, seed " + seed);
            boolean fits = SlottedPage.denseFits(ps, SlottedPage.slotCount(p), end, len);
            assertEquals(fits ? end : -1, SlottedPage.placement(p, len), "seed " + seed);
            if (!fits) {
                break;
            }
            SlottedPage.allocateAt(p, end, SlottedPage.slotCount(p), len, new int[0]);
            offsets.add(end);
            assertEquals((end + len + 7) & ~7, SlottedPage.denseEnd(p), "the end moved past the object, seed " + seed);
        }
        assertTrue(offsets.size() > 50, "only " + offsets.size() + " objects fitted");
        SlottedPage.free(p, offsets.get(offsets.size() / 2));
        assertEquals(-1, SlottedPage.denseEnd(p), "a freed object leaves a free slot and a gap");
        VerifyReport r = new VerifyReport();
        SlottedPage.check(p, 9, r);
        assertTrue(r.ok(), r.toString());
    }

    /**
     * {@code slotAt} (binary search, linear fallback) agrees with a linear scan of the slot array for every live
     * object and finds nothing at offsets where no object starts, on pages in offset order with free slots and on
     * pages whose freed slots were reused out of order (where only the fallback can find some objects).
     */
    @Test
    void slotAtFindsEveryLiveObjectOnOrderedAndReusedPages(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        int ps = 8192;
        int orderedWithFree = 0;
        int unordered = 0;
        for (int round = 0; round < 200; round++) {
            MemorySegment p = MemorySegment.ofArray(new byte[ps]);
            SlottedPage.format(p, 3);
            List<Integer> live = new ArrayList<>();
            int steps = 1 + rnd.nextInt(400);
            boolean appendThenFree = round % 3 == 0; // frees after all appends: in offset order, with free slots
            for (int step = 0; step < steps; step++) {
                boolean allocate = appendThenFree ? step < steps * 3 / 4 : rnd.nextInt(round % 2 == 0 ? 4 : 2) > 0;
                if (live.isEmpty() || allocate) {
                    int off = SlottedPage.allocate(p, 1 + rnd.nextInt(rnd.nextBoolean() ? 24 : 200), new int[0]);
                    if (off > 0) {
                        live.add(off);
                    }
                } else {
                    SlottedPage.free(p, live.remove(rnd.nextInt(live.size())));
                }
            }
            boolean ordered = slotsInOffsetOrder(p);
            orderedWithFree += ordered && hasFreeSlot(p) ? 1 : 0;
            unordered += ordered ? 0 : 1;
            for (int off : live) {
                int expected = linearSlot(p, off);
                assertTrue(expected >= 0, "the test lost object " + off + ", seed " + seed);
                assertEquals(expected, SlottedPage.slotAt(p, off), "offset " + off + ", seed " + seed);
                assertEquals(linearSlot(p, off + 8), SlottedPage.slotAt(p, off + 8), "after " + off + ", seed " + seed);
                assertEquals(-1, SlottedPage.slotAt(p, off + 4), "inside object " + off + ", seed " + seed);
            }
            assertEquals(-1, SlottedPage.slotAt(p, 0), "offset 0 marks a free slot, seed " + seed);
        }
        assertTrue(orderedWithFree > 20, "ordered pages with free slots: " + orderedWithFree);
        assertTrue(unordered > 10, "pages with reused slots out of order: " + unordered);
    }

    /**
     * On a page in offset order the binary search alone finds every live object, however the free slots lie (single
     * holes, long runs, a free first slot), so deleting a whole page does not fall back to the linear scan.
     */
    @Test
    void orderedSearchStepsOverFreeSlots(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        int ps = 8192;
        for (int round = 0; round < 50; round++) {
            MemorySegment p = MemorySegment.ofArray(new byte[ps]);
            SlottedPage.format(p, 4);
            List<Integer> offsets = new ArrayList<>();
            for (int off; (off = SlottedPage.allocate(p, 8 + rnd.nextInt(40), new int[0])) > 0; ) {
                offsets.add(off);
            }
            List<Integer> live = new ArrayList<>(offsets);
            int runStart = rnd.nextInt(offsets.size() / 2);
            for (int i = 0; i < offsets.size() - 1; i++) { // the last slot stays, so no slot is trimmed
                boolean inRun = i >= runStart && i < runStart + 1 + rnd.nextInt(30);
                if (inRun || i == 0 || rnd.nextInt(3) == 0) {
                    SlottedPage.free(p, offsets.get(i));
                    live.remove(offsets.get(i));
                }
            }
            assertTrue(slotsInOffsetOrder(p) && hasFreeSlot(p), "seed " + seed);
            for (int off : live) {
                assertEquals(
                        offsets.indexOf(off),
                        SlottedPage.searchOrdered(p, off, SlottedPage.slotCount(p)),
                        "offset " + off + ", seed " + seed);
            }
        }
    }

    /**
     * The search's guess over a run of free slots (that the object lies above it) is right for a page emptied in
     * creation order and wrong for objects under a run; both kinds are found, and offsets where no object starts
     * are not.
     */
    @Test
    void orderedSearchFindsObjectsAboveAndBelowRunsOfFreeSlots() {
        int ps = 8192;
        MemorySegment p = MemorySegment.ofArray(new byte[ps]);
        SlottedPage.format(p, 5);
        List<Integer> offsets = new ArrayList<>();
        for (int off; (off = SlottedPage.allocate(p, 16, new int[0])) > 0; ) {
            offsets.add(off);
        }
        int n = offsets.size();
        assertTrue(n > 300, "only " + n + " objects fitted");
        // live: slots 0..9 (under the run) and 2n/3.. (above it); free: 10..2n/3-1
        for (int i = 10; i < 2 * n / 3; i++) {
            SlottedPage.free(p, offsets.get(i));
        }
        for (int i = 0; i < n; i++) {
            int expected = i < 10 || i >= 2 * n / 3 ? i : -1;
            assertEquals(expected, SlottedPage.searchOrdered(p, offsets.get(i), n), "slot " + i);
            assertEquals(-1, SlottedPage.searchOrdered(p, offsets.get(i) + 8, n), "inside slot " + i);
        }
        // emptied front to back, as a bulk delete in creation order does: every remaining object found each time
        for (int i = 0; i < 10; i++) {
            SlottedPage.free(p, offsets.get(i));
        }
        for (int i = 2 * n / 3; i < n - 1; i++) {
            assertEquals(i, SlottedPage.slotAt(p, offsets.get(i)), "slot " + i);
            SlottedPage.free(p, offsets.get(i));
            assertEquals(-1, SlottedPage.slotAt(p, offsets.get(i)), "freed slot " + i);
            assertEquals(i + 1, SlottedPage.searchOrdered(p, offsets.get(i + 1), SlottedPage.slotCount(p)));
        }
    }

    private static int linearSlot(MemorySegment p, int offset) {
        for (int i = 0; i < SlottedPage.slotCount(p); i++) {
            if (SlottedPage.slotOffset(p, i) == offset) {
                return i;
            }
        }
        return -1;
    }

    private static boolean hasFreeSlot(MemorySegment p) {
        for (int i = 0; i < SlottedPage.slotCount(p); i++) {
            if (SlottedPage.slotOffset(p, i) == 0) {
                return true;
            }
        }
        return false;
    }

    private static boolean slotsInOffsetOrder(MemorySegment p) {
        int last = 0;
        for (int i = 0; i < SlottedPage.slotCount(p); i++) {
            int off = SlottedPage.slotOffset(p, i);
            if (off != 0 && off < last) {
                return false;
            }
            last = off == 0 ? last : off;
        }
        return true;
    }

    private static int firstFit(
            java.util.TreeMap<Integer, Integer> live, int slots, boolean freeSlot, int len, int ps) {
        int need = (len + 7) & ~7;
        int limit = ps - 4 * (freeSlot ? slots : slots + 1);
        if (!freeSlot && !live.isEmpty() && live.lastKey() + live.lastEntry().getValue() > limit) {
            return -1;
        }
        int cursor = SlottedPage.dataStart(ps);
        for (var e : live.entrySet()) {
            if (e.getKey() - cursor >= need) {
                return cursor;
            }
            cursor = Math.max(cursor, (e.getKey() + e.getValue() + 7) & ~7);
        }
        return limit - cursor >= need ? cursor : -1;
    }

    /**
     * {@link SlottedPage#slotNext} finds an object's slot among the four after the last freed slot and the one before
     * it, exactly as {@link SlottedPage#slotAt} does, and answers -1 for every other slot, a free slot's offset (0), a
     * freed object's offset and a start before the first slot.
     */
    @Test
    void slotNextFindsTheSlotsNearTheLastFreed(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        MemorySegment p = MemorySegment.ofArray(new byte[8192]);
        SlottedPage.format(p, 5);
        int[] offsets = new int[60];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = SlottedPage.allocate(p, 8 + rnd.nextInt(40), new int[0]);
        }
        int freedSlot = SlottedPage.slotAt(p, offsets[20]);
        SlottedPage.free(p, offsets[20]);
        for (int i = 0; i < offsets.length; i++) {
            int slot = SlottedPage.slotAt(p, offsets[i]);
            for (int last = -1; last < offsets.length; last++) {
                int near = SlottedPage.slotNext(p, offsets[i], last);
                boolean inWindow = slot >= 0 && (slot > last && slot <= last + 4 || slot == last - 1) && last >= 0;
                assertEquals(inWindow ? slot : -1, near, "object " + i + " (slot " + slot + ") after slot " + last);
            }
        }
        assertEquals(-1, SlottedPage.slotNext(p, 0, freedSlot - 1), "the freed slot's offset is 0, no object's");
        assertEquals(-1, SlottedPage.slotNext(p, offsets[20], freedSlot - 1), "a freed object");
        assertEquals(SlottedPage.slotAt(p, offsets[21]), SlottedPage.slotNext(p, offsets[21], freedSlot));
    }
}
