package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Texas mode of an arena ({@code qs_texas.c}; Kakkad and Wilson, "Address Translation Strategies in the Texas
 * Persistent Store", 1999, section 3): slotted pages store their pointers in the persistent format of {@link
 * TexasPointers} (page id + offset); when the fault path loads a page it rewrites every pointer word (the
 * page's own pointer map) to a virtual address and, for every page referred to that has no frame yet, reserves
 * one - access-protected, address space only - "one step ahead", so that following the pointer takes an
 * ordinary fault. The page-id to frame table is native and lock-free (CAS), so the fault path needs nothing from
 * Java. The store converts the other way ({@link #unswizzle}) before a page image is diffed, logged or written,
 * so disk and log only ever hold persistent pointers. One per {@link MappedArena} ({@link MappedArena#texas()}).
 */
public final class TexasSwizzling {
    private final MappedArena arena;
    private final long handle;
    private volatile boolean enabled;

    TexasSwizzling(MappedArena arena, long handle) {
        this.arena = arena;
        this.handle = handle;
    }

    /**
     * Switches the arena to Texas mode before any page is loaded: pages of {@code source} (at most {@code maxPages})
     * get frames from {@code firstFrame} upwards in the order they are first referred to.
     */
    public void enable(int source, long maxPages, long firstFrame) {
        Downcall.checkedInt(
                "qs_texas_enable",
                () -> "enabling Texas mode (source " + source + ", " + maxPages + " pages, first frame " + firstFrame
                        + ")",
                () -> (int) NativeCalls.TexasEnable.H.invokeExact(handle, source, maxPages, firstFrame));
        enabled = true;
    }

    public boolean enabled() {
        return enabled;
    }

    /**
     * The frame of page {@code pageId}, reserving one (address space only) if it has none; throws {@link
     * ArenaException} if the page lies beyond the table or the arena has no frame left.
     */
    public long frameOf(long pageId) {
        return Downcall.checkedLong(
                "qs_texas_frame",
                () -> "reserving a Texas frame for page " + pageId + " (arena of " + arena.frameCount() + " frames)",
                () -> (long) NativeCalls.TexasFrame.H.invokeExact(handle, pageId, 1));
    }

    /** The frame of page {@code pageId}, or -1 if none is reserved for it yet. */
    public long frameIfReserved(long pageId) {
        long f = Downcall.longValue(
                "qs_texas_frame", () -> (long) NativeCalls.TexasFrame.H.invokeExact(handle, pageId, 0));
        return f < 0 ? -1 : f;
    }

    /** The page a frame is reserved for, or -1 if the frame holds none. */
    public long pageOfFrame(long frame) {
        if (frame < 0 || frame >= arena.frameCount() || arena.state(frame) == FrameState.FREE) {
            return -1;
        }
        return arena.page(frame);
    }

    /** Swizzles a slotted page image in place as the fault path does; returns the words changed. */
    public long swizzle(MemorySegment image) {
        return Downcall.checkedLong("qs_texas_swizzle", () -> "swizzling a page image", () ->
                (long) NativeCalls.TexasSwizzle.H.invokeExact(handle, image, image.byteSize()));
    }

    /** Rewrites a slotted page image's virtual addresses to persistent pointers in place; returns words changed. */
    public long unswizzle(MemorySegment image) {
        return Downcall.checkedLong("qs_texas_unswizzle", () -> "unswizzling a page image", () ->
                (long) NativeCalls.TexasUnswizzle.H.invokeExact(handle, image, image.byteSize()));
    }

    /** One stored word to a virtual address (reserving the target's frame); other values unchanged. */
    public long toRuntime(long word) {
        return Downcall.longValue(
                "qs_texas_to_runtime", () -> (long) NativeCalls.TexasToRuntime.H.invokeExact(handle, word));
    }

    /** One virtual address inside a reserved frame to its persistent pointer; other values unchanged. */
    public long toDisk(long address) {
        return Downcall.longValue(
                "qs_texas_to_disk", () -> (long) NativeCalls.TexasToDisk.H.invokeExact(handle, address));
    }

    /** The counters (all zero before {@link #enable}). */
    public TexasCounters counters() {
        long[] values = new long[TexasCounters.COUNT];
        Downcall.intValue("qs_texas_counters", () -> {
            try (Arena tmp = Arena.ofConfined()) {
                MemorySegment out = tmp.allocate(JAVA_LONG, values.length);
                int n = (int) NativeCalls.TexasCounters.H.invokeExact(handle, out, values.length);
                MemorySegment.copy(out, JAVA_LONG, 0, values, 0, values.length);
                return n;
            }
        });
        return TexasCounters.of(values);
    }
}
