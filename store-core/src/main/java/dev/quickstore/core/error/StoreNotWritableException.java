package dev.quickstore.core.error;

import java.io.Serial;
import java.nio.file.Path;

/**
 * The store's directory cannot be written (a read-only mount, or permissions): a store opened for updates needs
 * its lock file, log and volume writable. Thrown at the opening, before anything is read or changed; the message
 * names the directory, the file that could not be opened and the system's reason, and says what still works
 * (the read-only inspection: {@code qs info}, {@code qs verify --files-only}).
 */
public class StoreNotWritableException extends StoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient Path directory;

    public StoreNotWritableException(Path directory, Path file, String reason, Throwable cause) {
        super(
                "store directory " + directory + " is not writable (" + file + ": " + reason + "); opening it for"
                        + " updates needs a writable directory; qs info and qs verify --files-only read it as it is",
                cause);
        this.directory = directory;
    }

    /** The store's directory. */
    public Path directory() {
        return directory;
    }
}
