package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.options.CommitLogging;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.stats.StoreStats;
import dev.quickstore.core.txn.TransactionManager;
import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CommitLogging#FULL_PAGES} (Cricket's "log full pages at commit", Shekita and Zwilling 1990, section 5.3):
 * a commit logs each dirty page as one REDO range covering the page, where {@link CommitLogging#PAGE_DIFFS} logs
 * only the changed bytes; after a SIGKILL that left the committed pages only in the log, recovery redoes the
 * full-page records and the committed values are back.
 */
class FullPageLoggingTest {
    static final int PAGE = 8192;
    static final StoreOptions DIFFS = new StoreOptions(64, 1 << 18, 1L << 30).withFrames(FramesMode.MAPPED);
    static final StoreOptions FULL = DIFFS.withCommitLogging(CommitLogging.FULL_PAGES);
    /** Two objects per page: the updates below dirty one page per even-indexed pair. */
    static final int OBJECT = 3000;

    @TempDir
    Path dir;

    static long[] populate(Store s, int n) {
        long[] refs = new long[n];
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < n; i++) {
                refs[i] = tx.allocate(OBJECT);
                tx.putLong(refs[i], 0, i);
                tx.setRoot("o" + i, refs[i]);
            }
            tx.commit();
        }
        return refs;
    }

    /** Sets word 1 of objects 0, 2, 4, ... (one per page) to {@code base + i} in one transaction. */
    static int update(Store s, long[] refs, long base) {
        int pages = 0;
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < refs.length; i += 2) {
                tx.putLong(refs[i], 8, base + i);
                pages++;
            }
            tx.commit();
        }
        return pages;
    }

    /** The objects {@link #populate} made, from their roots (for a process that did not make them). */
    static long[] refsOf(Store s, int n) {
        long[] refs = new long[n];
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < n; i++) {
                refs[i] = tx.root("o" + i);
            }
            tx.commit();
        }
        return refs;
    }

    @Test
    void fullPageRecordsCoverThePageWhereDiffsLogTheChangedWord() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        int pages;
        long diffBytes;
        long diffRecords;
        try (Store s = Store.create(db, PAGE, DIFFS)) {
            refs = populate(s, 20);
            StoreStats before = s.stats();
            pages = update(s, refs, 1000);
            StoreStats after = s.stats();
            diffRecords = after.redoRecords() - before.redoRecords();
            diffBytes = after.redoBytes() - before.redoBytes();
        }
        try (Store s = Store.open(db, FULL)) {
            StoreStats before = s.stats();
            assertEquals(pages, update(s, refs, 2000));
            StoreStats after = s.stats();
            long records = after.redoRecords() - before.redoRecords();
            long bytes = after.redoBytes() - before.redoBytes();
            int fullRecord = LogRecord.HEADER
                    + LogRecord.PAGE_HEADER
                    + LogRecord.RANGE_HEADER
                    + (PAGE - TransactionManager.FULL_PAGE_START);
            assertEquals(pages, records, "one REDO record per dirty page");
            assertEquals(records * fullRecord, bytes, "each record is one range over the whole page");
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(i, tx.getLong(refs[i], 0));
                    assertEquals(i % 2 == 0 ? 2000 + i : 0, tx.getLong(refs[i], 8), "object " + i);
                }
                tx.commit();
            }
        }
        assertEquals(pages, diffRecords, "one REDO record per dirty page with diffs too");
        int changedWord = LogRecord.HEADER + LogRecord.PAGE_HEADER + LogRecord.RANGE_HEADER + 8;
        assertTrue(
                diffBytes <= diffRecords * changedWord,
                "diff records hold at most the changed word each: " + diffBytes + " bytes in " + diffRecords);
    }

    @Test
    void fullPageRecordsAreRedoneAfterSigkill() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        try (Store s = Store.create(db, PAGE, DIFFS)) {
            refs = populate(s, 20);
            s.checkpoint(); // the populated pages are on the volume; what follows is only in the log
        }
        try (ChildJvm.Running child = ChildJvm.main(FullPageLogChild.class)
                .workDir(dir)
                .jvmArgs("-ea", "-Xmx256m")
                .args(db.toString(), Integer.toString(refs.length))
                .timeout(Duration.ofSeconds(300))
                .start()) {
            String line = child.nextLine(Duration.ofSeconds(90));
            if (line == null || !line.startsWith("committed ")) {
                fail("child said " + line + "; " + child.describe());
            }
            assertTrue(Long.parseLong(line.substring(10)) > 0, "the child wrote REDO records: " + line);
            child.kill(); // SIGKILL: the committed pages were never written back
            assertEquals(137, child.exitCode(), "killed by SIGKILL (128 + 9)");
        }
        try (Store s = Store.open(db, DIFFS)) {
            assertTrue(s.recoveryStats().redoApplied() >= 2, "recovery redid the commits: " + s.recoveryStats());
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(i, tx.getLong(refs[i], 0), "word 0 of object " + i);
                    assertEquals(i % 2 == 0 ? 4000 + i : 0, tx.getLong(refs[i], 8), "word 1 of object " + i);
                }
                tx.commit();
            }
            assertTrue(s.verify().ok(), s.verify().toString());
        }
    }
}
