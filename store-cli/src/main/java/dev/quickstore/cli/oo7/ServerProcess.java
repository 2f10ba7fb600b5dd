package dev.quickstore.cli.oo7;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A page server started by the OO7 driver ({@code qs oo7 run --system qs-cs}, {@code qs oo7 multiuser}): {@code
 * qs serve DIR --listen 127.0.0.1:0} in a child JVM (same java and class path), whose {@code listening} line gives
 * the address. Its stderr (one line per event) goes to {@code DIR-server.log} beside the store, named in errors
 * and removed when the server stopped cleanly.
 * {@link #close()} stops it with SIGTERM (a clean stop: checkpoint, close) and waits; a JVM shutdown hook does the
 * same if the driver is interrupted.
 */
final class ServerProcess implements AutoCloseable {
    private final Process process;
    private final String uri;
    private final Path secret;
    private final Path log;
    private final Thread hook;

    private ServerProcess(Process process, String uri, Path secret, Path log, Thread hook) {
        this.process = process;
        this.uri = uri;
        this.secret = secret;
        this.log = log;
        this.hook = hook;
    }

    /** Starts a server over the store in {@code dir} with the concurrency control {@code cc}; waits until it listens. */
    static ServerProcess start(Path dir, String cc) throws IOException {
        List<String> cmd = QsJvm.command(
                List.of(), List.of("-Xmx1g"), List.of("serve", dir.toString(), "--listen", "127.0.0.1:0", "--cc", cc));
        Path log = dir.resolveSibling(dir.getFileName() + "-server.log");
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.to(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .start();
        Thread hook = new Thread(p::destroy, "qs-oo7-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        boolean ok = false;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = readLine(out, 60_000);
            if (line == null || !line.startsWith("listening qs://")) {
                throw new IOException("qs serve " + dir + " did not start (said " + line + "); its log: " + tail(log));
            }
            ok = true;
            return new ServerProcess(p, line.split(" ")[1], dir.resolve("server.secret"), log, hook);
        } finally {
            if (!ok) {
                p.destroyForcibly();
                removeHook(hook);
            }
        }
    }

    private static String readLine(BufferedReader r, long timeoutMs) throws IOException {
        String[] line = new String[1];
        IOException[] failed = new IOException[1];
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                line[0] = r.readLine();
            } catch (IOException e) {
                failed[0] = e;
            }
        });
        try {
            if (!t.join(java.time.Duration.ofMillis(timeoutMs))) {
                return null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        if (failed[0] != null) {
            throw failed[0];
        }
        return line[0];
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return log + " (unreadable: " + e.getMessage() + ")";
        }
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }

    /** {@code qs://127.0.0.1:PORT}. */
    String uri() {
        return uri;
    }

    /** The store's {@code server.secret}. */
    Path secret() {
        return secret;
    }

    /** The server's stderr. */
    Path log() {
        return log;
    }

    /**
     * Stops the server with SIGTERM and waits (30 s, then SIGKILL). A server that stopped cleanly (exit 0) takes its
     * log with it; otherwise the log stays and the exception names it.
     */
    @Override
    public void close() throws IOException {
        process.destroy();
        try {
            if (process.waitFor(30, TimeUnit.SECONDS)) {
                int code = process.exitValue();
                if (code != 0 && code != 143) {
                    throw new IOException("qs serve exited with " + code + "; its log: " + log + ": " + tail(log));
                }
                Files.deleteIfExists(log);
            } else {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
                throw new IOException("qs serve did not stop within 30 s of SIGTERM; killed. Its log: " + tail(log));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        } finally {
            removeHook(hook);
        }
    }
}
