package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.core.volume.VolumeFile;
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
 * Issue #20, the NEW_PAGE record: a child JVM ({@link NewPageKillChild}) commits {@link BulkLoad} batches with a
 * pool larger than the load and no checkpoint, so the pages each batch allocates are logged at commit as NEW_PAGE
 * records and are still only in memory and in the log when the child is killed (SIGKILL). Half the kills land
 * right after the child announced that a batch's pages are allocated but not committed; the others after a random
 * delay. Recovery must hold exactly batches 1..k (k the last acknowledged batch, or the one in flight if its COMMIT
 * became durable), object by object and byte by byte, redo NEW_PAGE records, and pass verify. 6 kills by default,
 * {@code -Dqs.newpage.kills=N} runs N, {@code -Dqs.long=true} 40.
 */
@ExtendWith(SeedExtension.class)
class NewPageKillTest {
    /** 4,096 frames (32 MiB, more than the test loads), 1 MiB log segments, no checkpoint before 1 GiB of log. */
    static final StoreOptions OPTIONS = new StoreOptions(4096, 1 << 20, 1L << 30);

    @TempDir
    Path dir;

    @Test
    void killedBetweenAllocationAndCommitRecoversExactlyTheCommittedPrefix(Seed seed) throws Exception {
        int kills = Integer.getInteger("qs.newpage.kills", ChildJvm.longMode() ? 40 : 6);
        SplittableRandom rnd = new SplittableRandom(seed.value());
        Path db = dir.resolve("db");
        Store.create(db, 8192, OPTIONS).close();
        long recovered = 0;
        int betweenAllocationAndCommit = 0;
        int inFlightDurable = 0;
        long newPagesRedone = 0;
        for (int kill = 0; kill < kills; kill++) {
            long acknowledged = recovered;
            long allocated = recovered;
            List<String> transcript = new ArrayList<>();
            boolean aimAtWindow = kill % 2 == 0;
            int waitFor = 1 + rnd.nextInt(3); // batches acknowledged before the kill
            try (ChildJvm.Running child = ChildJvm.main(NewPageKillChild.class)
                    .workDir(dir)
                    .jvmArgs("-ea", "-Xmx256m")
                    .args(db.toString(), Long.toString(seed.value()), Long.toString(seed.value() + kill))
                    .timeout(Duration.ofSeconds(300))
                    .start()) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                while (true) {
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
                    } else if (l.startsWith("allocated ")) {
                        allocated = Long.parseLong(l.substring(10));
                    } else {
                        fail("unexpected child output: " + l);
                    }
                    if (acknowledged - recovered >= waitFor && (!aimAtWindow || allocated > acknowledged)) {
                        break;
                    }
                }
                if (!aimAtWindow) {
                    LockSupport.parkNanos(rnd.nextLong(TimeUnit.MILLISECONDS.toNanos(300)));
                }
                child.kill(); // SIGKILL: no close, no checkpoint, no write-back
                for (String l : child.remainingLines()) {
                    transcript.add(l);
                    if (l.startsWith("committed ")) {
                        acknowledged = Long.parseLong(l.substring(10));
                    }
                }
            }
            if (aimAtWindow && transcript.getLast().startsWith("allocated ")) {
                betweenAllocationAndCommit++;
            }
            long newPages = newPageRecords(db);
            try (Store s = Store.open(db, OPTIONS)) {
                long k = BulkLoad.batches(s);
                assertTrue(
                        k == acknowledged || k == acknowledged + 1,
                        "kill " + kill + ": recovered " + k + " batches, acknowledged " + acknowledged + " (transcript "
                                + transcript + ")");
                if (k == acknowledged + 1) {
                    inFlightDurable++;
                }
                BulkLoad.check(
                        s, seed.value(), k, "kill " + kill + " (recovered " + k + ", " + s.recoveryStats() + ")");
                assertTrue(
                        k == recovered || newPages > 0,
                        "kill " + kill + ": batches committed since the last recovery logged no NEW_PAGE record ("
                                + newPages + ")");
                newPagesRedone += newPages;
                recovered = k;
            }
        }
        assertTrue(recovered > 0, "no batch was ever committed in " + kills + " kills");
        assertTrue(betweenAllocationAndCommit > 0, "no kill landed between allocation and commit");
        System.out.printf(
                "new-page kills: %d SIGKILLs, %d batches committed, %d kills between allocation and commit, %d in-flight"
                        + " commits found durable, %d NEW_PAGE records in the logs recovered%n",
                kills, recovered, betweenAllocationAndCommit, inFlightDurable, newPagesRedone);
    }

    /**
     * NEW_PAGE records after the control file's checkpoint (the one the last recovery took): what the killed child
     * logged. Read before recovery.
     */
    static long newPageRecords(Path db) throws Exception {
        ControlFile ctl = ControlFile.read(RealFileIO.INSTANCE, db.resolve(VolumeFile.CONTROL_FILE));
        long n = 0;
        try (LogReader r = new LogReader(RealFileIO.INSTANCE, db.resolve(VolumeFile.LOG_DIR), ctl.logSegmentBytes())) {
            LogReader.Scan scan = r.scan(ctl.checkpointLsn(), ctl.checkpointLsn() + 1);
            for (LogRecord rec = scan.next(); rec != null; rec = scan.next()) {
                n += rec.type == LogRecord.NEW_PAGE ? 1 : 0;
            }
        }
        return n;
    }
}
