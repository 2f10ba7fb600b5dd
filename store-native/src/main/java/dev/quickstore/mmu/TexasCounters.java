package dev.quickstore.mmu;

/**
 * A snapshot of Texas mode's counters ({@code qs_texas.c}; each counter individually consistent).
 *
 * @param framesReserved frames reserved for pages, by the fault path and the store alike (address space used)
 * @param reservedAtFault of those, frames the fault path reserved one step ahead for pages a loaded page refers to
 * @param pagesSwizzled pages the fault path loaded that held at least one persistent pointer (needed translation)
 * @param pagesLoaded slotted pages the fault path loaded
 * @param wordsSwizzled pointer words rewritten to virtual addresses at fault time
 * @param wordsUnswizzled words rewritten back to persistent form (write-back, commit diffs, logging)
 * @param races reservations that lost the race for a page's table entry (their frame stays unused)
 * @param unresolved words left persistent (page beyond the table, or the arena out of frames)
 * @param nextFrame the next frame the bump allocator hands out
 */
public record TexasCounters(
        long framesReserved,
        long reservedAtFault,
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
