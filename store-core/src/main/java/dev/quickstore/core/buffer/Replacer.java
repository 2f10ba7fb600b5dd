package dev.quickstore.core.buffer;

import dev.quickstore.mmu.Replacement;
import java.util.function.LongPredicate;

/**
 * A buffer replacement policy over resident page ids (chosen by {@link Replacement}). The buffer
 * pool reports pages that became resident or were referenced by the store ({@link #add}) and pages it
 * dropped ({@link #remove}), and asks for a victim the caller accepts.
 */
public interface Replacer {
    /** A page became resident, or the store referenced (fixed) a resident page. */
    void add(long pageId);

    /** The page is no longer resident. */
    void remove(long pageId);

    /** A resident page accepted by {@code acceptable} to evict, or -1 if the policy finds none. */
    long victim(LongPredicate acceptable);

    /** Whole-arena reprotections issued (simplified clock), by the fault path or the pool. */
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

    /**
     * Whether the policy runs in the data plane ({@link DataPlaneReplacer}): it bounds every load itself, and the
     * pool asks it first through {@link #evictByPolicy}.
     */
    default boolean inDataPlane() {
        return false;
    }

    /** Evicts one page chosen by the data plane's policy; returns it, or -1 if none is evictable. */
    default long evictByPolicy() {
        return -1;
    }

    /** Sets or clears a hold ({@code ReplacementClock.HOLD_*}): a held page is never evicted by the data plane. */
    default void hold(long pageId, int bits, boolean on) {}

    static Replacer of(Replacement policy, PageFrames frames) {
        if (frames instanceof SoftwareFrames software) {
            return new ClockReplacer(software.swizzling()::takeReference);
        }
        if (!policy.inDataPlane() || !(frames instanceof MappedFrames mf)) {
            return new ClockReplacer();
        }
        return new DataPlaneReplacer(mf, policy);
    }
}
