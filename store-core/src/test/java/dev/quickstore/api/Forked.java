package dev.quickstore.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a main class of the test class path in a fresh JVM and returns its standard output. */
final class Forked {
    private Forked() {}

    record Result(int exit, String out, String err) {}

    static Result run(Path work, List<String> jvmFlags, Class<?> main, String... args)
            throws IOException, InterruptedException {
        return run(work, jvmFlags, 300, main, args);
    }

    /** As above, killing the child after {@code timeoutSeconds}. */
    static Result run(Path work, List<String> jvmFlags, int timeoutSeconds, Class<?> main, String... args)
            throws IOException, InterruptedException {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xmx1g"));
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(work, "child", ".out");
        Path err = Files.createTempFile(work, "child", ".err");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("child JVM " + main.getSimpleName() + " timed out after " + timeoutSeconds + " s");
        }
        return new Result(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }
}
