package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.error.PageFaultRefusedException;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JFR events (docs/observability.md) recorded in this JVM with {@link Recording} around a real workload on a
 * mapped store - commits, an abort, a checkpoint, evictions of a 16-frame pool, a refused fault, recovery after a
 * SIGKILLed child JVM - then read back with {@link RecordingFile}: every event is there with the values the
 * store's own counters show.
 */
class FlightRecorderEventsTest {
    private static final List<String> EVENTS = List.of(
            "dev.quickstore.Commit",
            "dev.quickstore.Abort",
            "dev.quickstore.Checkpoint",
            "dev.quickstore.Recovery",
            "dev.quickstore.Eviction",
            "dev.quickstore.RefusedFault");

    @TempDir
    Path dir;

    private static Recording recording() {
        Recording r = new Recording();
        for (String e : EVENTS) {
            r.enable(e).withoutThreshold();
        }
        r.enable("dev.quickstore.StoreCounters").withPeriod(Duration.ofMillis(100));
        return r;
    }

    /** The recorded events of {@code store} by event name. */
    private static Map<String, List<RecordedEvent>> read(Path file, String store) throws Exception {
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getEventType().getName().startsWith("dev.quickstore."))
                .filter(e -> store.equals(e.getString("store")))
                .sorted(java.util.Comparator.comparing(RecordedEvent::getStartTime))
                .collect(Collectors.groupingBy(e -> e.getEventType().getName()));
    }

    @Test
    void theWorkloadsEventsAreRecordedWithTheCountersValues() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        try (Store s = Store.create(db, 8192, MappedStoreTest.OPTS)) {
            refs = MappedStoreTest.populate(s, 8);
        }
        Path file = dir.resolve("events.jfr");
        int commits = 0;
        long evictions;
        long redoBytes;
        long redoRecords;
        long refusedPage;
        long abortedPages;
        long checkpointWrites;
        try (Recording r = recording()) {
            r.start();
            try (Store s = Store.open(db, MappedStoreTest.OPTS)) {
                try (Transaction tx = s.begin()) { // a page made disk-dirty, then written back by a checkpoint
                    tx.putLong(refs[0], 8, 76);
                    tx.commit();
                    commits++;
                }
                long writes0 = s.stats().pageWrites();
                s.checkpoint();
                checkpointWrites = s.stats().pageWrites() - writes0;
                // 40 transactions of two new objects each (one page per 2 objects): 40 pages through 16 frames
                for (int t = 0; t < 40; t++) {
                    try (Transaction tx = s.begin()) {
                        tx.putLong(tx.allocate(MappedStoreTest.OBJECT), 0, t);
                        tx.putLong(tx.allocate(MappedStoreTest.OBJECT), 0, -t);
                        tx.commit();
                        commits++;
                    }
                }
                try (Transaction tx = s.begin()) { // a read-only commit: no page, no log bytes
                    assertEquals(0, tx.getLong(refs[0], 0));
                    tx.commit();
                    commits++;
                }
                try (Transaction tx = s.begin()) {
                    tx.putLong(refs[1], 8, 77);
                    MappedStoreTest.put(s, refs[2], 8, 78); // through the view: a write fault
                    tx.abort();
                }
                abortedPages = s.addresses.pageOf(refs[1]) == s.addresses.pageOf(refs[2]) ? 1 : 2;
                MappedStoreTest.put(s, refs[3], 8, 79); // outside a transaction: refused
                PageFaultRefusedException refused = assertThrows(PageFaultRefusedException.class, s::checkPending);
                refusedPage = refused.page();
                assertEquals(commits, s.commitStats().commits());
                redoBytes = s.stats().redoBytes();
                redoRecords = s.stats().redoRecords();
                PoolStats pool = s.poolStats();
                evictions = pool.evictions();
                assertTrue(evictions > 0, "a 16-frame pool evicted: " + pool);
                awaitPeriodic(r, file, s.dir.toAbsolutePath().normalize().toString());
            }
            r.stop();
            r.dump(file);
        }
        Map<String, List<RecordedEvent>> ev = read(file, db.toString());

        List<RecordedEvent> commitEvents = ev.getOrDefault("dev.quickstore.Commit", List.of());
        assertEquals(commits, commitEvents.size(), "one Commit event per commit");
        long pageCommits =
                commitEvents.stream().filter(e -> e.getLong("pages") > 0).count();
        assertEquals(41, pageCommits, "the 41 writing transactions dirtied pages");
        for (RecordedEvent e : commitEvents) {
            boolean wrote = e.getLong("pages") > 0;
            assertEquals(wrote, e.getLong("logBytes") > 0, e.toString());
            assertEquals(wrote, e.getLong("redoRecords") > 0, e.toString());
            assertEquals(wrote, e.getBoolean("forced"), e.toString());
            assertFalse(e.getDuration().isNegative(), e.toString());
        }
        assertEquals(
                redoRecords,
                commitEvents.stream().mapToLong(e -> e.getLong("redoRecords")).sum(),
                "the Commit events' REDO records are the store's");
        assertTrue(
                commitEvents.stream().mapToLong(e -> e.getLong("logBytes")).sum() >= redoBytes + 41 * COMMIT_BYTES,
                "log bytes cover the REDO bytes " + redoBytes + " and 41 COMMIT records");

        List<RecordedEvent> aborts = ev.get("dev.quickstore.Abort");
        assertEquals(1, aborts.size(), String.valueOf(aborts));
        assertEquals(abortedPages, aborts.get(0).getLong("pagesRestored"), "the pages restored from pre-images");

        List<RecordedEvent> checkpoints = ev.get("dev.quickstore.Checkpoint");
        assertTrue(checkpoints.size() >= 3, "open, explicit and close checkpoints: " + checkpoints.size());
        assertTrue(checkpoints.stream().allMatch(e -> e.getLong("checkpointLsn") >= e.getLong("redoStartLsn")));
        assertTrue(checkpointWrites > 0, "the committed page was written back by the checkpoint");
        assertEquals(
                checkpointWrites, checkpoints.get(1).getLong("pagesWritten"), "the explicit checkpoint (after open's)");

        List<RecordedEvent> batches = ev.get("dev.quickstore.Eviction");
        assertTrue(batches != null && !batches.isEmpty(), "eviction batches");
        long batchEvictions =
                batches.stream().mapToLong(e -> e.getLong("framesEvicted")).sum();
        assertTrue(batches.stream().allMatch(e -> e.getLong("framesEvicted") > 0));
        assertTrue(
                batchEvictions > 0 && batchEvictions <= evictions,
                "Java-side evictions " + batchEvictions + " of " + evictions + " (the fault path's are not events)");

        List<RecordedEvent> refusals = ev.get("dev.quickstore.RefusedFault");
        assertEquals(1, refusals.size(), String.valueOf(refusals));
        assertEquals(refusedPage, refusals.get(0).getLong("page"));
        assertEquals("NO_TRANSACTION", refusals.get(0).getString("reason"));
        assertTrue(refusals.get(0).getBoolean("thrown"));

        List<RecordedEvent> recoveries = ev.get("dev.quickstore.Recovery");
        assertEquals(1, recoveries.size(), "the open recovered (a clean store: from its checkpoint)");
        assertTrue(recoveries.get(0).getLong("recordsScanned") >= 1);
        assertEquals(0, recoveries.get(0).getInt("losersUndone"));
    }

    private static final long COMMIT_BYTES = dev.quickstore.core.log.LogRecord.encodeCommit(1, 1, 1).length;

    /**
     * Dumps the running recording until it holds a periodic StoreCounters event of {@code store} (every 100 ms
     * here); fails after 30 s.
     */
    private static void awaitPeriodic(Recording r, Path file, String store) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            Thread.sleep(200);
            r.dump(file);
            List<RecordedEvent> counters = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals("dev.quickstore.StoreCounters"))
                    .filter(e -> store.equals(e.getString("store")))
                    .toList();
            if (!counters.isEmpty()) {
                RecordedEvent last = counters.getLast();
                assertTrue(last.getLong("commits") > 0, last.toString());
                assertTrue(last.getLong("writeFaults") > 0, "the view store faulted: " + last);
                assertEquals(16, last.getLong("poolCapacity"));
                assertTrue(last.getLong("refusals") >= 1, last.toString());
                return;
            }
        }
        fail("no periodic dev.quickstore.StoreCounters event of " + store + " within 30 s");
    }

    @Test
    void recoveryAfterASigkillIsRecorded() throws Exception {
        Path db = dir.resolve("crashed");
        try (Store s = Store.create(db, 8192, MappedStoreTest.OPTS)) {
            MappedStoreTest.populate(s, 120);
        }
        try (ChildJvm.Running child = ChildJvm.main(MappedCrashChild.class)
                .workDir(dir)
                .jvmArgs("-ea", "-Xmx256m")
                .args(db.toString())
                .timeout(Duration.ofSeconds(300))
                .start()) {
            String l1 = child.nextLine(Duration.ofSeconds(90));
            String l2 = l1 == null ? null : child.nextLine(Duration.ofSeconds(90));
            if (!"committed".equals(l1) || l2 == null || !l2.startsWith("uncommitted steals=")) {
                fail("child said " + l1 + " / " + l2 + "; " + child.describe());
            }
            child.kill(); // SIGKILL: the committed transaction is only in the log, the uncommitted one was stolen
        }
        Path file = dir.resolve("recovery.jfr");
        dev.quickstore.core.stats.RecoveryStats stats;
        try (Recording r = recording()) {
            r.start();
            try (Store s = Store.open(db, MappedStoreTest.OPTS)) {
                stats = s.recoveryStats();
            }
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> rec = read(file, db.toString()).get("dev.quickstore.Recovery");
        assertEquals(1, rec.size(), String.valueOf(rec));
        RecordedEvent e = rec.get(0);
        assertTrue(stats.logRecordsScanned() > 0 && stats.losersUndone() >= 1, stats.toString());
        assertEquals(stats.logRecordsScanned(), e.getLong("recordsScanned"));
        assertEquals(stats.redoApplied(), e.getLong("recordsRedone"));
        assertEquals(stats.losersUndone(), e.getInt("losersUndone"));
        assertEquals(stats.tornPagesRestored().size(), e.getInt("tornPagesRestored"));
        assertTrue(e.getDuration().toNanos() > 0);
    }
}
