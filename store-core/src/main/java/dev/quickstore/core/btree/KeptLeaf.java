package dev.quickstore.core.btree;

import dev.quickstore.core.buffer.PoolStamps;
import java.lang.foreign.MemorySegment;

/**
 * A leaf a tree keeps between two of its operations instead of descending to it again ({@link NumericKeys}: the
 * rightmost leaf its inserts append to, the leaf its last delete took an entry from), or its meta page, whose entry
 * count each insert and delete updates ({@link BPlusTree#addSize}): the page, the segment {@code
 * pool.fixForStoreWrite} returned for it, and the pool's write and node stamps taken then. Valid while both stamps
 * hold: the write stamp ends with the transaction or when the page is stolen or evicted (a segment of it is then no
 * longer the page's, or no longer dirty in this transaction), the node stamp when any tree frees a node (a freed
 * leaf may become another tree's or an object's page). What the page holds now (its entries, its next leaf) the
 * caller reads from the segment. Used under the store's latch.
 */
final class KeptLeaf {
    private final PoolStamps stamps;
    private long page = -1;
    private MemorySegment segment;
    private long writeStamp = -1;
    private long nodeStamp = -1;

    KeptLeaf(PoolStamps stamps) {
        this.stamps = stamps;
    }

    /** Keeps leaf {@code page}, whose segment {@code fixForStoreWrite} just returned. */
    void keep(long page, MemorySegment segment) {
        this.page = page;
        this.segment = segment;
        this.writeStamp = stamps.writeStamp();
        this.nodeStamp = stamps.nodeStamp();
    }

    /** The kept leaf's segment, or null if none is kept or it is no longer valid (then it is dropped). */
    MemorySegment segment() {
        if (page < 0) {
            return null;
        }
        if (!stamps.stillFixedForWrite(writeStamp) || stamps.nodeStamp() != nodeStamp) {
            page = -1;
            segment = null;
            return null;
        }
        return segment;
    }

    /** The kept leaf's page number (-1: none); for assertions. */
    long page() {
        return page;
    }
}
