package dev.quickstore.cli;

import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/** The store directory, the first parameter of every command that works on one store (a picocli mixin). */
public final class StoreDir {
    @Parameters(index = "0", paramLabel = "DIR", description = "store directory")
    Path dir;

    public Path path() {
        return dir;
    }
}
