package dev.quickstore.core.buffer;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.mmu.MappedArena;

/**
 * The frames {@link MappedFrames} has reserved for the volume's pages (White and DeWitt 1994, section 3.1: a
 * virtual frame per page, before any is loaded): frames {@code [0, reservedUpTo)} hold the pages of the same
 * numbers with the volume as page source, reserved ahead in steps as the volume grows, so that a fault on any of
 * them is served by the C fault path. In Texas mode the bound is only the volume's extent: the native page-id
 * table reserves frames as pages are referred to.
 *
 * <p>Invariant: {@code reservedUpTo} never shrinks and never exceeds the arena's frames (outside Texas mode).
 */
final class FrameReservation {
    /** Frames reserved ahead when the volume grows past the reserved range. */
    private static final long RESERVE_STEP = 1024;

    private final MappedArena arena;
    private final int source;
    private long reservedUpTo;

    FrameReservation(MappedArena arena, int source) {
        this.arena = arena;
        this.source = source;
    }

    /** Frames (pages) reserved so far: {@code [0, reservedUpTo)}. */
    long reservedUpTo() {
        return reservedUpTo;
    }

    /** See {@link MappedFrames#adoptReserved}. */
    void adopt(long pages) {
        if (reservedUpTo != 0) {
            throw new IllegalStateException("frames already reserved up to " + reservedUpTo);
        }
        reservedUpTo = pages;
    }

    /**
     * Reserves frames up to (excluding) {@code pages}, in steps, with the volume as page source; in Texas mode
     * ({@code texas}) only records the extent.
     */
    void reserveThrough(long pages, boolean texas) {
        if (pages <= reservedUpTo) {
            return;
        }
        if (texas) {
            reservedUpTo = pages; // the volume's extent; frames are reserved as pages are referred to
            return;
        }
        if (pages > arena.frameCount()) {
            throw new StoreException("the volume needs page " + (pages - 1) + " but the arena holds "
                    + arena.frameCount() + " pages; reopen the store with a larger Options.arenaBytes");
        }
        long end = Math.min(arena.frameCount(), Math.max(pages, reservedUpTo + RESERVE_STEP));
        arena.reserve(reservedUpTo, end - reservedUpTo, source, reservedUpTo);
        reservedUpTo = end;
    }
}
