package dev.quickstore.core.buffer;

import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.TexasSwizzling;
import java.lang.foreign.MemorySegment;

/**
 * {@link MappedFrames} in Texas mode (docs/texas-mode.md; Kakkad and Wilson 1999, section 3): frames come from the
 * native page-id to frame table, reserved one step ahead by the fault path, and the store's own page images are
 * swizzled on the way in and unswizzled on the way out once {@link #startSwizzling} ran (after recovery; before,
 * images stay in persistent form, as on disk).
 */
final class TexasFrames {
    private final TexasSwizzling texas;

    /** Whether the store's own reads and write-backs convert pointers (off during recovery). */
    private boolean swizzling;

    /** Enables Texas mode on {@code arena}: pages of {@code source} get frames from frame 0 upwards. */
    TexasFrames(MappedArena arena, int source) {
        this.texas = arena.texas();
        texas.enable(source, arena.frameCount(), 0);
    }

    TexasSwizzling swizzling() {
        return texas;
    }

    /** Whether page images are converted (see {@link #startSwizzling}). */
    boolean converts() {
        return swizzling;
    }

    /** Starts converting page images; the arena must hold no resident frame. */
    void startSwizzling(MappedArena arena) {
        if (arena.residentFrames() != 0) {
            throw new IllegalStateException("Texas swizzling starts with an empty arena, not with "
                    + arena.residentFrames() + " resident frames");
        }
        swizzling = true;
    }

    /** The frame of a page, reserving one (address space only) if it has none. */
    long frameOf(long pageId) {
        return texas.frameOf(pageId);
    }

    /** The page a frame holds, or -1. */
    long pageOfFrame(long frame) {
        return texas.pageOfFrame(frame);
    }

    /** Whether the page has a frame yet (asking reserves none). */
    boolean hasFrame(long pageId) {
        return texas.frameIfReserved(pageId) >= 0;
    }

    /** Frames handed out so far: frames [0, n) may hold pages. */
    long framesHandedOut() {
        return texas.counters().nextFrame();
    }

    /** Persistent pointers to virtual addresses, in place, once swizzling started. */
    void toRuntime(MemorySegment image) {
        if (swizzling) {
            texas.swizzle(image);
        }
    }

    /** Virtual addresses to persistent pointers, in place, once swizzling started. */
    void toDisk(MemorySegment image) {
        if (swizzling) {
            texas.unswizzle(image);
        }
    }
}
