package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Pre-images and the dirty set of an arena ({@code qs_preimage.c}, the dirty half of {@code qs_frames.c}; White
 * and DeWitt, "QuickStore", SIGMOD 1994, section 3.3: the copy of a page taken at its first write, which commit
 * diffs against): the store's own dirtying through the alias view, the pre-images a commit reads, and cleaning
 * after write-back. Application stores are captured by the fault path (or the {@linkplain CardTable card barrier})
 * with no Java involved; either way the frame ends DIRTY with a native pre-image. One per {@link MappedArena}
 * ({@link MappedArena#preimages()}).
 *
 * <p>Invariant: a frame has a pre-image exactly while it is DIRTY, or CLEAN with a twin under {@linkplain
 * KernelTracking kernel write tracking}; cleaning frees it, or hands it to {@link DetachedPreimages} (which frees it
 * on release, or makes it the frame's twin).
 */
public final class PreimageCapture {
    private final MappedArena arena;
    private final long handle;
    private final FrameListBuffer frameList;
    /**
     * All of the address space, scoped to the arena's views: pre-images are sliced from it ({@code asSlice})
     * instead of {@code reinterpret}ed one by one, a restricted method whose caller check walks the stack on every
     * call (1.8% of a one-page durable commit's CPU samples, docs/results.md "Durable commit latency: where the
     * time goes").
     */
    private final MemorySegment addressSpace;

    private final DetachedPreimages detached;

    PreimageCapture(
            MappedArena arena,
            long handle,
            FrameListBuffer frameList,
            MemorySegment addressSpace,
            DetachedPreimages detached) {
        this.detached = detached;
        this.arena = arena;
        this.handle = handle;
        this.frameList = frameList;
        this.addressSpace = addressSpace;
    }

    /**
     * The pre-image of a DIRTY frame (its bytes at the first write fault), or a CLEAN frame's twin (kernel write
     * tracking), or empty if it has neither. Valid until the frame is cleaned, evicted or released.
     */
    public MemorySegment preimage(long frame) {
        arena.checkFrame(frame);
        long addr =
                Downcall.longValue("qs_preimage_of", () -> (long) NativeCalls.PreimageOf.H.invokeExact(handle, frame));
        return addr == 0 ? MemorySegment.NULL : addressSpace.asSlice(addr, arena.frameSize());
    }

    /**
     * The arena's holder of pre-images detached by a clean list: what a commit that diffs after the clean point
     * uses instead of copying each pre-image before {@link #markCleanList}.
     */
    public DetachedPreimages detached() {
        return detached;
    }

    /** The indices of all DIRTY frames, ascending. */
    public long[] dirtyFrames() {
        return frameList.list(NativeCalls.DirtyList.H, "qs_dirty_list");
    }

    /**
     * The caller is about to write a resident frame through the {@linkplain MappedArena#alias() alias view}
     * (which never faults): captures its pre-image exactly as a write fault would and makes the
     * application view writable. Returns true if captured, false if the frame was DIRTY already.
     *
     * @throws ArenaException if the frame is not resident or no pre-image slot could be mapped
     */
    public boolean markDirty(long frame) {
        arena.checkFrame(frame);
        return Downcall.checkedInt("qs_mark_dirty", () -> "marking frame " + frame + " dirty", () ->
                        (int) NativeCalls.MarkDirty.H.invokeExact(handle, frame))
                == 1;
    }

    /**
     * The caller is about to write frames {@code [first, first + count)} through the application view (a large
     * object's pages): write-ahead announced instead of detected ({@code qs_mark_dirty_run}, ABI 14). Each frame
     * that is clean, readable and free gets its pre-image as its write fault would take it, and each run of them
     * is made writable with one {@code mprotect}; the others take their write faults as before. Nothing unless
     * write-ahead is on ({@link FrameLoading#writeAhead}: not under card marking, scanning or page locking).
     * Returns the frames made dirty.
     *
     * @throws ArenaException if the range leaves the arena
     */
    public long markDirtyRun(long first, long count) {
        return Downcall.checkedLong(
                "qs_mark_dirty_run", () -> "announcing writes to frames " + first + "+" + count, () ->
                        (long) NativeCalls.MarkDirtyRun.H.invokeExact(handle, first, count));
    }

    /** {@code -ENOENT}: {@link #makeNew}'s first frame was in a state only the general path handles. */
    private static final long ENOENT = -2;

    /** {@code -EAGAIN}: {@link #makeNew}'s {@code mprotect} failed (the VMA limit), nothing changed. */
    private static final long EAGAIN = -11;

    /** {@code -ENOTSUP}: {@link #makeNew} in a mode where a pre-image is written or a page locked. */
    private static final long ENOTSUP = -95;

    /**
     * Frames {@code [first, first + count)} receive pages the running transaction has just allocated (the first) or
     * may allocate next (free pages after it): each frame this call can take - reserved (it becomes resident; the
     * first may evict for it, the others only below the arena's bound and at most {@code installs} of them: the room
     * the caller's pool has without evicting) or clean, enabled and not disk-dirty; the run stops at the first it
     * cannot - holds zeros, is DIRTY against the arena's shared zero pre-image (no slot, no copy, no
     * pre-image bytes) and writable through the application view, one {@code mprotect} for the run ({@code
     * qs_make_new}, ABI 20). At most 64 frames. Returns the frames made new (at least 1), 0 if the first frame was
     * DIRTY already (left as it is), or -1 with nothing changed if it was in another state, the {@code mprotect}
     * failed (the VMA limit: the general path collapses protection islands) or the arena writes pre-images or locks
     * pages (kernel write tracking, scanning, page locking, Texas): then the caller takes the general path.
     *
     * @throws ArenaException if the range leaves the arena
     */
    public long makeNew(long first, long count, long installs) {
        long rc = Downcall.longValue(
                "qs_make_new", () -> (long) NativeCalls.MakeNew.H.invokeExact(handle, first, count, installs));
        if (rc == ENOENT || rc == EAGAIN || rc == ENOTSUP) {
            return -1;
        }
        return Downcall.check(rc, () -> "making frames " + first + "+" + count + " new");
    }

    /**
     * {@link #markDirty} for a frame the application never stores to through the view (the store's B+tree nodes):
     * captures the pre-image but leaves the view read-only (no {@code mprotect}, ~10 us each); should the
     * application store to it after all, the fault path opens the view then, and {@link #markDirty} opens it for a
     * frame reused for objects. Returns true if captured, false if the frame was DIRTY already.
     *
     * @throws ArenaException if the frame is not resident or no pre-image slot could be mapped
     */
    public boolean markDirtyAliasOnly(long frame) {
        arena.checkFrame(frame);
        return Downcall.checkedInt("qs_mark_dirty_alias", () -> "marking frame " + frame + " dirty", () ->
                        (int) NativeCalls.MarkDirtyAlias.H.invokeExact(handle, frame))
                == 1;
    }

    /** After write-back: DIRTY to CLEAN, pre-image freed, writes fault again. Returns whether it was dirty. */
    public boolean markClean(long frame) {
        return Downcall.checkedInt("qs_mark_clean", () -> "marking frame " + frame + " clean", () ->
                        (int) NativeCalls.MarkClean.H.invokeExact(handle, frame))
                == 1;
    }

    /**
     * {@link #markClean} for {@code frames[from..from+count)} (ascending), with one {@code mprotect} per run
     * instead of one per frame (qs_frames.c {@code qs_mark_clean_list}): a run is listed frames and the clean,
     * read-only frames between them, at most {@code bridge} in a row (their protection is READ already). What a
     * commit does to the dirty pages it logged. Frames not dirty are left alone. Returns the frames cleaned.
     *
     * @throws ArenaException for a frame outside the arena or a list not strictly ascending
     */
    public long markCleanList(long[] frames, int from, int count, int bridge) {
        if (from < 0 || count < 0 || from + count > frames.length || bridge < 0) {
            throw new IndexOutOfBoundsException(
                    "frames " + from + "+" + count + " of " + frames.length + ", bridge " + bridge);
        }
        if (count > FrameListBuffer.FRAMES) {
            try (Arena tmp = Arena.ofConfined()) {
                return markCleanList(tmp.allocate(JAVA_LONG, count), frames, from, count, bridge);
            }
        }
        // the common case (a commit's runs of at most 64 pages): nothing allocated
        return frameList.withBuffer(list -> markCleanList(list, frames, from, count, bridge));
    }

    private long markCleanList(MemorySegment list, long[] frames, int from, int count, int bridge) {
        MemorySegment.copy(frames, from, list, JAVA_LONG, 0, count);
        return Downcall.checkedLong(
                "qs_mark_clean_list",
                () -> "marking " + count + " frames clean from frame " + (count > 0 ? frames[from] : -1),
                () -> (long) NativeCalls.MarkCleanList.H.invokeExact(handle, list, (long) count, bridge));
    }
}
