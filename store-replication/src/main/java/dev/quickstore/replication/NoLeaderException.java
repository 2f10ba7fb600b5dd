package dev.quickstore.replication;

import dev.quickstore.core.error.StoreException;
import java.io.Serial;

/**
 * No member of a replication group accepted the client within the time given: none answered, or none was a
 * ready leader (an election is running, or a majority is down). The message names what each member said.
 */
public final class NoLeaderException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    public NoLeaderException(String message, Throwable cause) {
        super(message, cause);
    }
}
