package dev.quickstore.mmu;

/**
 * Buffer replacement run by the data plane ({@code qs_clock.c}) whenever a load - an application fault,
 * {@link FrameLoading#install} or {@link FrameLoading#prefetch} - would exceed the resident budget of {@link
 * MappedArena#budgets}. Victims are clean frames without a {@linkplain #hold hold}; dirty frames stay (Java
 * steals them). Java and the fault path share one hand and one set of frame flags, so Java keeps no copy of
 * the policy state. One per {@link MappedArena} ({@link MappedArena#clock()}).
 */
public final class ReplacementClock {
    /** Hold bit: the frame is fixed by the running store operation (a store fix is also a reference). */
    public static final int HOLD_PINNED = 0x20;
    /** Hold bit: committed changes of the frame are only in the log; Java writes it back first. */
    public static final int HOLD_WAL = 0x40;

    private final MappedArena arena;
    private final long handle;

    ReplacementClock(MappedArena arena, long handle) {
        this.arena = arena;
        this.handle = handle;
    }

    /** Selects the replacement policy of the data plane ({@link Replacement#STORE_CLOCK}: its fall-back). */
    public void policy(Replacement p) {
        Downcall.checkedInt("qs_arena_set_policy", () -> "selecting replacement policy " + p, () ->
                (int) NativeCalls.SetPolicy.H.invokeExact(handle, p.code));
    }

    /**
     * Evicts one frame chosen by the policy (the same hand the fault path uses); returns its index, or -1 if
     * no frame is evictable (every resident frame dirty, held or busy).
     *
     * @throws ArenaException with EINVAL under {@link Replacement#STORE_CLOCK}
     */
    public long evictOne() {
        long rc = Downcall.longValue("qs_clock_evict", () -> (long) NativeCalls.ClockEvict.H.invokeExact(handle));
        return rc == -1
                ? -1
                : Downcall.check(
                        rc,
                        () -> "evicting by the data plane's clock (select SIMPLIFIED_CLOCK or CLASSIC_CLOCK first)");
    }

    /** Sets or clears hold bits on a frame: the replacement clock never evicts a held frame. */
    public void hold(long frame, int bits, boolean on) {
        Downcall.checkedInt(
                "qs_frame_hold",
                () -> "holding frame " + frame + " of " + arena.frameCount() + " (bits 0x" + Integer.toHexString(bits)
                        + "; bits must be HOLD_PINNED|HOLD_WAL)",
                () -> (int) NativeCalls.FrameHold.H.invokeExact(handle, frame, bits, on ? 1 : 0));
    }
}
