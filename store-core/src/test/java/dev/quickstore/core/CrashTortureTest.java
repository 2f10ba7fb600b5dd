package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash torture: a forked JVM ({@link CrashTortureChild}) runs random transactions on a real store and
 * is killed with SIGKILL ({@link Process#destroyForcibly()}) at a random moment; after each kill the
 * parent recovers the store and checks that every acknowledged commit is present, that nothing else is
 * visible except possibly the one commit in flight (whose COMMIT may have become durable just before
 * the kill), that the state equals the replayed model, and that verify passes. CI runs 20 crashes;
 * {@code -Dqs.long=true} runs 300.
 */
class CrashTortureTest {
    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedCommitSurvivesSigkill() throws Exception {
        int crashes = Boolean.getBoolean("qs.long") ? 300 : 20;
        long seed = Long.getLong("qs.seed", System.nanoTime());
        try {
            run(seed, crashes);
        } catch (Throwable t) {
            throw new AssertionError("CrashTortureTest failed with -Dqs.seed=" + seed + ": " + t, t);
        }
    }

    private void run(long seed, int crashes) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        Path db = dir.resolve("db");
        try (Store s = Store.create(db, 8192, CrashTortureChild.OPTIONS)) {
            Workload.setup(s);
        }
        Workload.Model model = new Workload.Model(); // the replayed committed state
        int inFlightDurable = 0;
        for (int crash = 0; crash < crashes; crash++) {
            Path err = dir.resolve("child-" + crash + ".err");
            Process child = start(db, seed, err);
            LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread pump = Thread.ofPlatform().daemon().start(() -> {
                try (BufferedReader r =
                        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String l = r.readLine(); l != null; l = r.readLine()) {
                        lines.add(l);
                    }
                } catch (java.io.IOException e) {
                    lines.add("pump: " + e);
                }
            });
            long acknowledged = model.committed;
            int waitFor = 1 + rnd.nextInt(6);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int seen = 0;
            List<String> transcript = new ArrayList<>();
            while (seen < waitFor) {
                String l = lines.poll(100, TimeUnit.MILLISECONDS);
                if (l == null) {
                    if (!child.isAlive() || System.nanoTime() > deadline) {
                        child.destroyForcibly();
                        child.waitFor(30, TimeUnit.SECONDS);
                        fail("child "
                                + (child.isAlive()
                                        ? "made no progress within 60 s"
                                        : "exited with " + child.exitValue())
                                + "; output " + transcript + "; stderr: " + java.nio.file.Files.readString(err));
                    }
                    continue;
                }
                transcript.add(l);
                if (l.startsWith("committed ")) {
                    acknowledged = Long.parseLong(l.substring(10));
                    seen++;
                } else if (!l.startsWith("ready ")) {
                    child.destroyForcibly();
                    fail("unexpected child output: " + l);
                }
            }
            LockSupport.parkNanos(
                    rnd.nextLong(TimeUnit.MILLISECONDS.toNanos(30))); // a random moment, mid-transaction or mid-commit
            child.destroyForcibly();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                fail("child did not die after SIGKILL");
            }
            pump.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(
                    !pump.isAlive(),
                    "crash " + crash + ": the child's output was not drained within 60 s of its death");
            for (String l = lines.poll(); l != null; l = lines.poll()) {
                transcript.add(l);
                if (l.startsWith("committed ")) {
                    acknowledged = Long.parseLong(l.substring(10));
                }
            }
            try (Store s = Store.open(db, CrashTortureChild.OPTIONS)) {
                long k = Workload.committedIn(s);
                assertTrue(
                        k == acknowledged || k == acknowledged + 1,
                        "crash " + crash + ": recovered " + k + " committed transactions, acknowledged " + acknowledged
                                + " (transcript " + transcript + ")");
                if (k == acknowledged + 1) {
                    inFlightDurable++;
                }
                while (model.committed < k) {
                    CrashTortureChild.commitNextModelOnly(model, seed);
                }
                Workload.check(s, model, "crash " + crash + " (recovered " + k + ", " + s.recoveryStats() + ")");
            }
        }
        System.out.printf(
                "crash torture: %d SIGKILLs, %d transactions, %d in-flight commits found durable%n",
                crashes, model.committed, inFlightDurable);
    }

    private static Process start(Path db, long seed, Path err) throws java.io.IOException {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = List.of(
                java,
                "-ea",
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                CrashTortureChild.class.getName(),
                db.toString(),
                Long.toString(seed));
        return new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    }
}
