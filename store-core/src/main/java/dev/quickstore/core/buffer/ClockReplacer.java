package dev.quickstore.core.buffer;

import dev.quickstore.mmu.Replacement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Second-chance clock over resident page ids. A reference sets the page's bit; the hand clears bits
 * until it finds an unreferenced page the caller accepts. References are the store's own fixes only
 * (accesses through the application view are not seen): {@link Replacement#STORE_CLOCK}, the policy
 * of EXPLICIT mode; with the mapped arena, {@link DataPlaneReplacer} uses page protection instead. In software
 * mode the frames also keep a reference bit per frame that the out-of-line resolution of an OID sets
 * ({@code SwizzlingFrames.takeReference}): the hand gives such a page its second chance too, so a page used only
 * through the residency check is not chosen while hot (docs/software-mode.md).
 */
final class ClockReplacer implements Replacer {
    /** The frames' own reference bit of a page, read and cleared (never set when there is none). */
    private final LongPredicate takeFrameReference;

    ClockReplacer() {
        this(p -> false);
    }

    ClockReplacer(LongPredicate takeFrameReference) {
        this.takeFrameReference = takeFrameReference;
    }

    private final List<Long> ring = new ArrayList<>();
    private final Map<Long, Integer> index = new HashMap<>();
    private final List<Boolean> referenced = new ArrayList<>();
    private int hand;

    /** Adds a page, or references it if it is already in the ring. */
    @Override
    public void add(long pageId) {
        Integer i = index.get(pageId);
        if (i != null) {
            referenced.set(i, Boolean.TRUE);
            return;
        }
        index.put(pageId, ring.size());
        ring.add(pageId);
        referenced.add(Boolean.TRUE);
    }

    void touch(long pageId) {
        Integer i = index.get(pageId);
        if (i != null) {
            referenced.set(i, Boolean.TRUE);
        }
    }

    @Override
    public void remove(long pageId) {
        Integer i = index.remove(pageId);
        if (i == null) {
            return;
        }
        int last = ring.size() - 1;
        if (i != last) {
            long moved = ring.get(last);
            ring.set(i, moved);
            referenced.set(i, referenced.get(last));
            index.put(moved, i);
        }
        ring.remove(last);
        referenced.remove(last);
        if (hand >= ring.size()) {
            hand = 0;
        }
    }

    /** A victim accepted by {@code acceptable}, or -1 after three full sweeps without one. */
    @Override
    public long victim(LongPredicate acceptable) {
        int n = ring.size();
        for (int step = 0; step < 3 * n + 1 && n > 0; step++) { // two bits per page to clear at most
            if (hand >= n) {
                hand = 0;
            }
            long p = ring.get(hand);
            if (referenced.get(hand)) {
                referenced.set(hand, Boolean.FALSE);
            } else if (takeFrameReference.test(p)) {
                // referenced through the residency check since the hand last passed: its second chance
            } else if (acceptable.test(p)) {
                hand++;
                return p;
            }
            hand++;
        }
        return -1;
    }
}
