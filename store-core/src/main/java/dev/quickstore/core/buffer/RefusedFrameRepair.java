package dev.quickstore.core.buffer;

import dev.quickstore.mmu.MappedArena;
import java.util.HashSet;
import java.util.Set;

/**
 * The repair of {@link MappedFrames}' frames left REFUSED by the fault path (design notes section 2a; the fault
 * handler of White and DeWitt 1994, section 3.1, never fails, this one may): a refused access is completed on a
 * private scratch page mapped over its frame, and later stores to the frame land there, never in the memfd
 * (docs/native.md, "Refusals: the exact semantics"). {@link
 * #repairRefused} gives every frame that may be REFUSED its shared mapping back without losing bytes: the reserved
 * frames (in Texas mode the frames handed out so far), the relocated runs ({@link FrameRelocation}), and the frames
 * named by refusal records taken so far ({@link #noteRefused}), which may lie beyond the reserved range. The store
 * repairs before a transaction begins and after it ends.
 */
final class RefusedFrameRepair {
    private final MappedFrames frames;
    private final MappedArena arena;
    private final FrameReservation reservation;
    private final FrameRelocation relocation;
    /** Frames named by refusal records taken so far (they may lie beyond the reserved range). */
    private final Set<Long> refused = new HashSet<>();

    RefusedFrameRepair(
            MappedFrames frames, MappedArena arena, FrameReservation reservation, FrameRelocation relocation) {
        this.frames = frames;
        this.arena = arena;
        this.reservation = reservation;
        this.relocation = relocation;
    }

    /** See {@link MappedFrames#repairRefused}. */
    void repairRefused() {
        TexasFrames texas = frames.texasFrames();
        if (texas != null) {
            long next = texas.framesHandedOut();
            if (next > 0) {
                arena.refused().repairRefused(0, next);
            }
        } else if (reservation.reservedUpTo() > 0) {
            arena.refused().repairRefused(0, reservation.reservedUpTo());
        }
        relocation.repairRefused();
        for (long f : refused) {
            if (f >= reservation.reservedUpTo() && f < arena.frameCount()) {
                arena.refused().repairRefused(f, 1);
            }
        }
        refused.clear();
    }

    /** Remembers the frame of a refusal record so that {@link #repairRefused} reaches it. */
    void noteRefused(long frame) {
        refused.add(frame);
    }
}
