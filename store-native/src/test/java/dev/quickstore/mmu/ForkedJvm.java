package dev.quickstore.mmu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class in a child JVM (same java, same class path, native access enabled) with a hard
 * timeout: tests that can crash or hang the JVM run there. Output goes to files so a chatty child
 * cannot block on a full pipe.
 */
final class ForkedJvm {
    /** The outcome of a child run. */
    record Result(int exitCode, boolean timedOut, String stdout, String stderr, List<String> command) {
        /** A description for assertion messages. */
        String describe() {
            return "command: " + String.join(" ", command) + "\nexit " + exitCode
                    + (timedOut ? " (TIMED OUT, killed)" : "") + "\n--- stdout ---\n" + tail(stdout)
                    + "\n--- stderr ---\n" + tail(stderr);
        }

        private static String tail(String s) {
            return s.length() > 6000 ? "...\n" + s.substring(s.length() - 6000) : s;
        }
    }

    private final String mainClass;
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>();
    private Duration timeout = Duration.ofSeconds(60);

    private ForkedJvm(String mainClass) {
        this.mainClass = mainClass;
    }

    static ForkedJvm main(Class<?> mainClass) {
        return new ForkedJvm(mainClass.getName());
    }

    ForkedJvm jvmArgs(String... a) {
        jvmArgs.addAll(List.of(a));
        return this;
    }

    ForkedJvm args(String... a) {
        args.addAll(List.of(a));
        return this;
    }

    ForkedJvm env(String key, String value) {
        env.put(key, value);
        return this;
    }

    ForkedJvm timeout(Duration t) {
        timeout = t;
        return this;
    }

    static String javaExecutable() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    Result run() throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-XX:ErrorFile=" + tmpDir().resolve("hs_err_pid%p.log"));
        String nativeDir = System.getProperty(NativeLibrary.DIR_PROPERTY);
        if (nativeDir != null) {
            cmd.add("-D" + NativeLibrary.DIR_PROPERTY + "=" + nativeDir);
        }
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args);
        Path dir = tmpDir();
        Path out = Files.createTempFile(dir, "child-", ".out");
        Path err = Files.createTempFile(dir, "child-", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!done) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        Result r = new Result(
                done ? p.exitValue() : -1,
                !done,
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8),
                List.copyOf(cmd));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        return r;
    }

    static Path tmpDir() throws IOException {
        Path dir = Path.of(System.getProperty("qs.test.tmp", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(dir);
        return dir;
    }

    /** Whether the long variants were requested (-Dqs.long=true, passed through by bin/test). */
    static boolean longMode() {
        return Boolean.getBoolean("qs.long");
    }
}
