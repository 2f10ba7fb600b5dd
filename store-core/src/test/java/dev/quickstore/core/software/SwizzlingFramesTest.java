package dev.quickstore.core.software;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.quickstore.core.page.SlottedPage;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SwizzlingFrames} and {@link Swizzler} without a store: three pages of one object each (A on page 1,
 * B on page 2, C on page 3; A.next = B, B.next = C, C.next = A, all OIDs) in a region of two frames, with the
 * eviction victim chosen by the test, so each case evicts exactly the page it means to.
 */
class SwizzlingFramesTest {
    static final int PS = 8192;
    static final int TAG = 0x1234_5601;
    static final int NEXT = 8;

    final Map<Long, MemorySegment> volume = new HashMap<>();
    final long[] oid = new long[4];
    final int[] offset = new int[4];
    SwizzlingFrames frames;
    Swizzler sw;
    MemorySegment region;
    long victim;

    @BeforeEach
    void pages() {
        for (long p = 1; p <= 3; p++) {
            MemorySegment page = MemorySegment.ofArray(new byte[PS]);
            SlottedPage.format(page, p);
            int off = SlottedPage.allocate(page, 32, new int[] {NEXT});
            page.set(JAVA_INT_UNALIGNED, off, TAG);
            page.set(JAVA_INT_UNALIGNED, off + 4, (int) p * 100); // the value: 100, 200, 300
            offset[(int) p] = off;
            oid[(int) p] = Oid.of(p, SlottedPage.slotAt(page, off), TAG);
            volume.put(p, page);
        }
        for (long p = 1; p <= 3; p++) {
            volume.get(p).set(JAVA_LONG_UNALIGNED, offset[(int) p] + NEXT, oid[(int) (p % 3 + 1)]);
        }
        frames = new SwizzlingFrames(PS, 2);
        region = frames.region();
        sw = new Swizzler(frames, new Swizzler.PageAccess() {
            @Override
            public long read(long pageId) {
                if (frames.residentCount() == frames.capacity()) {
                    frames.evict(victim);
                }
                frames.install(pageId, volume.get(pageId));
                return frames.frameOffset(pageId);
            }

            @Override
            public void writing(long pageId) {
                frames.markDirty(pageId);
            }
        });
    }

    @AfterEach
    void close() {
        frames.close();
    }

    int value(long at) {
        return region.get(JAVA_INT_UNALIGNED, at + 4);
    }

    long word(long at) {
        return region.get(JAVA_LONG_UNALIGNED, at);
    }

    @Test
    void evictingATargetUnswizzlesItsReferrersAndAReadSwizzlesThemAgain() {
        long a = sw.resolve(-1, oid[1]);
        long b = sw.deref(a + NEXT);
        assertEquals(200, value(b));
        assertEquals(b, word(a + NEXT), "A.next swizzled in place");
        long bFrame = frames.frameOffset(2);

        victim = 2; // reading C (page 3) evicts B's page, not A's
        long c = sw.deref(b + NEXT);
        assertEquals(300, value(c));
        assertEquals(bFrame, frames.frameOffset(3), "C's page reuses B's frame");
        assertEquals(oid[2], word(a + NEXT), "A.next unswizzled when B's page left");
        assertEquals(SwizzlingFrames.NOT_RESIDENT, frames.lookup(oid[2]), "B left the OID table");
        assertEquals(1, frames.unswizzledAtEviction());

        victim = 3;
        long reads = sw.pageReads();
        long b2 = sw.deref(a + NEXT);
        assertEquals(200, value(b2), "A.next leads to B again, not into the reused frame");
        assertEquals(reads + 1, sw.pageReads(), "B's page read again");
        assertEquals(b2, word(a + NEXT), "and swizzled again");
    }

    @Test
    void preImagesAndStableImagesHoldOidsWhileTheFrameKeepsTheSwizzledPointer() {
        long a = sw.resolve(-1, oid[1]);
        long b = sw.deref(a + NEXT);
        int off = offset[1];
        sw.markWrite(a + 4); // the first write to page 1: pre-image in disk form
        region.set(JAVA_INT_UNALIGNED, a + 4, 111);
        assertEquals(oid[2], frames.preImage(1).get(JAVA_LONG_UNALIGNED, off + NEXT));
        assertEquals(100, frames.preImage(1).get(JAVA_INT_UNALIGNED, off + 4));
        MemorySegment stable = frames.stableImage(1, null);
        assertEquals(oid[2], stable.get(JAVA_LONG_UNALIGNED, off + NEXT));
        assertEquals(111, stable.get(JAVA_INT_UNALIGNED, off + 4));
        assertEquals(b, word(a + NEXT), "the frame keeps its swizzled pointer");
        assertEquals(1, frames.dirtyPages().length);
        frames.clearDirty(1);
        assertEquals(0, frames.dirtyPages().length);
    }

    @Test
    void aReferrerOverwrittenSinceItWasSwizzledIsLeftAlone() {
        long a = sw.resolve(-1, oid[1]);
        sw.deref(a + NEXT);
        region.set(JAVA_LONG_UNALIGNED, a + NEXT, 0L); // the application stored null meanwhile
        victim = 2;
        sw.resolve(-1, oid[3]);
        assertEquals(0L, word(a + NEXT));
        assertEquals(0, frames.unswizzledAtEviction());
    }

    @Test
    void aResolutionWithoutAFieldSwizzlesNothing() {
        long a = sw.resolve(-1, oid[1]);
        assertEquals(100, value(a));
        assertEquals(0, sw.swizzles());
        assertEquals(oid[2], word(a + NEXT));
        assertNotEquals(SwizzlingFrames.NOT_RESIDENT, frames.lookup(oid[1]));
        assertEquals(a, sw.resolve(-1, oid[1]), "the second resolution is a table hit");
        assertEquals(1, sw.pageReads());
    }
}
