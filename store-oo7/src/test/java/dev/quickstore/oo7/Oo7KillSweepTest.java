package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.crashpoint.CrashPoints.Point;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OO7 kill sweep of issue 14: a child JVM ({@link Oo7KillSweepChild}) commits seeded OO7 update
 * transactions (T2A-C, T3A-C, SM1, SM2; {@link Oo7KillSweep}) on the small database and reports each
 * acknowledged commit on its stdout pipe; the parent kills it with SIGKILL, a third of the time at a random
 * instant (every third kill) and otherwise exactly at a crash point, in turn of the write path (the commit's log write and force, log
 * roll-over, a checkpoint's write-back and record, a steal's double write; {@link
 * dev.quickstore.core.crashpoint.CrashPoints}), then recovers the store and checks it against an exact oracle: two
 * heap models replaying the same transactions, one at the acknowledged count and one a transaction ahead. The
 * recovered database's {@link Oo7Digest} must equal one of them (every acknowledged commit present, at most the
 * one in flight beyond them, no partial transaction), and a kill after the commit's log force must find that commit;
 * {@code verify} is clean and the build-date index agrees with a scan. CI runs 12 kills (every point at least
 * once; {@code CrashTortureTest} adds 25 on random object graphs); {@code -Dqs.long=true} 500; {@code -Dqs.oo7.kills=N} N. A second test kills the opening of a QS-OR relocation right after its
 * placement commit.
 */
@ExtendWith(SeedExtension.class)
class Oo7KillSweepTest {
    private static final Point[] SWEPT = {
        Point.COMMIT_LOGGED,
        Point.COMMIT_DURABLE,
        Point.LOG_ROLL,
        Point.CHECKPOINT_PAGES_WRITTEN,
        Point.CHECKPOINT_LOGGED,
        Point.STEAL_DOUBLE_WRITTEN
    };

    /**
     * The parent builds and checks with the default pool (the whole small database fits): the pool is no part of
     * the recovered state, and an index-order scan through the child's small pool would thrash. The log segment
     * size is fixed when the store is created: the child's small one.
     */
    private static final StoreOptions CHECKING = StoreOptions.defaults().toBuilder()
            .logSegmentBytes(Oo7KillSweep.OPTIONS.logSegmentBytes())
            .build();

    @TempDir
    Path tmp;

    /** A heap model of the database after {@code count} sweep transactions, with its digest. */
    private static final class Model {
        final HeapOo7Store heap = HeapOo7StoreTest.buildHeap(Oo7SmallContract.SEED);
        final long seed;
        long count;
        String digest;

        Model(long seed) {
            this.seed = seed;
        }

        void advanceTo(long n) {
            while (count < n) {
                count++;
                Oo7KillSweep.apply(heap, seed, count);
                digest = null;
            }
        }

        String digest() {
            if (digest == null) {
                digest = Oo7SmallContract.digest(heap);
            }
            return digest;
        }
    }

    @Test
    void everyAcknowledgedOo7CommitSurvivesSigkillAtWeightedInstants(Seed seed) throws Exception {
        int kills = Integer.getInteger("qs.oo7.kills", ChildJvm.longMode() ? 500 : 12);
        Path dir = tmp.resolve("oo7");
        try (MappedOo7Store store = MappedOo7Store.create(dir, false, CHECKING)) {
            new Oo7Builder(Oo7Config.SMALL, Oo7SmallContract.SEED).build(store, Oo7Builder.Progress.NONE);
        }
        SplittableRandom rnd = new SplittableRandom(seed.value());
        Model at = new Model(seed.value()); // the state after the acknowledged commits
        Model ahead = new Model(seed.value()); // ... and after the one in flight too
        long durable = 0; // committed transactions in the store, as the last recovery found
        Map<Point, Integer> atPoint = new EnumMap<>(Point.class);
        int random = 0, inFlightFound = 0;
        long started = System.nanoTime();
        for (int kill = 0; kill < kills; kill++) {
            // every third kill at a random instant, the others at the crash points in turn
            Point point = kill % 3 == 2 ? null : SWEPT[(kill - kill / 3) % SWEPT.length];
            // log segments (256 KiB at least) fill every few transactions: the first roll-over is the one to aim at
            String spec = point == null ? "-" : point + ":" + (point == Point.LOG_ROLL ? 1 : 1 + rnd.nextInt(3));
            List<String> transcript = new ArrayList<>();
            String childErr = "";
            long acknowledged = durable;
            boolean stopped = false;
            try (ChildJvm.Running child = ChildJvm.main(Oo7KillSweepChild.class)
                    .workDir(tmp)
                    .jvmArgs("-ea", "-Xmx512m", "-XX:TieredStopAtLevel=1")
                    .args(dir.toString(), Long.toString(seed.value()), Long.toString(durable), spec)
                    .timeout(Duration.ofSeconds(300))
                    .start()) {
                int commitsBeforeKill = 1 + rnd.nextInt(4);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
                int seen = 0;
                while (point == null ? seen < commitsBeforeKill : !stopped) {
                    String l = child.nextLine(Duration.ofMillis(100));
                    if (l == null) {
                        if (child.ended() || System.nanoTime() > deadline) {
                            fail("kill " + kill + " (" + spec + "): the child "
                                    + (child.ended() ? "ended" : "reached no kill point within 240 s") + "; output "
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
                    } else if (!l.startsWith("ready ")) {
                        fail("unexpected child output: " + l);
                    }
                }
                if (point == null) {
                    LockSupport.parkNanos(rnd.nextLong(TimeUnit.MILLISECONDS.toNanos(40)));
                }
                child.kill(); // SIGKILL
                childErr = child.stderr();
                for (String l : child.remainingLines()) {
                    transcript.add(l);
                    if (l.startsWith("committed ")) {
                        acknowledged = Long.parseLong(l.substring(10));
                    }
                }
            }
            if (point == null) {
                random++;
            } else {
                atPoint.merge(point, 1, Integer::sum);
            }
            at.advanceTo(acknowledged);
            ahead.advanceTo(acknowledged + 1);
            try (MappedOo7Store store = MappedOo7Store.open(dir, false, CHECKING)) {
                String recovered = Oo7SmallContract.digest(store);
                String where = "kill " + kill + " (" + spec + ", acknowledged " + acknowledged + ", transcript tail "
                        + transcript.subList(Math.max(0, transcript.size() - 3), transcript.size()) + ")";
                assertNotEquals(
                        at.digest(),
                        ahead.digest(),
                        where + ": the sweep's transaction " + (acknowledged + 1) + " left the data as it was");
                if (recovered.equals(at.digest())) {
                    durable = acknowledged;
                    if (point == Point.COMMIT_DURABLE) {
                        fail(where + ": recovered without the commit whose log force had returned (a lost durable"
                                + " commit); the child stopped at:\n" + childErr);
                    }
                } else if (recovered.equals(ahead.digest())) {
                    durable = acknowledged + 1;
                    inFlightFound++;
                } else {
                    fail(where + ": the recovered database is neither the acknowledged state nor the one after the"
                            + " in-flight transaction (a lost or partial transaction)");
                }
                assertTrue(store.persistentStore().storageManager().verify().ok(), where + ": verify");
                Oo7SmallContract.tx(store, () -> Oo7SmallContract.assertIndexMatchesScanInTx(store));
            }
            at.advanceTo(durable);
            ahead.advanceTo(durable + 1);
            if ((kill + 1) % 25 == 0) {
                System.out.printf(
                        "OO7 kill sweep: %d of %d kills, %d transactions recovered, 0 violations, %.0f s%n",
                        kill + 1, kills, durable, (System.nanoTime() - started) / 1e9);
            }
        }
        System.out.printf(
                "OO7 kill sweep: %d SIGKILLs (%d at random instants, at crash points %s), %d transactions"
                        + " recovered, %d in-flight commits found durable, 0 violations, %.0f s%n",
                kills, random, atPoint, durable, inFlightFound, (System.nanoTime() - started) / 1e9);
        for (Point p : SWEPT) {
            if (kills >= 9) {
                assertTrue(atPoint.getOrDefault(p, 0) > 0, "the sweep killed at " + p + ": " + atPoint);
            }
        }
    }

    @Test
    void aKillRightAfterTheRelocationsPlacementCommitLeavesAStoreThatOpensAndCommits(Seed seed) throws Exception {
        Path dir = tmp.resolve("oo7-qsor");
        try (MappedOo7Store store = MappedOo7Store.create(dir, false, CHECKING)) {
            new Oo7Builder(Oo7Config.SMALL, Oo7SmallContract.SEED).build(store, Oo7Builder.Progress.NONE);
        }
        Model model = new Model(seed.value());
        try (ChildJvm.Running child = ChildJvm.main(Oo7KillSweepChild.class)
                .workDir(tmp)
                .jvmArgs("-ea", "-Xmx512m")
                .args(dir.toString(), Long.toString(seed.value()), "0", Point.PLACEMENT_COMMITTED + ":1", "relocate")
                .timeout(Duration.ofSeconds(180))
                .start()) {
            assertEquals("at " + Point.PLACEMENT_COMMITTED, child.nextLine(Duration.ofSeconds(120)), child::describe);
            child.kill();
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().contains("placement")), "placement committed");
        }
        var relocating = CHECKING.withRelocation(Relocation.ONE_TIME, 0.25);
        try (MappedOo7Store store = MappedOo7Store.open(dir, false, relocating)) {
            assertTrue(store.relocatedPages() > 0, "the committed placement applies at the next opening");
            assertEquals(model.digest(), Oo7SmallContract.digest(store), "the database, unchanged");
            assertTrue(store.persistentStore().storageManager().verify().ok(), "verify");
            Oo7KillSweep.apply(store, seed.value(), 1);
        }
        model.advanceTo(1);
        try (MappedOo7Store store = MappedOo7Store.open(dir, false, CHECKING)) {
            assertEquals(model.digest(), Oo7SmallContract.digest(store), "a commit on the relocated store survives");
        }
    }
}
