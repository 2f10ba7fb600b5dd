package dev.quickstore.core.error;

import java.io.Serial;

/** An insert into a unique index found the key already present. */
public class DuplicateKeyException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    public DuplicateKeyException(String message) {
        super(message);
    }
}
