package dev.quickstore.cli;

import java.io.IOException;
import java.io.Serial;

/**
 * {@code qs stats --pid}: the other process cannot be read - there is no such process, it is not a JVM, it
 * refused the attach, or it has no store open. The message is the one line the shell prints (exit 4).
 */
final class ProcessAttachException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    ProcessAttachException(String message) {
        super(message);
    }

    ProcessAttachException(String message, Throwable cause) {
        super(message, cause);
    }
}
