package dev.quickstore.core.stats;

/**
 * Buffer replacement counters, cumulative since this store was opened.
 *
 * With the simplified or classic clock (MAPPED mode) the policy runs in the data plane and these are the
 * arena's counters: they include evictions the fault path made for the application's own faults.
 *
 * @param capacity the pool's frames ({@code bufferPoolPages}): a bound on {@code resident} under the
 *     simplified and classic clocks whenever a clean, unpinned, written-back frame exists
 * @param resident frames holding bytes now (including pages the fault path loaded for the application)
 * @param evictions pages evicted (by the clock in the fault path, for the store's own loads, by a steal)
 * @param reprotectAlls whole-arena reprotections of the simplified clock
 * @param reprotectRuns {@code mprotect} runs of the classic clock's hand
 * @param framesCleared resident frames whose reference bit a clock cleared (access disabled)
 * @param victims pages the data plane's clock chose (0 under {@code STORE_CLOCK})
 * @param referenceFaults faults that re-enabled a resident frame after its bit was cleared (no I/O)
 * @param overcommits loads that exceeded the budget because every resident frame was dirty or held
 * @param steals dirty pages the pool logged and wrote back to make room
 */
public record PoolStats(
        int capacity,
        int resident,
        long evictions,
        long reprotectAlls,
        long reprotectRuns,
        long framesCleared,
        long victims,
        long referenceFaults,
        long overcommits,
        long steals) {}
