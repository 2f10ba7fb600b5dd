package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.mmu.FaultCounters;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Write-ahead (store-native {@code qs_fault.c}, {@link dev.quickstore.mmu.FrameLoading#writeAhead}): a stream of
 * plain stores to objects on consecutive pages takes fewer write faults than pages, every store is committed and
 * survives reopening, and a page made writable ahead that the transaction leaves alone is not logged.
 */
class WriteAheadTest {
    /** A pool larger than the store: no frame is evicted or reprotected by the clock during the test. */
    static final StoreOptions OPTS = new StoreOptions(256, 1 << 18, 1 << 20).withFrames(FramesMode.MAPPED);

    /** Objects (two per page) written in the second transaction: a stream of two pages, then every other page. */
    static boolean written(int i) {
        return i == 0 || i == 2 || (i >= 8 && i % 4 == 0);
    }

    @TempDir
    Path dir;

    @Test
    void aStreamOfWritesTakesFewerFaultsAndLogsOnlyWrittenPages() throws Exception {
        Path db = dir.resolve("db");
        long[] refs;
        try (Store s = Store.create(db, 8192, OPTS)) {
            refs = MappedStoreTest.populate(s, 60); // two objects per page
            MappedFrames frames = s.mappedFramesForTest();
            try (Transaction tx = s.begin()) {
                for (long r : refs) {
                    MappedStoreTest.get(s, r, 0); // resident and readable: write-ahead claims CLEAN readable frames
                }
                tx.commit();
            }
            FaultCounters c0 = frames.arena().counters();
            long redo0 = s.txns.redoRecords();
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    if (written(i)) {
                        MappedStoreTest.put(s, refs[i], 8, 5000L + i);
                    }
                }
                s.checkPending();
                tx.commit();
            }
            FaultCounters c1 = frames.arena().counters();
            long pages = java.util.stream.IntStream.range(0, refs.length)
                    .filter(WriteAheadTest::written)
                    .count();
            long faults = c1.writeFaults() - c0.writeFaults();
            long ahead = c1.writeAheadFrames() - c0.writeAheadFrames();
            assertTrue(ahead > 0, "write-ahead claimed frames: " + c1);
            assertTrue(faults < refs.length / 4, "fewer write faults (" + faults + ") than pages written");
            assertEquals(
                    refs.length / 4,
                    s.txns.redoRecords() - redo0,
                    "one REDO record per page written, none for a claimed page left alone");

            frames.writeAhead(0); // off: one write fault per page written
            FaultCounters c2 = frames.arena().counters();
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i += 4) {
                    MappedStoreTest.put(s, refs[i], 16, 7000L + i);
                }
                tx.commit();
            }
            FaultCounters c3 = frames.arena().counters();
            assertEquals(refs.length / 4, c3.writeFaults() - c2.writeFaults(), "one write fault per page when off");
            assertEquals(c2.writeAheadFrames(), c3.writeAheadFrames(), "nothing claimed when off");
        }
        try (Store s = Store.open(db, OPTS)) {
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(i, tx.getLong(refs[i], 0), "object " + i);
                    assertEquals(written(i) ? 5000L + i : 0L, tx.getLong(refs[i], 8), "object " + i + " word 1");
                    assertEquals(i % 4 == 0 ? 7000L + i : 0L, tx.getLong(refs[i], 16), "object " + i + " word 2");
                }
                tx.commit();
            }
            assertTrue(s.verify().ok(), s.verify().toString());
        }
    }
}
