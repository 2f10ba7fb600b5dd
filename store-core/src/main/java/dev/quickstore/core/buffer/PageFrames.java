package dev.quickstore.core.buffer;

import dev.quickstore.mmu.DetachedPreimages;
import java.lang.foreign.MemorySegment;

/**
 * The seam between the storage manager (Java: policy, logging, recovery) and the memory that holds
 * resident pages (the data plane). Two implementations:
 * <ul>
 *   <li>{@link MappedFrames} (default, {@code FramesMode.MAPPED}): store-native's mapped arena. The
 *       always-writable <em>alias view</em> plays the role of {@link #resident}; the write fault on the
 *       <em>application view</em> captures the pre-image itself, and {@link #markDirty} captures it for
 *       the store's own writes through the alias (which do not fault); {@link #clearDirty} re-protects
 *       the frame read-only; {@link #evict} sets PROT_NONE and punches a hole.</li>
 *   <li>{@link OffHeapFrames} ({@code FramesMode.EXPLICIT}): plain off-heap frames; the "first write"
 *       to a page is announced by an explicit {@link #markDirty} call made by the store.</li>
 * </ul>
 *
 * <p>Contract (all calls are made with the store latch held; none is made from a fault handler):
 * <ul>
 *   <li>Segments returned by {@link #resident}/{@link #install} are {@code pageSize} bytes, always
 *       writable, valid until {@link #evict} of that page.</li>
 *   <li>{@link #markDirty} is idempotent within a transaction: the first call copies the page into its
 *       pre-image; later calls do nothing. A page is "dirty" (for the transaction) from then until
 *       {@link #clearDirty}.</li>
 *   <li>{@link #evict} is only called on a page that is not dirty.</li>
 *   <li>The capacity is a soft budget: {@link #install} may be called only when
 *       {@code residentCount() < capacity()} (the caller evicts first).</li>
 * </ul>
 */
public interface PageFrames extends AutoCloseable {
    int pageSize();

    int capacity();

    int residentCount();

    /** The (always writable) memory of a resident page, or {@code null}. */
    MemorySegment resident(long pageId);

    /** Makes {@code pageId} resident with the contents of {@code image}; returns its memory. */
    MemorySegment install(long pageId, MemorySegment image);

    /** Drops a clean resident page. */
    void evict(long pageId);

    /** First write to the page in the current transaction: capture its pre-image (idempotent). */
    void markDirty(long pageId);

    /**
     * {@link #markDirty} for a page only the store writes, through its own slice (B+tree nodes): the application
     * never stores to it through the view, so a mapped implementation may leave the view write-protected.
     */
    default void markDirtyStoreOnly(long pageId) {
        markDirty(pageId);
    }

    /**
     * {@link #markDirty} for a page the store has just allocated, when the {@code following} pages after it are free
     * too and likely allocated next in the same transaction: a mapped implementation under page protection may make
     * the clean resident ones among them writable with it, in one call (write-ahead for new pages).
     */
    default void markDirtyAhead(long pageId, int following) {
        markDirty(pageId);
    }

    /**
     * Pages {@code [pageId, pageId + count)}, the first just allocated by the running transaction and the others
     * free after it, made new in one call where the implementation can: each page it takes (a prefix, at least the
     * first) holds zeros, is dirty against a page of zeros as its pre-image - no pre-image copied - and writable, the
     * ones not resident installed as they go (after the first, at most {@code installs} of them). Returns the pages
     * taken, 0 if the first was dirty already (left as it is), or -1 where this is not done (then the caller
     * installs and marks dirty itself).
     */
    default long makeNew(long pageId, int count, int installs) {
        return -1;
    }

    /** The most pages {@link #markDirtyAhead} may take after a new page: 0 where it takes none. */
    default int writeAheadFrames() {
        return 0;
    }

    boolean isDirty(long pageId);

    /** The pre-image of a dirty page (its contents when {@link #markDirty} first ran). */
    MemorySegment preImage(long pageId);

    /**
     * Card marking: bit k set = card k of the dirty page was marked by the write barrier, so only those
     * cards can differ from the pre-image; {@code -1} (all bits, the default) = diff the whole page (page
     * protection, or the store dirtied the page itself). Cards are {@link #cardBytes()} long.
     */
    default long dirtyCards(long pageId) {
        return -1L;
    }

    /** Card size of {@link #dirtyCards} (the page size when there are no cards). */
    default int cardBytes() {
        return pageSize();
    }

    /** Ends the page's dirty state (after commit logged it or abort restored it); drops the pre-image. */
    void clearDirty(long pageId);

    /**
     * {@link #clearDirty} for {@code pages[from..from+count)} (ascending; dirty pages whose pre-images the
     * caller has copied): the mapped frames write-protect them with one {@code mprotect} per run of nearby
     * frames.
     */
    default void clearDirty(long[] pages, int from, int count) {
        for (int k = from; k < from + count; k++) {
            clearDirty(pages[k]);
        }
    }

    /**
     * How many pages one {@link #clearDirtyDetaching} may clean; 0 when this implementation cannot hand pre-images
     * over (the caller copies each pre-image, converted {@link #toDisk}, before {@link #clearDirty}).
     */
    default int detachLimit() {
        return 0;
    }

    /**
     * Whether commit writes each logged page's image (as logged, with its new LSN) into its handed-over pre-image and
     * keeps it as the frame's twin ({@code DetachedPreimages.keepAsTwin}: kernel write tracking) instead of
     * releasing it.
     */
    default boolean keepsTwins() {
        return false;
    }

    /**
     * Kernel write tracking: makes every page written since the last collect DIRTY (its twin its pre-image), so
     * that {@link #isDirty} tells the whole truth before a victim is chosen; nothing otherwise.
     */
    default void collectWritten() {}

    /**
     * {@link #clearDirty(long[], int, int)} that hands the pages' pre-images over instead of dropping them: {@code
     * preimage(k)} of the result is the pre-image of {@code pages[from + k]} (already its disk form: offered only
     * where {@link #toDisk} is the identity), valid until the caller releases the result, which it must do (also
     * when it fails). A store after the clean point starts a new dirty period with a new pre-image and never
     * touches a handed-over one. Only when {@code 0 < count <= }{@link #detachLimit()}.
     */
    default DetachedPreimages clearDirtyDetaching(long[] pages, int from, int count) {
        throw new UnsupportedOperationException(
                "pre-images are not handed over by " + getClass().getSimpleName());
    }

    /** The dirty pages, in ascending page id order. */
    long[] dirtyPages();

    /**
     * A consistent image of a resident page for write-back or logging, taken after the page was made
     * clean ({@link #clearDirty}) or was never dirtied by the store: the frame itself when nothing else
     * can write it ({@link OffHeapFrames}), otherwise a copy into {@code buffer} (a new heap page if
     * null) that excludes any store made after the clean point ({@link MappedFrames}).
     */
    MemorySegment stableImage(long pageId, MemorySegment buffer);

    /**
     * The page's bytes in place, without a copy, when they are already its disk form and a store after the
     * clean point is detectable ({@link #cleanSinceCleared}); null otherwise (the caller takes {@link
     * #stableImage}). Commit diffs and encodes from it, then asks {@link #cleanSinceCleared}: only if that is
     * true were the bytes read the stable image.
     */
    default MemorySegment liveImage(long pageId) {
        return null;
    }

    /**
     * After {@link #clearDirty}: whether no store has reached the page since (it is still clean), so that bytes
     * read from {@link #liveImage} before this call are exactly the image at the clean point. A store on a clean
     * frame first takes a write fault (or the card barrier) that moves it out of CLEAN before its bytes change.
     */
    default boolean cleanSinceCleared(long pageId) {
        return false;
    }

    /** Every resident page. */
    long[] residentPages();

    /** Pages made resident by the data plane on its own since the last call (none for OffHeapFrames). */
    default long[] adoptNativeLoads() {
        return new long[0];
    }

    /**
     * Whether the page's frame is accessible through the application view, i.e. was referenced since it
     * was last reprotected (true when there is no view: {@link OffHeapFrames}).
     */
    default boolean accessEnabled(long pageId) {
        return true;
    }

    /**
     * Disables access to the frames of {@code pages} (ascending page ids): one reprotection per run of
     * consecutive frames; the next access takes a reference fault. Returns the number of runs.
     */
    default int reprotect(long[] pages) {
        return 0;
    }

    /**
     * Translates a runtime-form copy of a page (pointers as mapped now) to its disk form (pointers as
     * stored), in place; the identity unless pages are relocated (QS-CR unswizzling). {@link #stableImage}
     * already returns the disk form; pre-images are runtime form (abort restores them as they are).
     */
    default MemorySegment toDisk(MemorySegment copy) {
        return copy;
    }

    /**
     * The contents of resident page {@code pageId} are about to be replaced by older bytes (abort restores a
     * pre-image, undo applies a CLR): forget whatever was derived from the current contents. Nothing for raw
     * frames; software persistence drops the page's objects from its OID table (docs/software-mode.md).
     */
    default void restoring(long pageId) {}

    /** The inverse of {@link #toDisk} (swizzling), in place. */
    default MemorySegment toRuntime(MemorySegment copy) {
        return copy;
    }

    /** Disables access to every frame in one call (QuickStore's simplified clock). */
    default void reprotectAll() {}

    @Override
    void close();

    /**
     * Called before the buffer pool evicts a resident page (after choosing it): QS-OR makes a page it
     * translated join the running transaction here, so that it is written with its new addresses.
     */
    default void beforeEvict(long pageId) {}
}
