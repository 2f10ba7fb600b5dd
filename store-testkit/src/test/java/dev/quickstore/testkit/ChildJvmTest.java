package dev.quickstore.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real child processes: exit codes and streams, the watchdog's kill, and a real SIGKILL. */
class ChildJvmTest {
    @TempDir
    Path dir;

    @Test
    void runReturnsExitCodeAndBothStreams() throws Exception {
        ChildJvm.Result r = ChildJvm.main(EchoChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx64m")
                .args("exit", "3")
                .run();
        assertEquals(3, r.exitCode(), r.describe());
        assertFalse(r.timedOut());
        assertEquals("out 3", r.stdout().strip());
        assertEquals("err 3", r.stderr().strip());
        assertTrue(r.describe().contains("EchoChild exit 3"), r.describe());
    }

    @Test
    void theWatchdogKillsAChildThatRunsTooLong() throws Exception {
        ChildJvm.Result r = ChildJvm.main(EchoChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx64m")
                .args("wait")
                .timeout(Duration.ofSeconds(3))
                .run();
        assertTrue(r.timedOut(), r.describe());
        assertEquals(-1, r.exitCode());
        assertTrue(r.describe().contains("TIMED OUT"), r.describe());
    }

    @Test
    void startReadsLinesAndKillSendsSigkill() throws Exception {
        try (ChildJvm.Running child = ChildJvm.main(EchoChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx64m")
                .args("wait")
                .start()) {
            assertEquals("ready", child.nextLine(Duration.ofSeconds(60)), child::describe);
            assertTrue(child.alive());
            assertNull(child.nextLine(Duration.ofMillis(50)), "nothing more while it waits");
            child.kill();
            assertFalse(child.alive());
            assertEquals(137, child.exitCode(), "128 + SIGKILL");
            assertTrue(child.remainingLines().isEmpty());
            assertTrue(child.ended());
            assertNull(child.nextLine(Duration.ofMillis(1)));
        }
    }

    /**
     * The crash-torture doubt of issue 14 ("recovered 12 committed transactions, acknowledged 10", twice, under
     * load): a child acknowledges each step on its standard output and is killed while it runs. The harness
     * killed it with {@link Process#destroyForcibly()}, which also closes this side of the child's standard
     * output: acknowledgements still in the pipe - all of them when the reader is behind, as on a loaded
     * machine - are lost ("Stream closed" in the reader), and the count read lags by more than the one step in
     * flight, with a correct store. {@link ChildJvm.Running#kill()} sends the signal through the process handle
     * and reads the pipe to its end. The oracle is a file the child replaces before each acknowledgement.
     */
    @Test
    void killReadsEveryLineWhereDestroyForciblyLosesThem() throws Exception {
        java.nio.file.Path oracle = dir.resolve("count");
        Process p = new ProcessBuilder(
                        ChildJvm.javaExecutable(),
                        "-Xmx64m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        EchoChild.class.getName(),
                        "count",
                        oracle.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        java.util.concurrent.LinkedBlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        // a reader that is behind, as under load, at its extreme: it starts reading only once the kill was sent, so
        // every acknowledgement is still in the pipe then (a reader that merely lagged caught up in some runs)
        java.util.concurrent.CountDownLatch killed = new java.util.concurrent.CountDownLatch(1);
        Thread pump = Thread.ofPlatform().daemon().start(() -> {
            try (java.io.BufferedReader r = new java.io.BufferedReader(
                    new java.io.InputStreamReader(p.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
                killed.await();
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    lines.add(l);
                }
            } catch (java.io.IOException e) {
                lines.add("pump: " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        waitForCount(oracle, 200);
        p.destroyForcibly(); // the old harness's kill
        killed.countDown();
        assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
        pump.join(30_000); // even waiting for the reader to finish does not help
        java.util.List<String> old = new java.util.ArrayList<>(lines);
        long oldRead = lastAcknowledged(old);
        long written = Long.parseLong(java.nio.file.Files.readString(oracle).strip());
        assertTrue(
                oldRead < written - 1 && old.get(old.size() - 1).contains("Stream closed"),
                "destroyForcibly loses the lines in the pipe: read " + oldRead + ", the child reached " + written
                        + ", last " + old.get(old.size() - 1));

        for (int round = 0; round < 5; round++) { // ChildJvm: the same child and kill, nothing lost
            java.nio.file.Path o = dir.resolve("count-" + round);
            try (ChildJvm.Running child = ChildJvm.main(EchoChild.class)
                    .workDir(dir)
                    .jvmArgs("-Xmx64m")
                    .args("count", o.toString())
                    .start()) {
                waitForCount(o, 200);
                child.kill();
                java.util.List<String> rest = child.remainingLines();
                long read = lastAcknowledged(rest);
                long reached = Long.parseLong(java.nio.file.Files.readString(o).strip());
                assertTrue(
                        read == reached || read == reached - 1,
                        "read " + read + ", the child reached " + reached + ": at most the step in flight is unread;"
                                + " last lines " + rest.subList(Math.max(0, rest.size() - 3), rest.size()));
            }
        }
    }

    private static void waitForCount(java.nio.file.Path file, long at) throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try {
                if (Long.parseLong(java.nio.file.Files.readString(file).strip()) >= at) {
                    return;
                }
            } catch (java.io.IOException | NumberFormatException e) {
                // not written yet, or caught between truncate and write
            }
            Thread.sleep(1);
        }
        throw new AssertionError("the child did not reach " + at + " within 60 s");
    }

    private static long lastAcknowledged(java.util.List<String> lines) {
        long last = 0;
        for (String l : lines) {
            if (l.startsWith("committed ")) {
                last = Long.parseLong(l.substring(10));
            }
        }
        return last;
    }
}
