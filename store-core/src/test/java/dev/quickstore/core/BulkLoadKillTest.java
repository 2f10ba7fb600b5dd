package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Issue #20: a bulk load killed at random points recovers exactly its committed prefix. A forked JVM ({@link
 * BulkLoadKillChild}) loads {@link BulkLoad} batches - each a transaction of 1,200 new small objects on fresh
 * pages and a large object, bigger than the 32-frame pool, so its own new pages are stolen mid-transaction - and
 * is killed with SIGKILL after a random number of acknowledged batches plus a random delay (mid-batch, in a steal,
 * in a commit); the parent then recovers the store and checks that it holds batches 1..k for k the last
 * acknowledged batch or the one in flight (its COMMIT may have become durable just before the kill), object by
 * object and byte by byte, with no root or page of a later batch, and that verify passes. The next child goes on
 * from there. 8 kills by default; {@code -Dqs.long=true} runs 60, {@code -Dqs.bulkload.kills=N} runs N.
 */
@ExtendWith(SeedExtension.class)
class BulkLoadKillTest {
    @TempDir
    Path dir;

    @Test
    void killedBulkLoadRecoversExactlyItsCommittedPrefix(Seed seed) throws Exception {
        int kills = Integer.getInteger("qs.bulkload.kills", ChildJvm.longMode() ? 60 : 8);
        SplittableRandom rnd = new SplittableRandom(seed.value());
        Path db = dir.resolve("db");
        Store.create(db, 8192, BulkLoad.OPTIONS).close();
        long recovered = 0;
        int inFlightDurable = 0;
        int midBatch = 0;
        for (int kill = 0; kill < kills; kill++) {
            long acknowledged = recovered;
            List<String> transcript = new ArrayList<>();
            try (ChildJvm.Running child = ChildJvm.main(BulkLoadKillChild.class)
                    .workDir(dir)
                    .jvmArgs("-ea", "-Xmx256m")
                    .args(db.toString(), Long.toString(seed.value()))
                    .timeout(Duration.ofSeconds(300))
                    .start()) {
                int waitFor = rnd.nextInt(3); // acknowledged batches before the kill's delay starts
                int seen = -1; // the "ready" line counts as the start
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                while (seen < waitFor) {
                    String l = child.nextLine(Duration.ofMillis(100));
                    if (l == null) {
                        if (child.ended() || System.nanoTime() > deadline) {
                            fail("kill " + kill + ": the child " + (child.ended() ? "ended" : "made no progress")
                                    + "; output " + transcript + "; " + child.describe());
                        }
                        continue;
                    }
                    transcript.add(l);
                    if (l.startsWith("ready ")) {
                        assertEquals(recovered, Long.parseLong(l.substring(6)), "the child found the recovered state");
                    } else if (l.startsWith("committed ")) {
                        acknowledged = Long.parseLong(l.substring(10));
                    } else {
                        fail("unexpected child output: " + l);
                    }
                    seen++;
                }
                LockSupport.parkNanos(rnd.nextLong(TimeUnit.MILLISECONDS.toNanos(600)));
                child.kill(); // SIGKILL: no close, no checkpoint
                for (String l : child.remainingLines()) {
                    transcript.add(l);
                    if (l.startsWith("committed ")) {
                        acknowledged = Long.parseLong(l.substring(10));
                    }
                }
            }
            try (Store s = Store.open(db, BulkLoad.OPTIONS)) {
                long k = BulkLoad.batches(s);
                assertTrue(
                        k == acknowledged || k == acknowledged + 1,
                        "kill " + kill + ": recovered " + k + " batches, acknowledged " + acknowledged + " (transcript "
                                + transcript + ")");
                if (k == acknowledged + 1) {
                    inFlightDurable++;
                }
                if (s.recoveryStats().losersUndone() > 0) {
                    midBatch++;
                }
                BulkLoad.check(
                        s, seed.value(), k, "kill " + kill + " (recovered " + k + ", " + s.recoveryStats() + ")");
                recovered = k;
            }
        }
        assertTrue(recovered > 0, "no batch was ever committed in " + kills + " kills");
        System.out.printf(
                "bulk load kills: %d SIGKILLs, %d batches committed, %d in-flight commits found durable, %d recoveries"
                        + " undid a loser%n",
                kills, recovered, inFlightDurable, midBatch);
    }
}
