package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash torture: a forked JVM ({@link CrashTortureChild}) runs random transactions on a real store and
 * is killed with SIGKILL ({@link dev.quickstore.testkit.ChildJvm.Running#kill()}) at a random moment; after each kill the
 * parent recovers the store and checks that every acknowledged commit is present, that nothing else is
 * visible except possibly the one commit in flight (whose COMMIT may have become durable just before
 * the kill), that the state equals the replayed model, and that verify passes. CI runs 25 crashes;
 * {@code -Dqs.long=true} runs 300, {@code -Dqs.torture.crashes=N} runs N.
 */
@ExtendWith(SeedExtension.class)
class CrashTortureTest {
    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedCommitSurvivesSigkill(Seed seed) throws Exception {
        run(seed.value(), Integer.getInteger("qs.torture.crashes", ChildJvm.longMode() ? 300 : 25));
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
            long acknowledged = model.committed;
            List<String> transcript = new ArrayList<>();
            try (ChildJvm.Running child = ChildJvm.main(CrashTortureChild.class)
                    .workDir(dir)
                    .jvmArgs("-ea", "-Xmx256m", "-XX:TieredStopAtLevel=1")
                    .args(db.toString(), Long.toString(seed))
                    .timeout(Duration.ofSeconds(300))
                    .start()) {
                int waitFor = 1 + rnd.nextInt(6);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                int seen = 0;
                while (seen < waitFor) {
                    String l = child.nextLine(Duration.ofMillis(100));
                    if (l == null) {
                        if (child.ended() || System.nanoTime() > deadline) {
                            fail("crash " + crash + ": the child "
                                    + (child.ended() ? "ended" : "made no progress within 60 s") + "; output "
                                    + transcript + "; " + child.describe());
                        }
                        continue;
                    }
                    transcript.add(l);
                    if (l.startsWith("committed ")) {
                        acknowledged = Long.parseLong(l.substring(10));
                        seen++;
                    } else if (!l.startsWith("ready ")) {
                        fail("unexpected child output: " + l);
                    }
                }
                // a random moment, mid-transaction or mid-commit
                LockSupport.parkNanos(rnd.nextLong(TimeUnit.MILLISECONDS.toNanos(30)));
                child.kill(); // SIGKILL
                for (String l : child.remainingLines()) {
                    transcript.add(l);
                    if (l.startsWith("committed ")) {
                        acknowledged = Long.parseLong(l.substring(10));
                    }
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
}
