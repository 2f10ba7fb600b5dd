package dev.quickstore.core.buffer;

import dev.quickstore.mmu.FrameState;
import dev.quickstore.mmu.MappedArena;
import java.lang.foreign.MemorySegment;

/**
 * Reading frames that application threads may store to at any moment (White and DeWitt 1994, section 3.3: the
 * pre-image of a page is taken at its first write, before the store lands). An image copied from the alias view
 * for write-back could contain a store that is not logged; {@link #cleanImage} copies the alias and then checks
 * the frame: if it became DIRTY meanwhile, its pre-image - captured at that first store - is exactly the clean
 * image and is used instead. Transient frame states (BUSY, LOADING) last microseconds and are waited out.
 */
final class StableImages {
    private StableImages() {}

    /** The stable state of a frame: waits out the transient states (a fault takes microseconds). */
    static FrameState stableState(MappedArena arena, long frame) {
        for (; ; ) {
            FrameState s = arena.state(frame);
            if (s != FrameState.BUSY && s != FrameState.LOADING) {
                return s;
            }
            Thread.onSpinWait();
        }
    }

    /**
     * Copies frame {@code frame}'s current bytes ({@code current}, its alias slice) into {@code image}, then
     * replaces them by the frame's pre-image if a store reached the frame since its clean point. Returns {@code
     * image}, the frame's image as of its clean point (in runtime form).
     */
    static MemorySegment cleanImage(MappedArena arena, long frame, MemorySegment current, MemorySegment image) {
        image.copyFrom(current);
        for (; ; ) {
            FrameState s = arena.state(frame);
            if (s == FrameState.DIRTY || s == FrameState.BUSY) {
                MemorySegment pre = arena.preimages().preimage(frame);
                if (!pre.equals(MemorySegment.NULL)) {
                    image.copyFrom(pre); // the first store after our clean point: its pre-image is the image
                    return image;
                }
                if (s == FrameState.DIRTY) {
                    return image;
                }
                Thread.onSpinWait(); // BUSY without a pre-image yet: no store has landed; re-check
                continue;
            }
            if (s == FrameState.CLEAN && arena.kernelTracking().on()) {
                MemorySegment twin = arena.preimages().preimage(frame);
                if (!twin.equals(MemorySegment.NULL)) {
                    image.copyFrom(twin); // kernel tracking: the page as last logged, whatever was stored since
                }
            }
            return image;
        }
    }
}
