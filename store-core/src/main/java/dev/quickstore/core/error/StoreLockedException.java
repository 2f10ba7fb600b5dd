package dev.quickstore.core.error;

import java.io.Serial;

/** The store is held open by another process (or another handle in this process). */
public class StoreLockedException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    public StoreLockedException(String message) {
        super(message);
    }
}
