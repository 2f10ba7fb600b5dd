package dev.quickstore.jmh;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Files of a benchmark's trial: its temporary directory, deleted with everything in it at the trial's end. */
public final class BenchFiles {
    private BenchFiles() {}

    /** Deletes {@code dir} and everything below it (deepest first); nothing if it does not exist. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
