package dev.quickstore.core.buffer;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** {@link KeptWriteSegments}: an entry is handed out only under the stamp it was kept under, and only for its page. */
class KeptWriteSegmentsTest {
    private final MemorySegment a = MemorySegment.ofArray(new byte[8]);
    private final MemorySegment b = MemorySegment.ofArray(new byte[8]);

    @Test
    void anEntryHoldsUnderItsStampOnly() {
        KeptWriteSegments k = new KeptWriteSegments();
        assertNull(k.find(3, false, 0), "nothing kept yet");
        k.keep(3, a, false, 7);
        assertSame(a, k.find(3, false, 7));
        assertNull(k.find(3, false, 8), "the stamp moved: evicted, stolen or the transaction ended");
        assertNull(k.find(3 + KeptWriteSegments.SLOTS, false, 7), "another page of the same slot");
        k.keep(3, a, false, 8);
        k.keep(4, b, false, 8);
        assertSame(a, k.find(3, false, 8));
        assertSame(b, k.find(4, false, 8));
        k.keep(5, b, false, 9);
        assertNull(k.find(3, false, 9), "a new stamp drops the entries kept under the old one");
    }

    @Test
    void aWriteThroughTheViewNeedsAnEntryWhoseViewWasOpened() {
        KeptWriteSegments k = new KeptWriteSegments();
        k.keep(3, a, false, 1); // fixForStoreWrite: the view stays read-only
        assertSame(a, k.find(3, false, 1));
        assertNull(k.find(3, true, 1), "fixForWrite must open the view");
        k.keep(3, a, true, 1);
        assertSame(a, k.find(3, true, 1));
        k.keep(3, a, false, 1); // a store-only fix after it: the view is still open
        assertSame(a, k.find(3, true, 1));
    }

    @Test
    void nothingIsKeptWithoutAStamp() {
        KeptWriteSegments k = new KeptWriteSegments();
        k.keep(3, a, true, -1); // a fix observer: every fix must reach it
        assertNull(k.find(3, false, -1));
        assertNull(k.find(3, true, -1));
    }
}
