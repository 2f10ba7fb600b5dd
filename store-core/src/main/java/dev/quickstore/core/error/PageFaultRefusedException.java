package dev.quickstore.core.error;

import dev.quickstore.mmu.FaultRefusedException;
import dev.quickstore.mmu.RefusalReason;
import java.io.Serial;

/**
 * The data plane refused a page fault on the store's application view ({@code Store.view()}): a page
 * failed its checksum or could not be read, the address is not part of the volume, or the access
 * happened outside a transaction. The faulting access completed on a scratch page (zeros, or a private
 * copy of the page for a refused store), so everything computed from it since the previous check is
 * garbage: the running transaction is doomed and can only be aborted. Raised by {@code
 * Store#checkPending()} and at every transaction boundary; the cause is the data plane's record.
 */
public final class PageFaultRefusedException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long address;
    private final long page;
    private final RefusalReason reason;

    public PageFaultRefusedException(FaultRefusedException cause, long page, String store, boolean doomed) {
        super(
                String.format(
                        "access to address 0x%x (page %d of store %s) was refused: %s%s; %s",
                        cause.address(),
                        page,
                        store,
                        cause.reason().description(),
                        cause.errno() != 0 ? " (errno " + cause.errno() + ")" : "",
                        doomed
                                ? "the transaction is doomed: abort it (values read since the last check are zeros)"
                                : "no transaction was running; values read since the last check are zeros"),
                cause);
        this.address = cause.address();
        this.page = page;
        this.reason = cause.reason();
    }

    /** The faulting address (a store reference). */
    public long address() {
        return address;
    }

    /** The volume page of the address. */
    public long page() {
        return page;
    }

    public RefusalReason reason() {
        return reason;
    }

    /** The data plane's record (thread, frame, errno). */
    @Override
    public synchronized FaultRefusedException getCause() {
        return (FaultRefusedException) super.getCause();
    }
}
