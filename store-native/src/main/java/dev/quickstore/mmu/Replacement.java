package dev.quickstore.mmu;

/**
 * The buffer pool's replacement policy, one enum for the store's options and the data plane ({@code
 * qs_clock.c}; docs/architecture-core.md, "Replacement"). White and DeWitt, "QuickStore", SIGMOD 1994,
 * section 3.5.
 *
 * <ul>
 *   <li>{@link #SIMPLIFIED_CLOCK} (the store's default): QuickStore's clock: the hand takes the first frame
 *       whose access is disabled (not referenced through the view or by the store since the last global
 *       reprotection); when there is none, the whole arena is reprotected in one call and the sweep
 *       continues. References cost one reference fault per frame per round.</li>
 *   <li>{@link #CLASSIC_CLOCK}: second chance with the reference bit = access enabled; the hand clears a bit
 *       by reprotecting that frame (one mprotect per run of consecutive frames).</li>
 *   <li>{@link #STORE_CLOCK}: second chance over the store's own page fixes only, run in Java (accesses
 *       through the view are not seen; no reprotection). The only policy in EXPLICIT mode, where there is no
 *       view. In the data plane this is its fall-back ({@code QS_POLICY_FALLBACK}, an arena's policy until
 *       another is selected): under a resident budget a fault evicts the first clean frame not referenced
 *       since the last reprotection in a bounded scan; the store sets no budget under this policy, so pages
 *       the application faults in are not bounded by the pool.</li>
 * </ul>
 *
 * <p>The simplified and classic clocks run in the data plane: every load, whether an application fault or
 * the store's own, first evicts a clean victim by the policy when the pool is full.
 */
public enum Replacement {
    SIMPLIFIED_CLOCK(1),
    CLASSIC_CLOCK(2),
    STORE_CLOCK(0);

    /** {@code QS_POLICY_*} of qs_arena.h; keep in sync. */
    final int code;

    Replacement(int code) {
        this.code = code;
    }

    /** Whether the data plane runs this policy's clock ({@link ReplacementClock#evictOne()} works). */
    public boolean inDataPlane() {
        return this != STORE_CLOCK;
    }
}
