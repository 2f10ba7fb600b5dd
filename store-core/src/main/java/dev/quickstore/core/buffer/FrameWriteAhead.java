package dev.quickstore.core.buffer;

import dev.quickstore.mmu.MappedArena;

/**
 * Read-ahead and write-ahead of {@link MappedFrames}: how many frames one fault loads or makes writable besides its
 * own ({@link dev.quickstore.mmu.FrameLoading}), and the store's announcement of pages it is about to write through
 * the application view, made writable in one {@code mprotect} per run instead of a write fault per page (White and
 * DeWitt 1994, section 3.6, batched; docs/results.md, "Write-ahead", "Announced write-ahead", "Write-ahead for reused
 * pages"). Only under identity placement: relocated and Texas frames of consecutive pages are not consecutive.
 */
final class FrameWriteAhead {
    /**
     * Frames one cold read fault loads from the volume file ({@link dev.quickstore.mmu.FrameLoading#readAhead}:
     * the faulting frame and the following reserved frames of the following pages, one {@code pread}, one {@code
     * mprotect}); system property {@code qs.readAhead}, 0 or 1 = off (the default: on OO7 it saved CPU on small T1
     * and cost more on medium T1, whose composite-part clusters end before a run does; docs/results.md, "Cold path
     * (issue 13)").
     */
    static final int READ_AHEAD_FRAMES = Integer.getInteger("qs.readAhead", 0);

    /**
     * Frames a write fault that continues a stream of writes makes writable besides its own ({@link
     * dev.quickstore.mmu.FrameLoading#writeAhead}); system property {@code qs.writeAhead}, 0 = off, default 8
     * (docs/results.md, "Write-ahead"). Set by {@link MappedFrames#writeAhead} for embedded stores that log page diffs.
     */
    static final int WRITE_AHEAD_FRAMES = Integer.getInteger("qs.writeAhead", 8);

    private final MappedArena arena;
    private final FrameReservation reservation;
    private final FrameRelocation relocation;
    private int writeAheadFrames;

    FrameWriteAhead(MappedArena arena, FrameReservation reservation, FrameRelocation relocation) {
        this.arena = arena;
        this.reservation = reservation;
        this.relocation = relocation;
        arena.loading().readAhead(READ_AHEAD_FRAMES);
    }

    /** Selects write-ahead ({@link dev.quickstore.mmu.FrameLoading#writeAhead}): 0 = off, the arena's default. */
    void select(int frames) {
        arena.loading().writeAhead(frames);
        writeAheadFrames = frames;
    }

    /** The window {@link #select} set: 0 = off. */
    int frames() {
        return writeAheadFrames;
    }

    /**
     * The application is about to store to pages {@code [firstPage, firstPage + count)} through the view: with
     * identity placement ({@code texas} false, not relocated), each clean resident one gets its pre-image now and each
     * run of them is made writable with one {@code mprotect} ({@code PreimageCapture.markDirtyRun}: write-ahead
     * announced rather than detected, one downcall instead of a write fault per page); the others fault as before.
     * Nothing for relocated or Texas frames or without write-ahead. Returns the pages made dirty.
     */
    long announce(long firstPage, long count, boolean texas) {
        if (count <= 0
                || relocation.relocated()
                || texas
                || firstPage < 0
                || firstPage + count > reservation.reservedUpTo()) {
            return 0;
        }
        return arena.preimages().markDirtyRun(firstPage, count);
    }
}
