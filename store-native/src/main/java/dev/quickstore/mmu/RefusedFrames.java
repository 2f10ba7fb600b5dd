package dev.quickstore.mmu;

/**
 * Frames left REFUSED by the refusal path, and its VMA reserve ({@code qs_frames.c}, {@code qs_arena.c};
 * design-notes section 2a): a refused access completes on a scratch page mapped over the frame; these calls put
 * the arena's shared mapping back, and refill the reserve of single-page mappings the fault path unmaps when it
 * cannot map a scratch page at the vm.max_map_count limit. The records themselves are taken from the {@link
 * RefusalQueue}. One per {@link MappedArena} ({@link MappedArena#refused()}).
 */
public final class RefusedFrames {
    private final long handle;

    RefusedFrames(long handle) {
        this.handle = handle;
    }

    /** Replaces the scratch pages of REFUSED frames by the arena again (RESERVED or FREE). */
    public long resetRefused(long first, long count) {
        return Downcall.checkedLong("qs_reset_refused", () -> "resetting frames " + first + "+" + count, () ->
                (long) NativeCalls.ResetRefused.H.invokeExact(handle, first, count));
    }

    /**
     * Repairs REFUSED frames without losing bytes (unlike {@link #resetRefused}): a frame refused while
     * resident becomes resident again (reprotected, so its next access takes a reference fault); others
     * go back to RESERVED or FREE. Returns how many frames were repaired.
     */
    public long repairRefused(long first, long count) {
        return Downcall.checkedLong("qs_repair_refused", () -> "repairing frames " + first + "+" + count, () ->
                (long) NativeCalls.RepairRefused.H.invokeExact(handle, first, count));
    }

    /**
     * Pages of the VMA reserve in place (at most 32): single-page mappings the fault path unmaps when it
     * cannot map a refused frame's scratch page at the vm.max_map_count limit; refilled by {@link
     * #repairRefused} and {@link #resetRefused}.
     */
    public int vmaReserve() {
        return Downcall.intValue("qs_vma_reserve_count", () -> (int) NativeCalls.VmaReserveCount.H.invokeExact(handle));
    }

    /** Tests: the next {@code n} scratch mappings of the refusal path fail with ENOMEM. */
    void failScratchMappings(int n) {
        Downcall.run("qs_test_fail_scratch", () -> {
            NativeCalls.TestFailScratch.H.invokeExact(handle, n);
        });
    }
}
