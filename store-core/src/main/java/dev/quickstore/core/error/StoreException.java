package dev.quickstore.core.error;

import java.io.Serial;

/** Base of every exception the store raises on purpose; the message is meant for the user. */
public class StoreException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
