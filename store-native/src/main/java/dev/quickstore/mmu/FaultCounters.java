package dev.quickstore.mmu;

/**
 * A snapshot of an arena's fault-path counters (each counter individually consistent).
 *
 * @param readFaults faults that read a page from its source and made it readable
 * @param writeFaults faults that captured a pre-image and made a frame writable
 * @param referenceFaults faults on resident frames reprotected by the clock (no I/O)
 * @param spuriousFaults faults on frames another thread had resolved meanwhile (no work)
 * @param waits times a faulting thread waited for a frame in a transient state
 * @param bytesRead bytes read from page sources
 * @param evictions frames whose bytes were dropped (by Java or by the fault path)
 * @param faultPathEvictions evictions done by the fault path because the pool was at its limit
 * @param overcommits times a soft budget (resident frames, pre-image bytes) was exceeded
 * @param preimageBytes bytes copied into pre-images
 * @param refusals refused faults
 * @param handlerNanos total time spent in the fault path (store mode)
 * @param vmaCollapses times the fault path reprotected neighbours to free mappings after ENOMEM
 * @param clockVictims frames the replacement clock chose and evicted (fault path or {@link
 *     ReplacementClock#evictOne}); included in {@code evictions}
 * @param reprotectAlls whole-arena reprotections of the simplified clock
 * @param clockReprotected resident frames whose access the clock disabled (reference bit cleared)
 * @param clockRuns mprotect calls of the classic clock's hand (one per run of cleared frames)
 * @param clockFails sweeps that found no evictable frame (every resident frame dirty, held or busy); the
 *     next 64 over-budget loads then overcommit without sweeping unless Java cleans or releases a frame
 * @param readAheadFrames frames loaded by read-ahead next to a faulting frame ({@link FrameLoading#readAhead}); not
 *     counted in {@code readFaults}
 * @param writeAheadFrames frames made writable by write-ahead next to a write fault ({@link FrameLoading#writeAhead})
 *     or announced by the store ({@link PreimageCapture#markDirtyRun}, ABI 14); not counted in {@code writeFaults}
 * @param untouchedLoads loads (by a fault, read-ahead, {@link FrameLoading#prefetch} or {@link FrameLoading#install})
 *     that left the application view's protection as it was, without an {@code mprotect}: under minor faults ({@link
 *     FrameLoading#selectMinorFaults}), a frame whose view nothing had changed since their selection (ABI 19)
 * @param newPages frames made DIRTY against the shared zero pre-image for pages a transaction allocated ({@link
 *     PreimageCapture#makeNew}, ABI 20): no pre-image bytes copied for them
 */
public record FaultCounters(
        long readFaults,
        long writeFaults,
        long referenceFaults,
        long spuriousFaults,
        long waits,
        long bytesRead,
        long evictions,
        long faultPathEvictions,
        long overcommits,
        long preimageBytes,
        long refusals,
        long handlerNanos,
        long vmaCollapses,
        long clockVictims,
        long reprotectAlls,
        long clockReprotected,
        long clockRuns,
        long clockFails,
        long readAheadFrames,
        long writeAheadFrames,
        long untouchedLoads,
        long newPages) {

    // qs_counter in C, including the forwarded counter 13 (reported by SignalHandler.forwarded)
    static final int COUNT = 23;

    static FaultCounters of(long[] c) {
        return new FaultCounters(
                c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[14], c[15], c[16],
                c[17], c[18], c[19], c[20], c[21], c[22]);
    }
}
