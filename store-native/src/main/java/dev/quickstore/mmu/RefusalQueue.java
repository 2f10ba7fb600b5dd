package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * Refused faults as Java sees them ({@code qs_refusal.c}; design-notes section 2a): a fault the store must
 * refuse (checksum, I/O error, unreserved or released frame, no transaction) does not throw at the faulting
 * instruction; the access completes on a scratch page, the data plane records the refusal and bumps a
 * pending word. {@link #checkPending()} - one acquire load when nothing is pending, so cheap enough for every
 * API boundary - throws {@link FaultRefusedException} naming the address, page and reason. One per {@link
 * MappedArena} ({@link MappedArena#refusals()}).
 */
public final class RefusalQueue {
    private static final VarHandle LONG_ACQUIRE = JAVA_LONG.varHandle();

    private final long handle;
    private final MemorySegment pending;

    RefusalQueue(long handle, MemorySegment pending) {
        this.handle = handle;
        this.pending = pending;
    }

    /** Whether a refusal is waiting to be taken by {@link #checkPending()} (one acquire load). */
    public boolean hasPending() {
        return (long) LONG_ACQUIRE.getAcquire(pending, 0L) != 0;
    }

    /**
     * Throws {@link FaultRefusedException} if the fault path refused an access since the last check: the
     * calling thread's oldest refusal if it has one, otherwise the oldest of any thread. Each refusal is
     * thrown exactly once. Costs one acquire load when nothing is pending.
     */
    public void checkPending() {
        if ((long) LONG_ACQUIRE.getAcquire(pending, 0L) != 0) {
            throwPending();
        }
    }

    private void throwPending() {
        long[] r = new long[7];
        int taken = Downcall.intValue("qs_refusal_take", () -> {
            try (Arena tmp = Arena.ofConfined()) {
                MemorySegment out = tmp.allocate(JAVA_LONG, r.length);
                int rc = (int) NativeCalls.RefusalTake.H.invokeExact(handle, out);
                MemorySegment.copy(out, JAVA_LONG, 0, r, 0, r.length);
                return rc;
            }
        });
        if (taken != 0) { // 0: another thread took it
            throw new FaultRefusedException(
                    r[3], r[4], r[5], RefusalReason.of(r[0]), (int) r[1], (int) r[2], r[6] == 1);
        }
    }
}
