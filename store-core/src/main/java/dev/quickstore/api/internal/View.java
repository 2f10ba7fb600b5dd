package dev.quickstore.api.internal;

import java.lang.foreign.MemorySegment;

/**
 * The application view generated accessors read and write: the object at address {@code a} lives at
 * {@code segment()} offset {@code a - base()}. One per process, like the arena it will map (design notes
 * section 5): at most one {@code PersistentStore} is bound at a time. Unbound, the view is a zero-length
 * segment, so a proxy used after its store closed throws {@link IndexOutOfBoundsException} instead of
 * touching foreign memory.
 *
 * <p>The fields are plain statics (not volatile): a hot getter is one static load of the segment, one of the
 * base, and the bounds-checked load itself, which C2 hoists out of loops.
 */
public final class View {
    /**
     * {@code -Dqs.api.strict=true}: every generated getter also checks that its transaction is still
     * active (setters always check). Off by default: a per-field check costs about a nanosecond.
     */
    public static final boolean STRICT = Boolean.getBoolean("qs.api.strict");

    private static MemorySegment segment = MemorySegment.NULL;
    private static long base;
    private static int pageSize = 8192;
    private static Object owner;

    private View() {}

    public static MemorySegment segment() {
        return segment;
    }

    public static long base() {
        return base;
    }

    static int pageSize() {
        return pageSize;
    }

    /** Binds the process's view to {@code newOwner}'s store; fails if another store is bound. */
    public static synchronized void bind(Object newOwner, MemorySegment seg, long arenaBase, int pages) {
        if (owner != null && owner != newOwner) {
            throw new IllegalStateException("another persistent store is open in this process (" + owner
                    + "); one application view per process: close it first");
        }
        owner = newOwner;
        base = arenaBase;
        pageSize = pages;
        segment = seg;
    }

    /** Replaces the segment of the bound store (the copying view grows by copying). */
    static synchronized void rebind(Object currentOwner, MemorySegment seg) {
        if (owner == currentOwner) {
            segment = seg;
        }
    }

    public static synchronized void unbind(Object currentOwner) {
        if (owner == currentOwner) {
            owner = null;
            segment = MemorySegment.NULL;
            base = 0;
        }
    }
}
