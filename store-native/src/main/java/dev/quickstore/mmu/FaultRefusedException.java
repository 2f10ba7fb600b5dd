package dev.quickstore.mmu;

import java.io.Serial;
import java.util.HexFormat;

/**
 * The data plane refused a fault on the arena. Thrown by {@link RefusalQueue#checkPending()} - not at
 * the faulting instruction: between the refusal and the check the faulting access and any later
 * access to the same frame completed on a scratch page (loads returned zeros, or the old bytes of a
 * resident page for a refused write; stores went to the scratch page and never reach the store). The
 * caller must treat everything computed since its last check as garbage (doom the transaction).
 */
public final class FaultRefusedException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long address;
    private final long frame;
    private final long page;
    private final RefusalReason reason;
    private final int errno;
    private final int nativeThreadId;
    private final boolean faultedOnThisThread;

    FaultRefusedException(
            long address,
            long frame,
            long page,
            RefusalReason reason,
            int errno,
            int nativeThreadId,
            boolean faultedOnThisThread) {
        super(message(address, frame, page, reason, errno, nativeThreadId, faultedOnThisThread));
        this.address = address;
        this.frame = frame;
        this.page = page;
        this.reason = reason;
        this.errno = errno;
        this.nativeThreadId = nativeThreadId;
        this.faultedOnThisThread = faultedOnThisThread;
    }

    private static String message(
            long address, long frame, long page, RefusalReason reason, int errno, int tid, boolean self) {
        StringBuilder b = new StringBuilder("refused access to arena address 0x")
                .append(HexFormat.of().toHexDigits(address))
                .append(" (frame ")
                .append(frame)
                .append(", page ")
                .append(page)
                .append("): ")
                .append(reason.description());
        if (errno != 0) {
            b.append(" (errno ").append(errno).append(')');
        }
        if (reason == RefusalReason.VMA_LIMIT) {
            b.append("; raise vm.max_map_count or reprotect/evict frames to coalesce mappings");
        }
        b.append("; faulting native thread ").append(tid).append(self ? " (this thread)" : " (another thread)");
        return b.toString();
    }

    /** The faulting address in the application view. */
    public long address() {
        return address;
    }

    /** The frame index of the address. */
    public long frame() {
        return frame;
    }

    /** The page the frame was reserved for (0 if none). */
    public long page() {
        return page;
    }

    public RefusalReason reason() {
        return reason;
    }

    /** The errno of a failed read or mapping, or 0. */
    public int errno() {
        return errno;
    }

    /** The Linux thread id of the thread that faulted. */
    public int nativeThreadId() {
        return nativeThreadId;
    }

    /** Whether the refused fault happened on the thread that called {@code checkPending()}. */
    public boolean faultedOnThisThread() {
        return faultedOnThisThread;
    }
}
