package dev.quickstore.core.space;

import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.page.UnitMap;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Small-object placement on {@link SlottedPage}s with Cricket's near-hint ({@code DBmalloc(size,
 * nearHint)}, Shekita and Zwilling 1990, section 5.1.4): try the hint's page, then the other slotted
 * pages of the hint's extent, then (the extent being full) the page that took the extent's overflow last,
 * then a new page in (or as near as possible to) that extent or that overflow page. Without a hint,
 * objects fill the page of the previous allocation, then a fresh page. Objects never move.
 */
public final class ObjectAllocator {
    private final BufferPool pool;
    private final ExtentAllocator extents;
    private final Addresses addresses;
    private final int pageSize;
    private final int extentPages;
    private long currentPage;
    /**
     * Extent (first page) to the page outside it that took its overflow last. A hint only: the page is
     * checked like any other before use (it may have been freed or reused). Bounded, least recently used.
     */
    private final java.util.Map<Long, Long> overflow = new java.util.LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Long, Long> e) {
            return size() > 4096;
        }
    };

    /** {@link ExtentAllocator#freePagesAfter}, bound once (a method reference made per new page would allocate). */
    private final BufferPool.FreePagesAfter freePagesAfter;

    public ObjectAllocator(BufferPool pool, ExtentAllocator extents, Addresses addresses, int extentPages) {
        this.pool = pool;
        this.extents = extents;
        this.freePagesAfter = extents::freePagesAfter;
        this.addresses = addresses;
        this.pageSize = pool.pageSize();
        this.extentPages = extentPages;
        this.noFit = new NoFitSizes(extentPages);
    }

    /**
     * The smallest object size found not to fit on each page, kept per extent ({@link NoFitSizes}): a larger or equal
     * request is refused without reading the page. Without it every object placed near a full extent re-read the
     * extent's pages (OO7's builds: most of their time; docs/results.md, issue #20).
     */
    private final NoFitSizes noFit;

    /**
     * Page to the end of its objects while it is {@linkplain SlottedPage#denseEnd densely packed} (filled by
     * appending only): the next object goes there or, if it does not fit, nowhere on the page, so placing it
     * takes no pass over the slot array (a page of 16-byte objects has 400 slots). Learned by one pass when a page
     * is first tried, advanced by each append, turned by a delete into the page's {@link #unitMaps} entry ({@link
     * UnitMap#ofDense}, no pass); checked against the page's slot count and live count on every use. Only this
     * allocator changes slotted pages, within a transaction and between committed ones ({@link #committed}); an
     * abort and a page server's invalidations drop it ({@link #reset}).
     */
    private final PageTable<int[]> denseTails = new PageTable<>();

    /**
     * Page to its {@link UnitMap} (its live units and free slots) while it is not densely packed: learned by the pass
     * a placement on it makes anyway (kept also when that placement is refused), advanced by each allocation and
     * delete on it ({@link UnitMap#freeing}; dropped by a delete of its highest object); checked against the page's
     * counts on every use. The next placement there and its slot need no pass over the slot array. Exact like {@link
     * #denseTails}, and for the same reason: only this allocator changes slotted pages (within a transaction, and
     * between committed ones: {@link #committed}).
     */
    private final PageTable<UnitMap> unitMaps = new PageTable<>();

    /** Objects placed through a kept {@link #unitMaps} entry since the store was opened (tests, statistics). */
    private long mappedPlacements;

    /** {@link #unitMaps} entries learned by a pass over their page since the store was opened (tests, statistics). */
    private long learnedMaps;

    /**
     * Extent (first page) to the smallest object size (8-aligned) that no page of it held: every page of the extent
     * was tried for it and refused. A near-hint allocation of that size or larger skips the pass over the extent's
     * pages and goes straight to the extent's overflow page. In the OO7 small build an allocation tried 5.6 pages on
     * average, most of them a memo lookup or a fix of page 0 and the space map for a page of the extent not yet
     * allocated (docs/results.md, issue #20, third landing). Exact like {@link #noFit}: dropped for the extent when
     * an object on one of its pages is deleted or one of its pages is allocated, and with the other memos.
     */
    private final PageTable<Integer> extentNoFit = new PageTable<>();

    /**
     * The page the last object was appended to and its {@link #denseTails} entry ({@code hotPage} -1: none): the next
     * object near the previous one is appended there without the two map lookups (and the boxing of the page id) of
     * {@link #noFit} and {@link #denseTails} - a creation loop's common case (issue #20). Checked against the page
     * like any dense tail; dropped by a delete, a refusal of that page and {@link #reset}.
     */
    private long hotPage = -1;

    private int[] hotTail;

    /**
     * The {@link #hotPage}'s segment as {@code pool.fixForWrite} returned it, and the pool's {@link
     * dev.quickstore.core.buffer.PoolStamps#writeStamp} taken after that fix: while the stamp holds, the next append
     * writes through it without fixing the page again (no pin, residency check, dirty mark and their downcalls per
     * object).
     */
    private MemorySegment hotSegment;

    private long hotStamp = -1;

    /**
     * The page of the last delete ({@code -1}: none), its segment as {@code pool.fixForStoreWrite} returned it, and the
     * pool's {@link dev.quickstore.core.buffer.PoolStamps#writeStamp} taken after that fix. While the stamp holds, the
     * next delete on that page frees its slot through the kept segment, without the fixes of the volume header and
     * the space map that validate the page and the page's own two fixes (four pins and residency checks and a dirty
     * mark's downcall): an object graph is freed object by object, and its objects were placed near each other (OO7
     * SM2: a composite part's atomic parts, connections and list nodes). The page was allocated at that delete, and
     * only a delete that empties it frees it, which drops the memo; the slot is still checked on the page. Dropped
     * when the transaction ends; never valid with a fix observer (its stamp is -1).
     */
    private long deletePage = -1;

    private MemorySegment deleteSegment;

    private long deleteStamp = -1;

    /**
     * The slot the last delete freed on {@link #deletePage}: the next delete there looks at the few slots after it
     * and the one before it first ({@link SlottedPage#slotNext}), since a graph is freed in about the order it was
     * created (OO7 SM2), a short step of slots at a time; the slot search was a tenth of SM1+SM2's profile
     * (docs/results.md, "Ascending keys appended to the rightmost leaf, a delete next to the last").
     */
    private int deleteSlot = -1;

    /**
     * The slots of {@link #deletePage} by offset ({@link SlottedPage#indexSlots}), learned at the first delete there
     * that {@link SlottedPage#slotNext} missed ({@code deleteIndexed}), until the delete page changes: a graph freed on
     * a page whose slots were reused out of order frees slots far apart (OO7 SM2: more than half its deletes on the
     * page of the last one, most of them more than 40 slots away), and the ordered search stepped over runs of free
     * slots for each. The index is a hint checked by one read ({@link SlottedPage#indexedSlot}), so the allocations
     * and deletes on the page since it was learned can make it miss, not mislead.
     */
    private char[] deleteIndex;

    private boolean deleteIndexed;

    /** Deletes whose slot the delete page's index found (tests, statistics). */
    private long indexedDeletes;

    /**
     * Called when a transaction committed on a store whose slotted pages only this allocator changes between its
     * transactions (an embedded store: not a page server's client, whose pages the server's commits replace, nor a
     * served store, which {@link #reset}s after applying a client's commit). The placement memos ({@link #noFit},
     * {@link #denseTails}, {@link #unitMaps}, {@link #extentNoFit}, the {@link #hotPage} and {@link #currentPage})
     * still describe the pages as committed, so the next transaction places objects on them without learning them
     * again (with the deletes advancing the maps, OO7 SM1+SM2 makes 6.9 passes over slot arrays per operation
     * instead of 49.5; docs/results.md, "Placement memos across commits, an assertion that stole its kept leaf").
     * They are checked against the page on every use, as within a transaction. The kept segments end here (their
     * stamps end with the transaction), and so does the delete page's memo.
     */
    public void committed() {
        hotSegment = null;
        hotStamp = -1;
        deletePage = -1;
        deleteSegment = null;
        deleteStamp = -1;
        deleteIndexed = false;
    }

    /**
     * Called when a transaction ends otherwise (an abort, whose undo changes pages behind the memos; any end on a page
     * server's client; a served store's applied client commit): every memo is dropped.
     */
    public void reset() {
        committed();
        hotPage = -1;
        currentPage = 0;
        noFit.clear();
        denseTails.clear();
        unitMaps.clear();
        extentNoFit.clear();
    }

    private long extentOf(long page) {
        return (page / extentPages) * extentPages;
    }

    private int tryPage(long page, int size, int[] pointerOffsets) throws IOException {
        int need = (size + 7) & ~7;
        if (page == hotPage) {
            int[] known = hotTail;
            if (SlottedPage.denseFits(pageSize, known[0], known[1], size)) {
                MemorySegment w = hotSegment;
                if (!pool.stamps().stillFixedForWrite(hotStamp)) {
                    w = pool.fixForWrite(page);
                    remember(w);
                }
                if (holdsTail(w, known)) {
                    return append(w, known, size, need, pointerOffsets);
                }
            }
            hotPage = -1; // does not fit, or changed behind the memo: the general path below decides
        }
        if (need >= noFit.refused(page)) {
            return -1;
        }
        int[] known = denseTails.get(page);
        if (known != null) {
            // Learned in this transaction from an allocated slotted page that only this allocator has changed
            // since (delete and reset drop the entry): the page-count and space-map checks still hold, and the
            // fit is decided without the page. One fix instead of four (page 0, the space map, the page twice):
            // the pins, not the placement, were most of an append's cost (docs/results.md, issue #20).
            if (!SlottedPage.denseFits(pageSize, known[0], known[1], size)) {
                refuse(page, need);
                return -1;
            }
            MemorySegment w = pool.fixForWrite(page);
            if (holdsTail(w, known)) {
                return appendHot(page, w, known, size, need, pointerOffsets);
            }
            denseTails.remove(page); // changed behind the memo: learn it again below
        }
        UnitMap map = unitMaps.get(page);
        if (map != null) {
            // learned from this allocated slotted page in this transaction, changed since only by this allocator: as
            // for a dense tail, the page-count and space-map checks still hold and the fit needs no pass over the page
            int found = map.placement(size);
            if (found < 0) {
                refuse(page, need);
                return -1;
            }
            MemorySegment w = pool.fixForWrite(page);
            if (map.describes(w)) {
                mappedPlacements++;
                return placeMapped(w, map, found, size, pointerOffsets);
            }
            unitMaps.remove(page); // changed behind the memo: learn it again below
        }
        if (page <= 0 || page >= extents.pageCount() || !extents.isAllocated(page)) {
            refuse(page, 0); // holds nothing until this allocator allocates it (allocate drops the entry)
            return -1;
        }
        MemorySegment p = pool.fix(page);
        if (PageHeader.type(p) != PageHeader.SLOTTED) {
            refuse(page, 0); // a large object's, an index's or the space map's page (freed: not allocated)
            return -1;
        }
        int[] tail = denseTail(page, p);
        if (tail != null) {
            if (!SlottedPage.denseFits(pageSize, tail[0], tail[1], size)) {
                refuse(page, need);
                return -1;
            }
            return appendHot(page, pool.fixForWrite(page), tail, size, need, pointerOffsets);
        }
        // a page with gaps (reference arrays that grew left their old nodes free; deleted objects): one pass learns
        // its unit map, which places this object and, kept, the next ones on the page (issue #20)
        UnitMap learned = UnitMap.of(p);
        learnedMaps++;
        keepMap(page, learned); // kept also when it refuses this object: a smaller one is placed without a pass
        int found = learned.placement(size);
        if (found < 0) {
            refuse(page, need);
            return -1;
        }
        return placeMapped(pool.fixForWrite(page), learned, found, size, pointerOffsets);
    }

    private void keepMap(long page, UnitMap map) {
        if (unitMaps.size() >= UNIT_MAP_PAGES) {
            unitMaps.clear();
        }
        unitMaps.put(page, map);
    }

    /** Deletes whose slot was found by the delete page's slot index since the store was opened. */
    public long indexedDeletes() {
        return indexedDeletes;
    }

    /** Objects placed through a kept unit map (no pass over their page's slot array) since the store was opened. */
    public long mappedPlacements() {
        return mappedPlacements;
    }

    /** Unit maps learned by a pass over their page's slot array since the store was opened. */
    public long learnedMaps() {
        return learnedMaps;
    }

    /** Allocates at {@code found}, {@code map}'s placement on page {@code w} (fixed for write); advances the map. */
    private static int placeMapped(MemorySegment w, UnitMap map, int found, int size, int[] pointerOffsets) {
        int slot = map.firstFreeSlot();
        SlottedPage.allocateAt(w, found, slot, size, pointerOffsets);
        map.placed(found, slot, size);
        return found;
    }

    /** The page's {@link #denseTails} entry {slots, end}, learned now if unknown; null if it is not dense. */
    private int[] denseTail(long page, MemorySegment p) {
        int[] tail = denseTails.get(page);
        int counts = SlottedPage.counts(p);
        int slots = counts & 0xffff;
        if (tail != null && tail[0] == slots && counts >>> 16 == slots) {
            return tail;
        }
        int end = SlottedPage.denseEnd(p);
        if (end < 0) {
            denseTails.remove(page);
            return null;
        }
        if (denseTails.size() >= NO_FIT_PAGES) {
            denseTails.clear();
        }
        tail = new int[] {slots, end};
        denseTails.put(page, tail);
        return tail;
    }

    /**
     * Whether page {@code w} is still what its memo {@code tail} {slots, end} describes: a slotted page with that
     * many slots, all live (the {@link #hotPage} and {@link #denseTails} checks before an append).
     */
    private static boolean holdsTail(MemorySegment w, int[] tail) {
        return PageHeader.type(w) == PageHeader.SLOTTED && SlottedPage.counts(w) == (tail[0] | tail[0] << 16);
    }

    /** Places an object at the dense end {@code tail} of page {@code w} (fixed for write) and advances the tail. */
    private static int append(MemorySegment w, int[] tail, int size, int need, int[] pointerOffsets) {
        int off = tail[1];
        SlottedPage.allocateAt(w, off, tail[0], size, pointerOffsets);
        tail[0]++;
        tail[1] = off + need;
        return off;
    }

    /** {@link #append}, then {@code page} is the {@link #hotPage}. */
    private int appendHot(long page, MemorySegment w, int[] tail, int size, int need, int[] pointerOffsets) {
        int off = append(w, tail, size, need, pointerOffsets);
        hotPage = page;
        hotTail = tail;
        remember(w);
        return off;
    }

    /** {@code w} is the {@link #hotPage}'s segment, just returned by {@code pool.fixForWrite}. */
    private void remember(MemorySegment w) {
        hotSegment = w;
        hotStamp = pool.stamps().writeStamp();
    }

    private void refuse(long page, int need) {
        if (page == hotPage) {
            hotPage = -1;
        }
        noFit.refuse(page, need);
    }

    /** Bound of {@link #denseTails} and {@link #extentNoFit} (each cleared when reached). */
    private static final int NO_FIT_PAGES = 1 << 16;

    /** Bound of {@link #unitMaps} (cleared when reached): a map holds about 300 bytes, so at most about 1.2 MiB. */
    private static final int UNIT_MAP_PAGES = 1 << 12;

    public long allocate(int size, long nearHint, int[] pointerOffsets) throws IOException {
        if (size < 1 || size > SlottedPage.maxObjectSize(pageSize)) {
            throw new IllegalArgumentException("object size " + size + " not in 1.."
                    + SlottedPage.maxObjectSize(pageSize) + " (use allocateLarge for bigger objects)");
        }
        long hintPage = nearHint != 0 ? addresses.pageOf(nearHint) : currentPage;
        int off = tryPage(hintPage, size, pointerOffsets);
        if (off >= 0) {
            return addresses.address(hintPage, off);
        }
        long extent = extentOf(hintPage);
        Long spill = null;
        if (nearHint != 0) {
            int need = (size + 7) & ~7;
            Integer full = extentNoFit.get(extent);
            if (full == null || need < full) {
                int[] refused = noFit.ofExtent(extent); // one lookup for the pass (tryPage would probe per page)
                for (long p = extent; p < extent + extentPages; p++) {
                    if (p != hintPage
                            && (refused == null || p == hotPage || need < refused[(int) (p - extent)])
                            && (off = tryPage(p, size, pointerOffsets)) >= 0) {
                        return addresses.address(p, off);
                    }
                }
                if (extentNoFit.size() >= NO_FIT_PAGES) {
                    extentNoFit.clear();
                }
                extentNoFit.put(extent, need); // below what it held (checked above): the hint's page refused it too
            }
            // the extent is full: continue on the page that took its overflow last (without this every
            // further object near a full extent got a fresh page of its own)
            spill = overflow.get(extent);
            if (spill != null && (off = tryPage(spill, size, pointerOffsets)) >= 0) {
                return addresses.address(spill, off);
            }
        }
        long page = extents.allocate(1, spill != null ? spill : hintPage); // next to the previous overflow
        noFit.forget(page);
        denseTails.remove(page);
        unitMaps.remove(page);
        extentNoFit.remove(extentOf(page));
        // just allocated: not read, logged as a NEW_PAGE at commit; the free pages after it are the next ones
        MemorySegment p = pool.fixNew(page, freePagesAfter);
        SlottedPage.format(p, page);
        off = SlottedPage.allocate(p, size, pointerOffsets);
        assert off >= 0;
        currentPage = page;
        if (nearHint != 0 && page / extentPages != hintPage / extentPages) {
            overflow.put(extent, page);
        }
        return addresses.address(page, off);
    }

    /** The slot at {@code off} on the delete page by its index, learned now if not yet; -1 if the index misses. */
    private int indexedSlot(MemorySegment p, int off) {
        if (!deleteIndexed) {
            if (deleteIndex == null || deleteIndex.length < pageSize / 8) {
                deleteIndex = new char[pageSize / 8];
            }
            SlottedPage.indexSlots(p, deleteIndex);
            deleteIndexed = true;
        }
        return SlottedPage.indexedSlot(p, deleteIndex, off);
    }

    /** The slotted page holding the live object at {@code ref}, with its slot; validates the reference. */
    public MemorySegment page(long ref, boolean forWrite) throws IOException {
        long page = addresses.pageOf(ref);
        MemorySegment p = livePage(ref, page);
        liveSlot(p, ref, page, addresses.offsetOf(ref));
        return forWrite ? pool.fixForWrite(page) : p;
    }

    /** The page of {@code ref} (fixed for reading) after checking that the page is allocated. */
    private MemorySegment livePage(long ref, long page) throws IOException {
        if (page <= 0 || page >= extents.pageCount() || !extents.isAllocated(page)) {
            throw new IllegalArgumentException(
                    String.format("0x%x is not a live object (page %d not allocated)", ref, page));
        }
        return pool.fix(page);
    }

    /** The slot of the live object {@code ref} at offset {@code off} of page {@code p}; throws if there is none. */
    private static int liveSlot(MemorySegment p, long ref, long page, int off) {
        int slot = PageHeader.type(p) == PageHeader.SLOTTED ? SlottedPage.slotAt(p, off) : -1;
        if (slot < 0) {
            throw new IllegalArgumentException(
                    String.format("0x%x is not a live object (page %d offset %d)", ref, page, off));
        }
        return slot;
    }

    public int sizeOf(long ref) throws IOException {
        long page = addresses.pageOf(ref);
        MemorySegment p = livePage(ref, page);
        return SlottedPage.slotLength(p, liveSlot(p, ref, page, addresses.offsetOf(ref)));
    }

    /**
     * Frees the object {@code ref}: its slot is found once, for the check and the free. The page is the store's own
     * write here (the slot table, the freed bytes zero-filled), so it is fixed with {@link BufferPool#fixForStoreWrite}:
     * on a mapped store the application view of a page the transaction only deletes from stays write-protected (no
     * {@code mprotect}); a later store through the view to another object of the page takes the write fault that
     * opens it, and an allocation on the page opens it ({@link BufferPool#fixForWrite}). A delete on the page of the
     * last delete uses the segment kept for it ({@link #deletePage}).
     */
    public void delete(long ref) throws IOException {
        long page = addresses.pageOf(ref);
        int off = addresses.offsetOf(ref);
        MemorySegment p;
        int slot;
        if (page == deletePage && pool.stamps().stillFixedForWrite(deleteStamp)) {
            p = deleteSegment;
            slot = SlottedPage.slotNext(p, off, deleteSlot);
            if (slot < 0 && (slot = indexedSlot(p, off)) >= 0) {
                indexedDeletes++;
            }
            if (slot < 0) {
                slot = liveSlot(p, ref, page, off);
            }
            assert slot == liveSlot(p, ref, page, off) : "slot " + slot + " next to " + deleteSlot + " on page " + page;
        } else {
            slot = liveSlot(livePage(ref, page), ref, page, off);
            p = pool.fixForStoreWrite(page);
            deletePage = page;
            deleteSegment = p;
            deleteStamp = pool.stamps().writeStamp();
            deleteIndexed = false;
        }
        noFit.forget(page);
        UnitMap map = unitMaps.get(page);
        int[] tail = denseTails.get(page);
        if (tail != null) {
            denseTails.remove(page);
            int last = tail[0] - 1;
            if (map == null && holdsTail(p, tail) && SlottedPage.slotOffset(p, last) != off) {
                // a dense page's map follows from its tail and its last slot: no pass over the slot array (SM2 frees
                // objects from pages SM1 filled by appending, and SM1 then places objects in the gaps); not for its
                // last object, whose delete would drop the map again (UnitMap.freeing)
                int lastOff = SlottedPage.slotOffset(p, last);
                map = UnitMap.ofDense(pageSize, tail[0], tail[1], lastOff, lastOff + SlottedPage.slotLength(p, last));
                assert map.matches(p) : "dense tail " + Arrays.toString(tail) + " of page " + page;
                keepMap(page, map);
            }
        }
        if (map != null && !(map.describes(p) && map.freeing(off, slot, SlottedPage.slotLength(p, slot)))) {
            unitMaps.remove(page); // the map follows the delete unless the object ends the page's objects
        }
        if (page == hotPage) {
            hotPage = -1;
        }
        extentNoFit.remove(extentOf(page));
        deleteSlot = slot;
        if (SlottedPage.freeSlot(p, slot, off) == 0) {
            deletePage = -1; // freed below: no longer a page to delete from
            deleteSegment = null;
            unitMaps.remove(page); // freed: its map (if any) was dropped above, as its last object ended it
            PageHeader.format(p, page, PageHeader.FREE);
            extents.free(page, 1);
            if (currentPage == page) {
                currentPage = 0;
            }
        }
    }
}
