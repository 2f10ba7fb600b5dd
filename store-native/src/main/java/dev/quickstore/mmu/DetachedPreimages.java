package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The pre-images a commit took over from the frames it cleaned ({@code qs_mark_clean_list_detach} and {@code
 * qs_preimage_release_list} in {@code qs_frames.c}/{@code qs_preimage.c}, ABI 13; White and DeWitt, "QuickStore",
 * SIGMOD 1994, section 3.6: commit diffs each page against its pre-image). Cleaning a frame normally frees its
 * pre-image slot, so a commit that diffs after the clean point had to copy every pre-image first; here the clean
 * call hands each slot to this object instead, the commit diffs against it in place, and {@link #release} gives
 * the slots back. A store after the clean point faults and captures a fresh slot (the frame's slot field is 0), so
 * a detached slot is never reused while held. One per {@link MappedArena} ({@link PreimageCapture#detached()}),
 * with native buffers for {@value #MAX} frames allocated on first use.
 *
 * <p>Invariants: entries {@code [0, count)} of {@code slots} are the slots detached by the last {@link #detachClean}
 * and not yet released (0 = none); {@link #detachClean} is refused while slots are held; released slots count in
 * the arena's pre-image budget until then.
 */
public final class DetachedPreimages implements AutoCloseable {
    /** Frames one {@link #detachClean} may list (bounds the pre-image memory a commit holds at once). */
    public static final int MAX = 4096;

    private final MappedArena arena;
    private final long handle;
    private final Arena views;
    private final MemorySegment addressSpace;
    private MemorySegment frames;
    private MemorySegment slots;
    private MemorySegment addrs;
    private MemorySegment keep; // kernel tracking: 1 = slot k becomes its frame's twin at release
    private int count;

    DetachedPreimages(MappedArena arena, long handle, Arena views, MemorySegment addressSpace) {
        this.arena = arena;
        this.handle = handle;
        this.views = views;
        this.addressSpace = addressSpace;
    }

    /**
     * Ends the dirty state of {@code list[from..from+n)} (frames, strictly ascending) as {@link
     * PreimageCapture#markCleanList} does - one {@code mprotect} per run of listed frames and at most {@code
     * bridge} clean read-only frames between them - but keeps each cleaned frame's pre-image: {@link #preimage}
     * {@code (k)} is the one of {@code list[from + k]}, until {@link #release}. Returns the frames cleaned.
     *
     * @throws IllegalStateException if slots of an earlier call are still held
     * @throws ArenaException for a frame outside the arena or a list not strictly ascending (the frames cleaned
     *     before it stay detached: release them)
     */
    public synchronized long detachClean(long[] list, int from, int n, int bridge) {
        if (from < 0 || n < 0 || from + n > list.length || n > MAX || bridge < 0) {
            throw new IndexOutOfBoundsException("frames " + from + "+" + n + " of " + list.length + ", max " + MAX);
        }
        if (count != 0) {
            throw new IllegalStateException(count + " detached pre-images not released");
        }
        if (frames == null) {
            frames = views.allocate(JAVA_LONG, MAX);
            slots = views.allocate(JAVA_LONG, MAX);
            addrs = views.allocate(JAVA_LONG, MAX);
            keep = views.allocate(MAX);
        }
        if (arena.kernelTracking().on()) {
            keep.asSlice(0, n).fill((byte) 0);
        }
        MemorySegment.copy(list, from, frames, JAVA_LONG, 0, n);
        count = n; // the native call zeroes [0, n) first: released below even if it fails
        MemorySegment f = frames;
        MemorySegment s = slots;
        MemorySegment a = addrs;
        return Downcall.checkedLong(
                "qs_mark_clean_list_detach",
                () -> "detaching " + n + " frames clean from frame " + (n > 0 ? list[from] : -1),
                () -> (long) NativeCalls.MarkCleanListDetach.H.invokeExact(handle, f, (long) n, bridge, s, a));
    }

    /** Listed frames of the last {@link #detachClean} whose slots are held (0 after {@link #release}). */
    public synchronized int count() {
        return count;
    }

    /**
     * The pre-image of the {@code k}-th listed frame (its bytes at its first write in the transaction), or
     * {@link MemorySegment#NULL} if it was not dirty. Valid until {@link #release}.
     */
    public synchronized MemorySegment preimage(int k) {
        if (k < 0 || k >= count) {
            throw new IndexOutOfBoundsException("detached pre-image " + k + " of " + count);
        }
        long addr = addrs.getAtIndex(JAVA_LONG, k);
        return addr == 0 ? MemorySegment.NULL : addressSpace.asSlice(addr, arena.frameSize());
    }

    /**
     * Under {@linkplain KernelTracking kernel write tracking}: the caller has brought {@link #preimage}{@code (k)} to
     * the page as logged (its record's after-images applied, its new LSN set); at {@link #release} the slot becomes
     * the frame's twin instead of going back to the free list (the frame stays writable). Open frames not kept are
     * write-protected again at release (page protection's clean state).
     */
    public synchronized void keepAsTwin(int k) {
        if (k < 0 || k >= count) {
            throw new IndexOutOfBoundsException("detached pre-image " + k + " of " + count);
        }
        keep.set(java.lang.foreign.ValueLayout.JAVA_BYTE, k, (byte) 1);
    }

    /**
     * Gives every held slot back to the arena's free list (idempotent); under kernel tracking, each {@linkplain
     * #keepAsTwin kept} slot becomes its frame's twin instead and the cleaned frames that got none are
     * write-protected again. Returns how many slots were released, or kept as twins.
     */
    public synchronized long release() {
        if (count == 0) {
            return 0;
        }
        int n = count;
        count = 0;
        MemorySegment s = slots;
        if (arena.kernelTracking().on()) {
            MemorySegment f = frames;
            MemorySegment k = keep;
            return Downcall.checkedLong("qs_kwp_settle", () -> "settling " + n + " committed frames", () ->
                    (long) NativeCalls.KwpSettle.H.invokeExact(handle, f, s, k, (long) n));
        }
        return Downcall.checkedLong("qs_preimage_release_list", () -> "releasing " + n + " detached pre-images", () ->
                (long) NativeCalls.PreimageReleaseList.H.invokeExact(handle, s, (long) n));
    }

    /** {@link #release}. */
    @Override
    public void close() {
        release();
    }
}
