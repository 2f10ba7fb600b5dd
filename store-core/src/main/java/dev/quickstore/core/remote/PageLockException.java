package dev.quickstore.core.remote;

import dev.quickstore.core.error.StoreException;
import java.io.Serial;

/**
 * Under page locking ({@code qs serve --cc locking}), the page server refused a page lock the transaction's
 * fault path asked for: granting it would have closed a cycle of waiting transactions (a deadlock), or it
 * was not granted within the server's lock wait. The access was refused (it read zeros, its stores were
 * dropped), so the transaction was doomed; it has been aborted and its locks released. Retry it.
 */
public final class PageLockException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long page;

    public PageLockException(String message, long page, Throwable cause) {
        super(message, cause);
        this.page = page;
    }

    /** The page whose lock was refused. */
    public long page() {
        return page;
    }
}
