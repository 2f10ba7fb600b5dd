package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Loading frames beside and ahead of the fault path ({@code qs_frames.c}, {@code qs_fault.c}, {@code
 * qs_readahead.c}): the store's own accesses resolved as a fault would be, pages the store read itself, prefetch,
 * clustered read-ahead in the fault path, and allocating frames' memory off the fault path. One per {@link
 * MappedArena} ({@link MappedArena#loading()}).
 */
public final class FrameLoading {
    private static final int ENOTSUP = 95;

    private final MappedArena arena;
    private final long handle;

    FrameLoading(MappedArena arena, long handle) {
        this.arena = arena;
        this.handle = handle;
    }

    /**
     * Clustered read-ahead in the fault path ({@code qs_readahead.c}; docs/native.md "Read-ahead"): a read fault on
     * a reserved frame also loads up to {@code frames - 1} following reserved frames that hold the following pages
     * of the same file source, with one {@code pread} and one {@code mprotect}, as long as the resident budget
     * allows without eviction. Every page is verified and relocated as a single load is; a neighbour that fails
     * its checksum or lies beyond the end of the file stays reserved. Off under page locking, for page-server
     * sources and when pre-images are taken at load (scanning). 0 or 1 turns it off (the default).
     *
     * @param frames the most frames one fault loads, 0..64
     */
    public void readAhead(int frames) {
        Downcall.checkedInt("qs_arena_set_readahead", () -> "setting read-ahead to " + frames + " frames (0..64)", () ->
                (int) NativeCalls.ArenaSetReadahead.H.invokeExact(handle, frames));
    }

    /**
     * Cold loads mapped by userfaultfd minor faults ({@code qs_minor.c}; docs/native.md "Cold loads by minor faults"):
     * the application view is readable from the start and registered with a userfaultfd, so an access to a frame not
     * loaded yet raises SIGBUS in the faulting thread, and the load maps the frame's pages with {@code
     * UFFDIO_CONTINUE} instead of making it accessible with an {@code mprotect} that splits the view's mapping and
     * leaves its page-table entries to later minor faults. Only before any frame is resident, on a store arena whose
     * handler is interposed first ({@link SignalHandler}), and not with kernel write tracking (one userfaultfd per
     * range). Where the kernel or the process refuses it nothing changes and loads go through {@code mprotect}.
     *
     * @return 0 if minor faults are on now, else the negative errno the native call gave: {@code -EBUSY} (a frame is
     *     resident, kernel write tracking or minor faults on), {@code -ENOTSUP} (a baseline arena, or the handler
     *     is chained behind another), or the kernel's refusal ({@code -ENOSYS}, {@code -EPERM}, {@code -EINVAL})
     */
    public int selectMinorFaults() {
        if (SignalHandler.mode() != SignalHandler.Mode.INTERPOSED) {
            return -ENOTSUP; // chained behind HotSpot, whose handler would take the SIGBUS of compiled code first
        }
        return Downcall.intValue(
                "qs_arena_set_minor_faults", () -> (int) NativeCalls.ArenaSetMinorFaults.H.invokeExact(handle));
    }

    /** Whether cold loads are mapped by minor faults ({@link #selectMinorFaults}). */
    public boolean minorFaults() {
        return Downcall.intValue(
                        "qs_arena_minor_faults", () -> (int) NativeCalls.ArenaMinorFaults.H.invokeExact(handle))
                != 0;
    }

    /**
     * Write-ahead in the fault path ({@code qs_fault.c}; docs/native.md "Write-ahead"): a write fault on a clean
     * frame one of whose two predecessors is dirty (a stream of writes) also makes up to {@code frames} following clean,
     * readable frames writable, each with its pre-image, in one {@code mprotect}; they are dirty from then on, and
     * one the transaction does not write costs its commit an empty diff. Off under card marking, scanning and
     * page locking. Only for an embedded store that logs page diffs: a page-server client would ship every dirty
     * page as written. 0 turns it off (the arena's default).
     *
     * @param frames the most frames one write fault makes writable besides its own, 0..64
     */
    public void writeAhead(int frames) {
        Downcall.checkedInt(
                "qs_arena_set_writeahead", () -> "setting write-ahead to " + frames + " frames (0..64)", () ->
                        (int) NativeCalls.ArenaSetWriteahead.H.invokeExact(handle, frames));
    }

    /**
     * The store's own access to frame {@code frame} (through the alias), resolved exactly as an application
     * fault on it would be (qs_fault.c {@code qs_touch}): a reserved frame is loaded from its source, a
     * reprotected one takes its reference fault (under page locking: its lock), a write captures the pre-image.
     * An access that must be refused is refused as a fault is: take it from {@link MappedArena#refusals()}.
     */
    public void touch(long frame, boolean write) {
        arena.checkFrame(frame);
        Downcall.intValue("qs_touch", () -> (int) NativeCalls.Touch.H.invokeExact(handle, frame, write ? 1 : 0));
    }

    /** Loads a reserved frame ahead of use and makes it readable; errors throw, nothing is refused. */
    public void prefetch(long frame) {
        int[] err = new int[1];
        int r = Downcall.intValue("qs_prefetch", () -> {
            try (Arena tmp = Arena.ofConfined()) {
                MemorySegment e = tmp.allocate(JAVA_INT);
                int rc = (int) NativeCalls.Prefetch.H.invokeExact(handle, frame, e);
                err[0] = e.get(JAVA_INT, 0);
                return rc;
            }
        });
        if (r != 0) { // a refusal reason, not an errno
            int e = err[0];
            RefusalReason reason = RefusalReason.of(r);
            if (reason == RefusalReason.VMA_LIMIT || e == ArenaException.ENOMEM) {
                throw ArenaException.of("prefetching frame " + frame + ": mprotect", e);
            }
            throw new ArenaException(
                    "prefetching frame " + frame + " (page " + arena.page(frame) + "): " + reason.description()
                            + (e != 0 ? " (errno " + e + ")" : ""),
                    e);
        }
    }

    /**
     * Installs a page the caller read and verified itself: {@code page} ({@link MappedArena#frameSize()} bytes of
     * native memory, never an application-view slice) is copied into the alias view, then the frame
     * becomes readable and CLEAN. A REFUSED frame is repaired first. Returns true if installed, false if
     * the frame was already resident (a fault loaded it meanwhile; its bytes are kept).
     *
     * @throws ArenaException if the frame is not reserved for a page or mprotect failed
     */
    public boolean install(long frame, MemorySegment page) {
        arena.checkFrame(frame);
        int frameSize = arena.frameSize();
        if (!page.isNative() || page.byteSize() < frameSize) {
            throw new IllegalArgumentException("install needs " + frameSize + " bytes of native memory");
        }
        return Downcall.checkedInt("qs_install", () -> "installing frame " + frame, () ->
                        (int) NativeCalls.Install.H.invokeExact(handle, frame, page))
                == 1;
    }

    /**
     * Allocates the memory of frames [first, first+count) and maps it ahead of their first load, off
     * the fault path, so that their read faults do not allocate memory. Changes no bytes and no state.
     * Returns count.
     */
    public long populate(long first, long count) {
        return Downcall.checkedLong("qs_populate", () -> "populating frames " + first + "+" + count, () ->
                (long) NativeCalls.Populate.H.invokeExact(handle, first, count));
    }

    /**
     * Allocates the memory of frames [first, first+count) without mapping it ({@code fallocate} on the memfd),
     * off the fault path: their loads then allocate and zero nothing. Unlike {@link #populate} it takes no lock
     * of the address space, so a concurrent fault's {@code mprotect} does not wait for it. Changes no bytes and no
     * state. Returns count.
     */
    public long allocate(long first, long count) {
        return Downcall.checkedLong("qs_allocate", () -> "allocating frames " + first + "+" + count, () ->
                (long) NativeCalls.Allocate.H.invokeExact(handle, first, count));
    }
}
