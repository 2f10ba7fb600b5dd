package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.crashpoint.CrashPoints;
import dev.quickstore.core.inspect.StoreInspector;
import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash torture: a forked JVM ({@link CrashTortureChild}) runs random transactions on a real store and
 * is killed with SIGKILL ({@link dev.quickstore.testkit.ChildJvm.Running#kill()}), every other time at a random
 * moment and otherwise stopped exactly at a crash point of the write path ({@link CrashPoints}; a kill after the
 * commit's log force must find that commit); after each kill the
 * parent recovers the store and checks that every acknowledged commit is present, that nothing else is
 * visible except possibly the one commit in flight (whose COMMIT may have become durable just before
 * the kill), that the state equals the replayed model, and that verify passes; the workload shifts bytes inside objects, so
 * recovery redoes page-local moves (the test fails if no log it recovered held one). CI runs 25 crashes;
 * {@code -Dqs.long=true} runs 300, {@code -Dqs.torture.crashes=N} runs N.
 */
@ExtendWith(SeedExtension.class)
class CrashTortureTest {
    /** The crash points every other kill stops at, in turn (QS-OR's placement commit: Oo7KillSweepTest). */
    static final CrashPoints.Point[] SWEPT = {
        CrashPoints.Point.COMMIT_LOGGED,
        CrashPoints.Point.COMMIT_DURABLE,
        CrashPoints.Point.LOG_ROLL,
        CrashPoints.Point.CHECKPOINT_PAGES_WRITTEN,
        CrashPoints.Point.CHECKPOINT_LOGGED,
        CrashPoints.Point.STEAL_DOUBLE_WRITTEN
    };

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
        Map<CrashPoints.Point, Integer> atPoint = new EnumMap<>(CrashPoints.Point.class);
        long movesSeen = 0; // most REDO records with page-local moves in the log before one recovery
        for (int crash = 0; crash < crashes; crash++) {
            // every other kill at a random instant, the others exactly at the write path's crash points in turn
            CrashPoints.Point point = crash % 2 == 1 ? null : SWEPT[(crash / 2) % SWEPT.length];
            boolean stopped = false;
            long acknowledged = model.committed;
            List<String> transcript = new ArrayList<>();
            try (ChildJvm.Running child = ChildJvm.main(CrashTortureChild.class)
                    .workDir(dir)
                    .jvmArgs("-ea", "-Xmx256m", "-XX:TieredStopAtLevel=1")
                    .args(db.toString(), Long.toString(seed), point == null ? "-" : point + ":1")
                    .timeout(Duration.ofSeconds(300))
                    .start()) {
                int waitFor = 1 + rnd.nextInt(6);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                int seen = 0;
                while (point == null ? seen < waitFor : !stopped) {
                    String l = child.nextLine(Duration.ofMillis(100));
                    if (l == null) {
                        if (child.ended() || System.nanoTime() > deadline) {
                            fail("crash " + crash + ": the child "
                                    + (child.ended() ? "ended" : "made no progress within 120 s") + "; output "
                                    + transcript + "; " + child.describe());
                        }
                        continue;
                    }
                    transcript.add(l);
                    if (l.startsWith("committed ")) {
                        acknowledged = Long.parseLong(l.substring(10));
                        seen++;
                    } else if (l.startsWith("at ")) {
                        stopped = true;
                        atPoint.merge(point, 1, Integer::sum);
                    } else if (!l.startsWith("ready ")) {
                        fail("unexpected child output: " + l);
                    }
                }
                if (point == null) { // a random moment, mid-transaction or mid-commit
                    LockSupport.parkNanos(rnd.nextLong(TimeUnit.MILLISECONDS.toNanos(30)));
                }
                child.kill(); // SIGKILL
                for (String l : child.remainingLines()) {
                    transcript.add(l);
                    if (l.startsWith("committed ")) {
                        acknowledged = Long.parseLong(l.substring(10));
                    }
                }
            }
            long[] moves = {0};
            try (StoreInspector in = StoreInspector.open(db)) { // what recovery is about to redo
                in.log(0, e -> {
                    moves[0] += e.moves().isEmpty() ? 0 : 1;
                    return true;
                });
            }
            movesSeen = Math.max(movesSeen, moves[0]);
            try (Store s = Store.open(db, CrashTortureChild.OPTIONS)) {
                long k = Workload.committedIn(s);
                assertTrue(
                        k == acknowledged || k == acknowledged + 1,
                        "crash " + crash + ": recovered " + k + " committed transactions, acknowledged " + acknowledged
                                + " (transcript " + transcript + ")");
                assertTrue(
                        point != CrashPoints.Point.COMMIT_DURABLE || k == acknowledged + 1,
                        "crash " + crash + ": the commit whose log force had returned was lost");
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
                "crash torture: %d SIGKILLs (at crash points %s, the others at random instants), %d transactions,"
                        + " %d in-flight commits found durable, up to %d REDO records with moves in a log recovered%n",
                crashes, atPoint, model.committed, inFlightDurable, movesSeen);
        assertTrue(movesSeen > 0, "the workload's shifts were logged as page-local moves, and recovered");
    }
}
