package dev.quickstore.mmu;

/**
 * A snapshot of Texas mode's counters ({@code qs_texas.c}; each counter individually consistent).
 *
 * @param framesReserved frames reserved for pages, by the fault path and the store alike (address space used)
 * @param reservedAhead of those, frames reserved one step ahead, for pages a loaded page refers to (the rest are
 *     pages the store reads or addresses itself: index pages, roots, the page of an object looked up)
 * @param pagesSwizzled slotted pages loaded (by a fault or the store's own read) that held at least one persistent
 *     pointer: the pages that needed translation
 * @param pagesLoaded slotted pages loaded by a fault or the store's own read
 * @param wordsSwizzled pointer words rewritten to virtual addresses on load
 * @param wordsUnswizzled words rewritten back to persistent form (write-back, commit diffs, logging)
 * @param races reservations that lost the race for a page's table entry (their frame stays unused)
 * @param unresolved words left persistent (page beyond the table, or the arena out of frames)
 * @param nextFrame the next frame the bump allocator hands out
 */
public record TexasCounters(
        long framesReserved,
        long reservedAhead,
        long pagesSwizzled,
        long pagesLoaded,
        long wordsSwizzled,
        long wordsUnswizzled,
        long races,
        long unresolved,
        long nextFrame) {

    static final int COUNT = 9;

    static TexasCounters of(long[] c) {
        return new TexasCounters(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    }
}
