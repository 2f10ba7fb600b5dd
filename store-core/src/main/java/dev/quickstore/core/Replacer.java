package dev.quickstore.core;

import java.util.function.LongPredicate;

/**
 * A buffer replacement policy over resident page ids (chosen by {@link Store.Replacement}). The buffer
 * pool reports pages that became resident or were referenced by the store ({@link #add}) and pages it
 * dropped ({@link #remove}), and asks for a victim the caller accepts.
 */
interface Replacer {
    /** A page became resident, or the store referenced (fixed) a resident page. */
    void add(long pageId);

    /** The page is no longer resident. */
    void remove(long pageId);

    /** A resident page accepted by {@code acceptable} to evict, or -1 if the policy finds none. */
    long victim(LongPredicate acceptable);

    /** Whole-arena reprotections issued (simplified clock). */
    default long reprotectAlls() {
        return 0;
    }

    /** Per-frame reprotection calls issued (one per run of consecutive frames; classic clock). */
    default long reprotectRuns() {
        return 0;
    }

    /** Frames whose reference bit the hand cleared by reprotecting them (classic clock). */
    default long framesCleared() {
        return 0;
    }

    static Replacer of(Store.Replacement policy, PageFrames frames) {
        return switch (policy) {
            case STORE_CLOCK -> new ClockReplacer();
            case SIMPLIFIED_CLOCK -> new ProtectionClock(frames, true);
            case CLASSIC_CLOCK -> new ProtectionClock(frames, false);
        };
    }
}
