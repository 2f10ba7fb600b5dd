package dev.quickstore.core.buffer;

/**
 * Stamps under which a caller may keep what it got from the {@link BufferPool} instead of asking again: the segment
 * of a page it fixed for write ({@link #writeStamp}), a B+tree's root and height ({@link #rootStamp}) and the answers
 * of a tree's point lookups ({@link #entryStamp}). Each stamp is a count that only grows; a kept value is valid while
 * the count still equals the stamp taken with it. All are -1, never valid, while a {@link BufferPool.FixObserver} is
 * set: it must see every fix (a page server's client builds its read set from them). Beside the stamps, a count of
 * the index scans running ({@link #scansOpen}): a scan keeps a leaf across its visitor's calls. Used under the store's
 * latch, like the pool.
 */
public final class PoolStamps {
    /**
     * Counts the pool's evictions, steals, whole-pool evictions, fix-observer changes and transaction ends ({@link
     * #writeStamp}). Invariant: a page a transaction's {@link BufferPool#fixForWrite} or {@link
     * BufferPool#fixForStoreWrite} made dirty stays resident, dirty and at the same memory until this count changes
     * ({@link PageFrames}: a dirty page is not evicted, mid-transaction only a steal ends a dirty state, the data
     * plane's clock evicts clean frames only, and the transaction's end - commit's clean point, abort's restore - is
     * counted).
     */
    private long residencyChanges;

    /** Roots moved and transactions ended since open ({@link #rootStamp}); starts at 1, so 0 is never a stamp. */
    private long rootMoves = 1;

    /** Changes of index entries since open ({@link #entryStamp}); starts at 1, so 0 is never a stamp. */
    private long entryChanges = 1;

    /** B+tree nodes freed since open ({@link #nodeStamp}); starts at 1, so 0 is never a stamp. */
    private long nodesFreed = 1;

    private boolean observed;

    /** Index scans running now, nested ones counted too ({@link #scansOpen}). */
    private int openScans;

    PoolStamps() {}

    /**
     * A stamp for a caller that keeps the segment {@link BufferPool#fixForWrite} returned and writes through it again
     * later in the same transaction without fixing the page again (the object allocator's page being filled: a fix
     * per object was a third of a creation, docs/results.md, "Object creation: the hot page without a fix per
     * object"; a B+tree's meta page, whose entry count each insert and delete updates). Valid while {@link
     * #stillFixedForWrite} accepts it, which it does not after the transaction ended. The page is not pinned
     * meanwhile: a steal may take it, which the stamp then refuses.
     */
    public long writeStamp() {
        return observed ? -1 : residencyChanges;
    }

    /** Whether a segment fixed for write when {@code stamp} was taken (this transaction) is still that page's. */
    public boolean stillFixedForWrite(long stamp) {
        return stamp == residencyChanges; // never for -1: the count starts at 0 and only grows
    }

    /**
     * An index scan starts. A scan keeps the leaf it reads across its visitor's calls, and a visitor may change the
     * tree (delete the entry it was handed): until {@link #scanClosed}, a B+tree leaves a leaf that a delete empties
     * in place instead of freeing it ({@code NodeRemovals}), so the scan's next step never reads a freed page.
     */
    public void scanOpened() {
        openScans++;
    }

    /** An index scan {@link #scanOpened} before ended (normally or by an exception). */
    public void scanClosed() {
        assert openScans > 0 : "a scan closed that was not opened";
        openScans--;
    }

    /** Whether an index scan is running (on this store; scans run under its latch). */
    public boolean scansOpen() {
        return openScans > 0;
    }

    /**
     * A stamp under which a B+tree may keep its root and height instead of reading its meta page per descent: the
     * count grows when a root moves ({@link #rootMoved}: a split of the root) and when a transaction ends (an abort's
     * undo restores meta pages; a page server applies its clients' commits as transactions of its store).
     */
    public long rootStamp() {
        return observed ? -1 : rootMoves;
    }

    /** A B+tree's root moved: every kept root is stale ({@link #rootStamp}). */
    public void rootMoved() {
        rootMoves++;
    }

    /**
     * A stamp under which a B+tree may keep the answers of its point lookups instead of descending again: the count
     * grows before any tree's entries change ({@link #entriesChanged}: an insert or delete, any tree, any handle on
     * it), when a transaction is rolled back (its undo restores tree pages without the tree code), when a page server
     * applies a client's commit (the client's page images replace the server's) and when a transaction ends whose
     * changes were committed elsewhere. A commit of this store's own transaction leaves it: the entries it changed
     * were counted as they changed. Positive, or -1.
     */
    public long entryStamp() {
        return observed ? -1 : entryChanges;
    }

    /** Index entries are about to change, or changed without the tree code: every kept answer is stale. */
    public void entriesChanged() {
        entryChanges++;
    }

    /**
     * A stamp under which a B+tree may keep a page it knows as one of its nodes (the rightmost leaf its inserts
     * append to, the leaf its last delete took an entry from): the count grows when any tree frees a node, whose page
     * may then become another tree's or an object's. Used together with {@link #writeStamp}, which ends with the
     * transaction. Positive, or -1.
     */
    public long nodeStamp() {
        return observed ? -1 : nodesFreed;
    }

    /** A B+tree freed a node: pages kept as tree nodes may be something else now ({@link #nodeStamp}). */
    public void nodeFreed() {
        nodesFreed++;
    }

    /** The pool evicted, stole or evicted everything: kept segments are stale ({@link #writeStamp}). */
    void residencyChanged() {
        residencyChanges++;
    }

    /**
     * The running transaction ended: an abort may have undone a root split ({@link #rootStamp}), and the pages it
     * made dirty are clean or restored ({@link #writeStamp}).
     */
    void transactionEnded() {
        rootMoves++;
        residencyChanges++;
    }

    /** A fix observer was set or removed: a stamp taken before must not skip the fixes it is now told of. */
    void observed(boolean on) {
        observed = on;
        residencyChanges++;
        nodesFreed++;
        rootMoves++;
        entryChanges++;
    }
}
