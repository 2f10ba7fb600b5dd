package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Kernel write tracking ({@code qs_kwp.c}, ABI 15; docs/native.md "Kernel write tracking"): page protection whose
 * committed frames stay writable with a twin - the page as last logged - while the kernel records their stores
 * (userfaultfd write-protection in asynchronous mode, Linux 6.7+). A sixth write-detection scheme beside Hosking
 * and Moss's five ("Lightweight write detection and checkpointing for fine-grained persistence", 1995, section 3:
 * "pages" with the fault resolved by the kernel instead of a signal handler, and the checkpoint's write-protect
 * done by {@code PAGEMAP_SCAN} without an {@code mprotect} per run). One per {@link MappedArena} ({@link
 * MappedArena#kernelTracking()}); off until {@link #select}.
 *
 * <p>Invariants (native): a twin frame is CLEAN, writable, and its pre-image slot holds its page as last logged;
 * every store to it since shows in the next {@link #collect}; it is never evicted while written.
 */
public final class KernelTracking {
    /** {@code QS_WD_KERNEL} of qs_kwp.c: the argument of {@code qs_arena_set_write_detection}. */
    private static final int SELECT = 0x200;

    private static final int MODE_DIRTY = 0;
    private static final int MODE_RESTORE = 1;

    /** Frames a {@link #restoreStrays} names at most. */
    public static final int NAMED = 16;

    private final long handle;
    private final Arena views;
    private MemorySegment named;
    private volatile boolean on;

    KernelTracking(long handle, Arena views) {
        this.handle = handle;
        this.views = views;
    }

    /**
     * Whether this kernel and process can track writes this way: null if so, else why not (the errno and what it
     * usually means), for an error message.
     */
    public static String unavailableReason() {
        int rc = Downcall.intValue("qs_kwp_probe", () -> (int) NativeCalls.KwpProbe.H.invokeExact());
        return switch (rc) {
            case 0 -> null;
            case -38 -> "userfaultfd is not available (ENOSYS: a kernel without CONFIG_USERFAULTFD)";
            case -1, -13 ->
                "userfaultfd is not permitted here (" + (rc == -1 ? "EPERM" : "EACCES")
                        + ": a seccomp profile or vm.unprivileged_userfaultfd forbids it)";
            case -22 ->
                "the kernel lacks asynchronous userfaultfd write-protection (EINVAL: Linux 6.7 or later"
                        + " with shmem write-protect support is needed)";
            default -> "probing userfaultfd failed with errno " + -rc;
        };
    }

    /**
     * Switches the arena to kernel write tracking before any frame is resident.
     *
     * @throws ArenaException with EBUSY if frames are resident or another scheme is selected, or the errno of
     *     the kernel's refusal (see {@link #unavailableReason})
     */
    public synchronized void select() {
        Downcall.checkedInt("qs_arena_set_write_detection", () -> "selecting kernel write tracking", () ->
                (int) NativeCalls.SetWriteDetection.H.invokeExact(handle, SELECT));
        on = true;
    }

    /** The granularity of {@link #writtenPages}: the OS page size. */
    public static int pageBytes() {
        return Downcall.intValue("qs_kwp_page_bytes", () -> (int) NativeCalls.KwpPageBytes.H.invokeExact());
    }

    /**
     * The OS pages of DIRTY frame {@code frame} the kernel saw written since it was a twin (bit k = the k-th
     * {@link #pageBytes} of the frame), or -1 when the frame must be diffed whole (it was not a twin, or the store
     * wrote it through the alias as well). Read before the frame's dirty state ends.
     */
    public long writtenPages(long frame) {
        return Downcall.longValue("qs_kwp_mask", () -> (long) NativeCalls.KwpMask.H.invokeExact(handle, frame));
    }

    /** Whether {@link #select} switched it on. */
    public boolean on() {
        return on;
    }

    /**
     * The clean point of a commit, an abort or an eviction: every page written since the last collect is
     * write-protected again and each written twin frame becomes DIRTY with its twin as pre-image, so the dirty
     * set holds every frame written. Returns how many twin frames became dirty.
     */
    public synchronized long collect() {
        return Downcall.checkedLong("qs_kwp_collect", () -> "collecting the frames the kernel saw written", () ->
                (long) NativeCalls.KwpCollect.H.invokeExact(handle, MODE_DIRTY, MemorySegment.NULL, 0L));
    }

    /**
     * When a transaction begins: puts back the twin of every twin frame written since the last collect (a store
     * outside a transaction, which page protection refuses with a fault) and returns up to {@value #NAMED} of
     * those frames, ascending (empty when there were none).
     */
    public synchronized long[] restoreStrays() {
        if (named == null) {
            named = views.allocate(JAVA_LONG, NAMED);
        }
        MemorySegment out = named;
        long n = Downcall.checkedLong("qs_kwp_collect", () -> "undoing stores outside a transaction", () ->
                (long) NativeCalls.KwpCollect.H.invokeExact(handle, MODE_RESTORE, out, (long) NAMED));
        long[] frames = new long[(int) Math.min(n, NAMED)];
        MemorySegment.copy(out, JAVA_LONG, 0, frames, 0, frames.length);
        return frames;
    }
}
