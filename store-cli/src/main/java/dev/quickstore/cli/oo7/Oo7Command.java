package dev.quickstore.cli.oo7;

import dev.quickstore.oo7.Oo7Builder;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Store;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code qs oo7 ...}: the OO7 benchmark driver (Carey, DeWitt, Naughton 1993; QuickStore paper sections 4-5). */
@Command(
        name = "oo7",
        mixinStandardHelpOptions = true,
        header = "The OO7 benchmark: build a database, run its operations, report.",
        description =
                "The OO7 benchmark: build a database and run its traversals, queries and structural modifications.",
        subcommands = {
            Oo7RunCommand.class,
            Oo7BuildCommand.class,
            Oo7MultiUserCommand.class,
            Oo7ReportCommand.class,
            Oo7ColdProcess.ColdOp.class,
            Oo7MultiUserCommand.Client.class
        })
public final class Oo7Command implements Runnable {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static <E extends Enum<E>> E parse(Class<E> type, String option, String value) {
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": unknown value '" + value + "'; expected one of "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    /** Where cold operations run: see {@code qs oo7 run --help}. */
    enum ColdMode {
        /** Close and reopen the store in the measuring JVM before every cold operation. */
        IN_PROCESS,
        /** Run every cold operation in a freshly started JVM on the built store ({@link Oo7ColdProcess}). */
        PROCESS,
        /** No cold phase. */
        NONE;

        static ColdMode of(String value) {
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "in-process", "inprocess", "reopen" -> IN_PROCESS;
                case "process", "fresh-process" -> PROCESS;
                case "none", "off" -> NONE;
                default ->
                    throw new IllegalArgumentException(
                            "--cold: unknown value '" + value + "'; expected one of [in-process, process, none]");
            };
        }
    }

    /** The file in a store directory built by {@code qs oo7 build} that records the size and seed. */
    static final String DESCRIPTION_FILE = "oo7.properties";

    /**
     * Build progress on stderr: on a terminal one bar per phase, redrawn in place; otherwise (logs, pipes) a
     * line at every tenth.
     */
    static Oo7Builder.Progress progress(PrintWriter err, Oo7Config config, String system) {
        boolean terminal = System.console() != null && System.console().isTerminal();
        return (phase, done, total) -> {
            if (terminal) {
                int width = 30;
                int filled = total == 0 ? width : (int) (done * width / total);
                if (done == total || done % Math.max(1, total / 100) == 0) {
                    err.printf(
                            Locale.ROOT,
                            "\rbuilding OO7 %s on %s: %-16s [%s%s] %3d%%",
                            config.name(),
                            system,
                            phase,
                            "#".repeat(filled),
                            ".".repeat(width - filled),
                            total == 0 ? 100 : done * 100 / total);
                    if (done == total) {
                        err.println();
                    }
                    err.flush();
                }
            } else if (done == total || done % Math.max(1, total / 10) == 0) {
                err.printf(Locale.ROOT, "building OO7 %s on %s: %s %d/%d%n", config.name(), system, phase, done, total);
                err.flush();
            }
        };
    }

    /**
     * Deletes {@code root} and everything in it. From the shutdown hook this races with the run it interrupts,
     * which may still create files (a log segment, a checkpoint's control file) until the JVM halts: files that
     * vanish are skipped, and a directory that is not empty yet is walked again, for up to about two seconds.
     */
    static void deleteTree(Path root) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 100; attempt++) {
            if (!Files.exists(root)) {
                return;
            }
            try (java.util.stream.Stream<Path> walk = Files.walk(root)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
                return;
            } catch (java.nio.file.DirectoryNotEmptyException | java.io.UncheckedIOException e) {
                last = e instanceof IOException io ? io : ((java.io.UncheckedIOException) e).getCause();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException stop) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw last != null ? last : new IOException("could not delete " + root);
    }

    static long build(Oo7Store store, Oo7Config config, long seed, PrintWriter err) {
        long t0 = System.nanoTime();
        new Oo7Builder(config, seed).build(store, progress(err, config, store.name()));
        return System.nanoTime() - t0;
    }

    /** The bytes of the regular files under {@code dir}: a peer's database size on disk. */
    static long directoryBytes(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            long total = 0;
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                total += Files.size(p);
            }
            return total;
        }
    }

    /** Reads {@link #DESCRIPTION_FILE} of a store built by {@code qs oo7 build}. */
    static Properties description(Path dir) throws IOException {
        Path file = dir.resolve(DESCRIPTION_FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("--store " + dir + ": no OO7 database there (no " + DESCRIPTION_FILE
                    + "); build one first: qs oo7 build --size small " + dir);
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return p;
    }
}
