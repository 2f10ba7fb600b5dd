package dev.quickstore.api.internal;

import dev.quickstore.core.software.Swizzler;
import dev.quickstore.core.software.SwizzlingFrames;
import java.lang.foreign.MemorySegment;

/**
 * The application view of software persistence (E / EPVM 3.0; docs/software-mode.md): what the generated
 * {@code <Name>$Soft} classes read and write. An object's in-memory address is its offset in the store's frame
 * region ({@link SwizzlingFrames#region()}); a reference word is an OID or, once resolved, a swizzled region
 * offset ({@link Swizzler#deref}, the in-line residency check of White and DeWitt 1994, section 4.5.1). One per
 * process, like {@link View}: at most one software store is bound at a time. Unbound, the region is a
 * zero-length segment, so a proxy used after its store closed throws {@link IndexOutOfBoundsException}.
 *
 * <p>Region offsets are valid until the next eviction; {@link #epoch} counts evictions so a proxy that cached
 * one ({@link SoftObject}) knows when to resolve its OID again.
 */
public final class SoftView {
    private static MemorySegment region = MemorySegment.NULL;
    private static Swizzler swizzler;
    private static SwizzlingFrames frames;
    private static Object owner;
    private static long arenaBase;
    private static int pageSize = 8192;

    private SoftView() {}

    /** The frame region (object address = region offset). */
    public static MemorySegment region() {
        return region;
    }

    /** The eviction and restoration count of the bound store's frames (-1 when unbound). */
    public static long epoch() {
        SwizzlingFrames f = frames;
        return f == null ? -1 : f.epoch();
    }

    /** The in-line residency check of the reference word at region offset {@code field}; see {@link Swizzler#deref}. */
    public static long deref(long field) {
        return swizzler.deref(field);
    }

    /**
     * The region offset of {@code oid}, read from the volume if needed; the word at {@code field} (which holds
     * {@code oid}) is swizzled in place when it is a pointer word ({@code -1}: resolve only).
     */
    public static long resolve(long field, long oid) {
        if (swizzler == null) {
            throw new IllegalStateException("no software store is open in this process: " + Long.toHexString(oid));
        }
        return swizzler.resolve(field, oid);
    }

    /** The OID of the resident object at region offset {@code at} (for a swizzled reference word). */
    public static long oidAt(long at) {
        return frames.oidAt(at);
    }

    /** The region offset of {@code oid} if it is resident and entered in the OID table, else -1 (one probe). */
    public static long residentAt(long oid) {
        return frames.lookup(oid);
    }

    /** Software write detection: call before storing at region offset {@code at} ({@link Swizzler#markWrite}). */
    public static void markWrite(long at) {
        swizzler.markWrite(at);
    }

    static Swizzler swizzler() {
        return swizzler;
    }

    static long arenaBase() {
        return arenaBase;
    }

    static int pageSize() {
        return pageSize;
    }

    /** Whether a software store is bound (the catalog reads its blob through this view then). */
    static boolean bound() {
        return swizzler != null;
    }

    /** Binds the process's software view to {@code newOwner}'s store; fails if another store is bound. */
    static synchronized void bind(Object newOwner, Swizzler sw, long base, int pages) {
        if (owner != null && owner != newOwner) {
            throw new IllegalStateException("another software persistent store is open in this process (" + owner
                    + "); one application view per process: close it first");
        }
        owner = newOwner;
        swizzler = sw;
        frames = sw.frames();
        arenaBase = base;
        pageSize = pages;
        region = sw.region();
    }

    static synchronized void unbind(Object currentOwner) {
        if (owner == currentOwner) {
            owner = null;
            swizzler = null;
            frames = null;
            region = MemorySegment.NULL;
        }
    }
}
