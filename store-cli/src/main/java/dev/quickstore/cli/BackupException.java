package dev.quickstore.cli;

import java.io.Serial;

/** A backup directory that does not match its manifest, or a foreign manifest (exit code 3, damaged). */
final class BackupException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    BackupException(String message) {
        super(message);
    }
}
