package dev.quickstore.core.options;

/**
 * The buffer pool's replacement policy (docs/architecture-core.md, "Replacement").
 *
 * <ul>
 *   <li>{@link #SIMPLIFIED_CLOCK} (default): QuickStore's clock (White and DeWitt 1994, section 3.5): the
 *       hand takes the first frame whose access is disabled (not referenced through the view or by the
 *       store since the last global reprotection); when there is none, the whole arena is reprotected in
 *       one call and the sweep continues. References cost one reference fault per frame per round.</li>
 *   <li>{@link #CLASSIC_CLOCK}: second chance with the reference bit = access enabled; the hand clears a
 *       bit by reprotecting that frame (one mprotect per run of consecutive frames).</li>
 *   <li>{@link #STORE_CLOCK}: second chance over the store's own page fixes only (accesses through the
 *       view are not seen; no reprotection). The only policy in EXPLICIT mode, where there is no view.
 *       Pages the application faults in are not bounded by the pool under this policy.</li>
 * </ul>
 *
 * <p>The simplified and classic clocks run in the data plane (store-native's fault path): every load,
 * whether an application fault or the store's own, first evicts a clean victim by the policy when the
 * pool is full, so the pool size bounds the resident frames ({@link #poolStats()}).
 */
public enum Replacement {
    SIMPLIFIED_CLOCK,
    CLASSIC_CLOCK,
    STORE_CLOCK
}
