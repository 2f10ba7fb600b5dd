package dev.quickstore.core.remote;

import dev.quickstore.core.error.StoreException;
import java.io.Serial;

/**
 * The page server cannot be reached: it refused the connection, did not answer within the deadline, closed
 * the connection, or broke the protocol. Faults in flight were refused (they read nothing); the client can
 * {@linkplain RemotePages#connect connect} again once the server is back.
 */
public final class ServerUnavailableException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    public ServerUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
