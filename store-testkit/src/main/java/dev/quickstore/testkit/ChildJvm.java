package dev.quickstore.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The one way tests start a second JVM: a main class of the test class path in a child process (the same
 * {@code java}, the same class path, native access enabled, an hs_err file in the test directory), always
 * under a watchdog that kills it when its time is up, so no test can hang CI. Tests whose subject can crash
 * or hang the JVM run it here, and crash tests kill it here with a real SIGKILL.
 *
 * <p>Two ways to use it:
 *
 * <ul>
 *   <li>{@link #run()}: wait for the child to exit (or be killed by the watchdog) and get its exit code and
 *       both output streams ({@link Result}; output goes through files, so a chatty child never blocks on a
 *       full pipe).</li>
 *   <li>{@link #start()}: a {@link Running} child whose standard output is read line by line while it runs
 *       (a pump thread queues the lines); {@link Running#kill()} sends SIGKILL and waits for the death;
 *       {@link Running#close()} kills it if it is still alive.</li>
 * </ul>
 *
 * The child gets {@code -Dquickstore.native.dir} and {@code -Dqs.test.tmp} of this JVM when they are set (where
 * the native library and the test files are).
 */
public final class ChildJvm {
    /** How long a child may run unless {@link #timeout} says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(300);

    private static final List<String> PASSED_PROPERTIES = List.of("quickstore.native.dir", "qs.test.tmp");

    private final String mainClass;
    private final List<String> jvmArgs = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final List<String> wrapper = new ArrayList<>();
    private final Map<String, String> env = new HashMap<>();
    private Duration timeout = DEFAULT_TIMEOUT;
    private Path workDir;

    private ChildJvm(String mainClass) {
        this.mainClass = mainClass;
    }

    /** A child that runs {@code mainClass}. */
    public static ChildJvm main(Class<?> mainClass) {
        return new ChildJvm(mainClass.getName());
    }

    /** JVM flags (before the class path), e.g. {@code -Xmx256m}. */
    public ChildJvm jvmArgs(String... a) {
        jvmArgs.addAll(List.of(a));
        return this;
    }

    /** JVM flags (before the class path). */
    public ChildJvm jvmArgs(List<String> a) {
        jvmArgs.addAll(a);
        return this;
    }

    /** Arguments of the main class. */
    public ChildJvm args(String... a) {
        args.addAll(List.of(a));
        return this;
    }

    public ChildJvm env(String key, String value) {
        env.put(key, value);
        return this;
    }

    /**
     * Runs the JVM through {@code wrapper} (a command and its arguments that ends by executing the command line
     * appended to it), e.g. {@code unshare -m sh -c 'mount --bind -o ro "$0" "$0" && exec "$@"' DIR}.
     */
    public ChildJvm wrapper(String... wrapper) {
        this.wrapper.addAll(List.of(wrapper));
        return this;
    }

    /** The watchdog: the child is killed when it runs longer than this. */
    public ChildJvm timeout(Duration t) {
        timeout = t;
        return this;
    }

    /** Where the output files and hs_err files go (default: {@link #tmpDir()}). */
    public ChildJvm workDir(Path dir) {
        workDir = dir;
        return this;
    }

    /** The {@code java} that runs this JVM. */
    public static String javaExecutable() {
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** {@code -Dqs.test.tmp} (set by the build to the module's target/test-tmp), or java.io.tmpdir; created. */
    public static Path tmpDir() throws IOException {
        Path dir = Path.of(System.getProperty("qs.test.tmp", System.getProperty("java.io.tmpdir")));
        Files.createDirectories(dir);
        return dir;
    }

    /** Whether the long variants were requested ({@code -Dqs.long=true}, passed through by bin/test). */
    public static boolean longMode() {
        return Boolean.getBoolean("qs.long");
    }

    private List<String> command(Path dir) {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(javaExecutable());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-XX:ErrorFile=" + dir.resolve("hs_err_pid%p.log"));
        for (String p : PASSED_PROPERTIES) {
            String v = System.getProperty(p);
            if (v != null) {
                cmd.add("-D" + p + "=" + v);
            }
        }
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(args);
        return List.copyOf(cmd);
    }

    private Path dir() throws IOException {
        Path dir = workDir != null ? workDir : tmpDir();
        Files.createDirectories(dir);
        return dir;
    }

    /** The outcome of a child that ran to its end (or was killed by the watchdog). */
    public record Result(int exitCode, boolean timedOut, String stdout, String stderr, List<String> command) {
        /** A description for assertion messages: the command, the exit and the tails of both streams. */
        public String describe() {
            return "command: " + String.join(" ", command) + "\nexit " + exitCode
                    + (timedOut ? " (TIMED OUT, killed)" : "") + "\n--- stdout ---\n" + tail(stdout)
                    + "\n--- stderr ---\n" + tail(stderr);
        }
    }

    private static String tail(String s) {
        return s.length() > 6000 ? "...\n" + s.substring(s.length() - 6000) : s;
    }

    /** Runs the child to its end; the watchdog kills it after the timeout ({@link Result#timedOut()}). */
    public Result run() throws IOException, InterruptedException {
        Path dir = dir();
        List<String> cmd = command(dir);
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
                cmd);
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        return r;
    }

    /** Starts the child; read its output with {@link Running#nextLine}, end it with {@link Running#kill()}. */
    public Running start() throws IOException {
        Path dir = dir();
        List<String> cmd = command(dir);
        Path err = Files.createTempFile(dir, "child-", ".err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(err.toFile());
        pb.environment().putAll(env);
        return new Running(pb.start(), cmd, err, timeout);
    }

    /** A started child: its output lines as they come, and a real SIGKILL. */
    public static final class Running implements AutoCloseable {
        /** Queued after the last line when the child's output ended. */
        private static final String EOF = new String("<eof>");

        private final Process process;
        private final List<String> command;
        private final Path stderr;
        private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final Thread pump;
        private final Thread watchdog;
        private volatile boolean timedOut;
        private volatile IOException pumpFailure;
        private boolean ended;

        private Running(Process process, List<String> command, Path stderr, Duration timeout) {
            this.process = process;
            this.command = command;
            this.stderr = stderr;
            this.pump = Thread.ofPlatform()
                    .daemon()
                    .name("child-stdout-" + process.pid())
                    .start(() -> {
                        try (BufferedReader r = new BufferedReader(
                                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                            for (String l = r.readLine(); l != null; l = r.readLine()) {
                                lines.add(l);
                            }
                        } catch (IOException e) {
                            pumpFailure = e;
                            lines.add("pump: " + e);
                        } finally {
                            lines.add(EOF);
                        }
                    });
            this.watchdog = Thread.ofPlatform()
                    .daemon()
                    .name("child-watchdog-" + process.pid())
                    .start(() -> {
                        try {
                            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                                timedOut = true;
                                process.destroyForcibly();
                            }
                        } catch (InterruptedException e) {
                            // closed
                        }
                    });
        }

        /** The child's process id. */
        public long pid() {
            return process.pid();
        }

        public boolean alive() {
            return process.isAlive();
        }

        /** Whether the watchdog killed the child. */
        public boolean timedOut() {
            return timedOut;
        }

        /**
         * The next line of the child's standard output, waiting up to {@code wait}; null if none came in time or
         * the output ended (see {@link #ended()}).
         */
        public String nextLine(Duration wait) throws InterruptedException {
            if (ended) {
                return null;
            }
            String l = lines.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
            if (l == EOF) {
                ended = true;
                return null;
            }
            return l;
        }

        /** Whether the child's standard output has ended (it exited or was killed and every line was read). */
        public boolean ended() {
            return ended;
        }

        /**
         * SIGKILL (no shutdown hook, no finally block runs in the child) and waits for the death and for the end
         * of its output: every line the child wrote before it died is read.
         *
         * <p>The signal is sent through the {@link ProcessHandle}: {@link Process#destroyForcibly()} also closes
         * this side of the child's standard output, and lines still in the pipe are lost ("Stream closed" in the
         * reader) - which made the crash-torture test read fewer acknowledged commits than the child had made
         * (issue 14; {@code ChildJvmTest.killReadsEveryLineWhereDestroyForciblyLosesThem}).
         *
         * @throws AssertionError if the child does not die or its output is not drained within 30 s each, or if
         *     reading its output failed
         */
        public void kill() throws InterruptedException {
            process.toHandle().destroyForcibly();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new AssertionError("child " + pid() + " did not die within 30 s of SIGKILL");
            }
            pump.join(TimeUnit.SECONDS.toMillis(30));
            if (pump.isAlive()) {
                throw new AssertionError("child " + pid() + ": its output was not drained within 30 s of its death");
            }
            if (pumpFailure != null) {
                throw new AssertionError("child " + pid() + ": reading its output failed", pumpFailure);
            }
            watchdog.interrupt();
        }

        /**
         * SIGTERM (shutdown hooks run) and waits up to 60 s for the exit and for the end of its output (sent
         * through the {@link ProcessHandle}, which leaves the output open to be read to its end; see {@link #kill}).
         */
        public void terminate() throws InterruptedException {
            process.toHandle().destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new AssertionError("child " + pid() + " did not exit within 60 s of SIGTERM");
            }
            pump.join(TimeUnit.SECONDS.toMillis(30));
            watchdog.interrupt();
        }

        /** The lines not yet read (after {@link #kill()} or the child's exit: all of the rest). */
        public List<String> remainingLines() {
            List<String> rest = new ArrayList<>();
            for (String l = lines.poll(); l != null; l = lines.poll()) {
                if (l == EOF) {
                    ended = true;
                } else {
                    rest.add(l);
                }
            }
            return rest;
        }

        /** The exit code of a dead child (137 after SIGKILL: 128 + 9). */
        public int exitCode() {
            return process.exitValue();
        }

        /** The child's standard error so far. */
        public String stderr() {
            try {
                return Files.readString(stderr, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** A description for assertion messages: the command, the state and the tail of standard error. */
        public String describe() {
            return "command: " + String.join(" ", command) + "\n"
                    + (alive() ? "running" : "exit " + exitCode() + (timedOut ? " (TIMED OUT, killed)" : ""))
                    + "\n--- stderr ---\n" + tail(stderr());
        }

        /** Kills the child if it is still alive and removes its stderr file. */
        @Override
        public void close() {
            if (process.isAlive()) {
                try {
                    kill();
                } catch (InterruptedException e) {
                    process.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
            watchdog.interrupt();
            try {
                Files.deleteIfExists(stderr);
            } catch (IOException e) {
                // a leftover file in the test directory
            }
        }
    }
}
