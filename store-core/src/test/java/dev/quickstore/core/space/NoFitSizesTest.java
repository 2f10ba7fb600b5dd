package dev.quickstore.core.space;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link NoFitSizes} against a plain map of page to smallest refused size. */
class NoFitSizesTest {
    static final int NONE = NoFitSizes.NONE;

    @Test
    void keepsTheSmallestRefusalPerPageAndHandsOutAnExtentsSizesAsOneArray() {
        NoFitSizes sizes = new NoFitSizes(16);
        assertEquals(NONE, sizes.refused(37));
        assertNull(sizes.ofExtent(32), "nothing refused in the extent yet");
        sizes.refuse(37, 64);
        sizes.refuse(37, 120);
        sizes.refuse(33, 0); // a page that holds nothing until allocated
        assertEquals(64, sizes.refused(37), "the smallest refused size is kept");
        assertEquals(0, sizes.refused(33));
        int[] extent = sizes.ofExtent(32);
        assertEquals(16, extent.length);
        assertEquals(0, extent[1]);
        assertEquals(64, extent[5]);
        assertEquals(NONE, extent[0]);
        sizes.refuse(47, 8);
        assertSame(extent, sizes.ofExtent(32), "a live view: the pass over the extent sees refusals made during it");
        assertEquals(8, extent[15]);
        sizes.forget(37);
        assertEquals(NONE, sizes.refused(37), "a delete on the page forgets its refusal");
        assertEquals(NONE, sizes.refused(48), "the next extent is separate");
        sizes.clear();
        assertNull(sizes.ofExtent(32));
        assertThrows(IllegalArgumentException.class, () -> new NoFitSizes(0));
    }

    @Test
    void agreesWithAMapOfPagesUnderRandomRefusalsAndForgetsAndDropsEverythingAtItsBound() {
        Random rnd = new Random(7);
        NoFitSizes sizes = new NoFitSizes(16);
        Map<Long, Integer> model = new HashMap<>();
        for (int i = 0; i < 200_000; i++) {
            long page = rnd.nextInt(40_000);
            if (rnd.nextInt(4) == 0) {
                sizes.forget(page);
                model.remove(page);
            } else {
                int need = 8 * rnd.nextInt(100);
                sizes.refuse(page, need);
                model.merge(page, need, Math::min);
            }
            long probe = rnd.nextInt(40_000);
            assertEquals(model.getOrDefault(probe, NONE), sizes.refused(probe), "page " + probe + " after step " + i);
        }
        int[] all = new int[16];
        java.util.Arrays.fill(all, NONE);
        NoFitSizes bounded = new NoFitSizes(16);
        for (long e = 0; e < NoFitSizes.MAX_EXTENTS; e++) {
            bounded.refuse(e * 16, 8);
        }
        assertEquals(8, bounded.refused(0));
        bounded.refuse(NoFitSizes.MAX_EXTENTS * 16L, 8); // one extent more: every kept extent is dropped first
        assertEquals(NONE, bounded.refused(0));
        assertEquals(8, bounded.refused(NoFitSizes.MAX_EXTENTS * 16L));
        bounded.forget(NoFitSizes.MAX_EXTENTS * 16L);
        assertArrayEquals(all, bounded.ofExtent(NoFitSizes.MAX_EXTENTS * 16L), "forgotten: an array of NONE remains");
    }
}
