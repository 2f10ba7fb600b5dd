package dev.quickstore.core.buffer;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The segments of pages the running transaction fixed for write, kept under the pool's {@link PoolStamps#writeStamp}
 * so that fixing such a page for write again skips the residency check and the dirty mark (a downcall that takes the
 * frame's lock): while the stamp holds, a page made dirty in this transaction is still resident, dirty and at the
 * same memory (the stamp's invariant; it ends with the transaction). A B+tree leaf, a space map, the volume header, an
 * object page: the pages one transaction updates again and again. Direct-mapped by page id, {@value #SLOTS} entries;
 * an entry remembers whether the application view was opened ({@link BufferPool#fixForWrite}) or left read-only
 * ({@link BufferPool#fixForStoreWrite}). Only write fixes use it: {@link BufferPool#fix} for reading checks residency
 * every time (abort's undo reads pages after their dirty state ended and before the transaction's end).
 */
final class KeptWriteSegments {
    static final int SLOTS = 64;

    private final long[] pages = new long[SLOTS];
    private final MemorySegment[] segments = new MemorySegment[SLOTS];
    private final boolean[] viewOpen = new boolean[SLOTS];
    /** The write stamp the entries were kept under; -1: none valid. */
    private long stamp = -1;

    private static int slot(long pageId) {
        return (int) (pageId ^ (pageId >>> 6)) & (SLOTS - 1);
    }

    /**
     * The segment kept for {@code pageId} under {@code current} (the pool's write stamp now), if the view was opened
     * when {@code needView}; else null.
     */
    MemorySegment find(long pageId, boolean needView, long current) {
        if (current != stamp || current == -1) {
            return null;
        }
        int i = slot(pageId);
        MemorySegment s = segments[i];
        if (s == null || pages[i] != pageId || (needView && !viewOpen[i])) {
            return null;
        }
        return s;
    }

    /** Keeps {@code segment}, just fixed for write and marked dirty, under {@code current}; nothing if it is -1. */
    void keep(long pageId, MemorySegment segment, boolean opened, long current) {
        if (current == -1) {
            return;
        }
        if (current != stamp) {
            Arrays.fill(segments, null);
            stamp = current;
        }
        int i = slot(pageId);
        boolean open = opened || (segments[i] != null && pages[i] == pageId && viewOpen[i]);
        pages[i] = pageId;
        segments[i] = segment;
        viewOpen[i] = open;
    }
}
