package dev.quickstore.mmu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Write detection by card marking ({@code qs_cards.c}; Hosking and Moss, "Protection traps and
 * alternatives for memory management of an object-oriented language", SOSP 1993, section 3): instead of
 * write-protecting clean frames, the arena maps them read-write and the application's write barrier marks
 * cards of {@code 2^shift} bytes; the first mark of a frame captures its pre-image exactly as a write
 * fault would. One per {@link MappedArena} ({@link MappedArena#cardTable()}); off until {@link #select}.
 *
 * <p>Invariant: byte {@code (address - base) >>> shift()} of {@link #bytes()} is 1 only while its frame is
 * DIRTY; the data plane clears a frame's cards whenever it frees the frame's pre-image.
 */
@SuppressWarnings("restricted") // reinterpret() of the native card table
public final class CardTable {
    /** {@code QS_F_WHOLE} of qs_arena.h (frame flags are bits 8.. of the raw state); keep in sync. */
    private static final int FLAG_WHOLE = 0x80;

    private final MappedArena arena;
    private final long handle;
    private final Arena views;
    private volatile int shift;
    private volatile MemorySegment bytes = MemorySegment.NULL;

    CardTable(MappedArena arena, long handle, Arena views) {
        this.arena = arena;
        this.handle = handle;
        this.views = views;
    }

    /**
     * Switches the arena to card marking before any frame is resident: an accessible clean frame is mapped
     * READ|WRITE (application stores never fault), and the write barrier marks cards through {@link #mark}.
     * {@code cardShift} 0 keeps page protection.
     *
     * @throws ArenaException with EINVAL for a card size outside [64, frameSize] or more than 64 cards per
     *     frame, EBUSY if frames are resident or card marking is on already
     */
    public synchronized void select(int cardShift) {
        Downcall.checkedInt(
                "qs_arena_set_write_detection",
                () -> "selecting card marking with 2^" + cardShift + "-byte cards",
                () -> (int) NativeCalls.SetWriteDetection.H.invokeExact(handle, cardShift));
        if (cardShift != 0) {
            long addr = Downcall.longValue("qs_arena_cards", () -> (long) NativeCalls.ArenaCards.H.invokeExact(handle));
            this.bytes = MemorySegment.ofAddress(addr).reinterpret(arena.byteSize() >>> cardShift, views, null);
            this.shift = cardShift;
        }
    }

    /** {@code QS_WD_PREIMAGE_ON_LOAD} of qs_cards.c: the argument of {@code qs_arena_set_write_detection}. */
    private static final int PREIMAGE_ON_LOAD = 0x100;

    /**
     * Switches the arena to scanning (Hosking and Moss's "scan" scheme) before any frame is resident: no card
     * table; clean frames stay write-protected, but a fault that loads a frame in a transaction captures its
     * pre-image at once and leaves the frame DIRTY and writable, so the application's stores to it never fault
     * and commit can diff every resident page against its pre-image.
     *
     * @throws ArenaException with EBUSY if frames are resident or card marking is on
     */
    public synchronized void selectScanning() {
        Downcall.checkedInt("qs_arena_set_write_detection", () -> "selecting scanning (pre-images at load)", () ->
                (int) NativeCalls.SetWriteDetection.H.invokeExact(handle, PREIMAGE_ON_LOAD));
    }

    /** log2 of the card size, or 0 under page protection. */
    public int shift() {
        return shift;
    }

    /** The card bytes, one per card of the application view; empty under page protection. */
    public MemorySegment bytes() {
        return bytes;
    }

    /**
     * The write barrier's slow path for a store at view offset {@code offset}: the frame's pre-image is
     * captured on its first mark (it becomes DIRTY, protection unchanged) and the card is marked. Returns 1
     * if the frame became dirty, 0 if it was dirty already (or refused), -1 if it is not resident (touch it
     * through the view, which loads it, and retry).
     *
     * @throws ArenaException if no pre-image slot could be mapped or the arena is not in card mode
     */
    public int mark(long offset) {
        int rc = Downcall.intValue("qs_mark_card", () -> (int) NativeCalls.MarkCard.H.invokeExact(handle, offset));
        if (rc == -2 /* ENOENT: not resident */) {
            return -1;
        }
        return (int) Downcall.check(rc, () -> "marking the card of view offset " + offset);
    }

    /** Whether a DIRTY frame was (also) dirtied by the store itself ({@link PreimageCapture#markDirty}). */
    public boolean dirtiedWhole(long frame) {
        return ((arena.rawState(frame) >>> 8) & FLAG_WHOLE) != 0;
    }
}
