package dev.quickstore.core.space;

import java.util.Arrays;

/**
 * {@link ObjectAllocator}'s no-fit memo: per page, the smallest object size (8-aligned) found not to fit on it, so that
 * a request of that size or larger is refused without reading the page, until an object on it is deleted (the only
 * way a slotted page gains space) or the memos are dropped. A hint that can only cost space, never correctness: a page
 * it admits is still checked.
 *
 * <p>Kept per extent, one {@code int} per page of it in one array ({@link #NONE}: nothing refused), because the
 * allocator's common question is about an extent: a near-hint allocation whose hint page is full passes over the
 * extent's pages in order and takes the first that holds the object (Cricket's placement near a hint, Shekita and
 * Zwilling 1990, section 5.1.4). The pages before the one being filled are full, so that pass was a hash probe per
 * page for the refusal; the OO7 small build made five page tries per allocation, four of them refusals
 * (docs/results.md, "No-fit sizes per extent"). With the extent's array read once, the pass skips refused pages with
 * one array load each.
 *
 * <p>Invariants: every array has {@code extentPages} entries, each {@link #NONE} or a multiple of 8 (0: the page
 * holds nothing until the allocator allocates it, a page of another kind or beyond the volume); an
 * extent's array exists once a page of it was refused (and may hold only {@link #NONE} after {@link #forget}). The
 * number of extents kept is bounded by {@link #MAX_EXTENTS} (all are dropped when it is reached, as the page map
 * before it was at 65,536 pages). Single-threaded, like the allocator (its callers hold the store latch).
 */
final class NoFitSizes {
    /** No size refused on the page. */
    static final int NONE = Integer.MAX_VALUE;

    /** Extents kept before all are dropped: 65,536 pages with 16-page extents. */
    static final int MAX_EXTENTS = 4096;

    private final int extentPages;
    private final PageTable<int[]> byExtent = new PageTable<>();

    NoFitSizes(int extentPages) {
        if (extentPages < 1) {
            throw new IllegalArgumentException("extent of " + extentPages + " pages");
        }
        this.extentPages = extentPages;
    }

    private long extentOf(long page) {
        return (page / extentPages) * extentPages;
    }

    /** The smallest size refused on {@code page}, {@link #NONE} if none. */
    int refused(long page) {
        int[] sizes = byExtent.get(extentOf(page));
        return sizes == null ? NONE : sizes[(int) (page - extentOf(page))];
    }

    /**
     * The sizes of the pages of the extent starting at page {@code extent} (index {@code page - extent}), or null if
     * none was refused: a live view for a pass over the extent, which may refuse pages meanwhile (the array is kept;
     * after {@link #clear} its values are still true, only no longer updated).
     */
    int[] ofExtent(long extent) {
        assert extent % extentPages == 0 : "page " + extent + " does not start an extent of " + extentPages;
        return byExtent.get(extent);
    }

    /** Records that an object of {@code need} bytes did not fit on {@code page} (keeps the smallest such size). */
    void refuse(long page, int need) {
        assert need >= 0 && need % 8 == 0 : "size " + need;
        long extent = extentOf(page);
        int[] sizes = byExtent.get(extent);
        if (sizes == null) {
            if (byExtent.size() >= MAX_EXTENTS) {
                byExtent.clear();
            }
            sizes = new int[extentPages];
            Arrays.fill(sizes, NONE);
            byExtent.put(extent, sizes);
        }
        int i = (int) (page - extent);
        if (need < sizes[i]) {
            sizes[i] = need;
        }
    }

    /** Drops what was refused on {@code page} (an object on it was deleted, or it was allocated anew). */
    void forget(long page) {
        int[] sizes = byExtent.get(extentOf(page));
        if (sizes != null) {
            sizes[(int) (page - extentOf(page))] = NONE;
        }
    }

    void clear() {
        byExtent.clear();
    }
}
