package dev.quickstore.cli;

import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/**
 * The store, the first parameter of every command that works on one store (a picocli mixin): a directory,
 * or - for the commands that can ask a page server ({@code qs info}) - a {@code qs://host:port} address.
 */
public final class StoreDir {
    @Parameters(index = "0", paramLabel = "DIR", description = "store directory")
    String dir;

    /**
     * The store directory.
     *
     * @throws IllegalArgumentException if a page server's address was given to a command that needs the files
     */
    public Path path() {
        if (isServer()) {
            throw new IllegalArgumentException(dir + " is a page server's address; this command works on a store"
                    + " directory (of the commands, qs info, qs stats and qs verify accept a qs:// address)");
        }
        return Path.of(dir);
    }

    /** Whether a page server's address ({@code qs://host:port}) was given instead of a directory. */
    public boolean isServer() {
        return dir.startsWith("qs://");
    }

    /** The argument as given. */
    public String raw() {
        return dir;
    }
}
