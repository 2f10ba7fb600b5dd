package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.options.StoreOptions;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background allocation of arena memory at open ({@code ArenaPopulator}, docs/native.md): it covers the
 * volume's frames up to the pool's capacity, loads and changes no page (every object reads back after a reopen,
 * through real cold faults), and a store closed while it runs waits for it.
 */
class ArenaPopulatorTest {
    private static final int OBJECT = 2_000; // four per 8 KiB page

    @TempDir
    Path dir;

    /** Creates a store with {@code objects} seeded objects and returns their addresses. */
    private List<Long> fill(Path db, int objects, long seed) throws Exception {
        List<Long> refs = new ArrayList<>();
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            Random rnd = new Random(seed);
            for (int i = 0; i < objects; i++) {
                byte[] b = new byte[OBJECT];
                rnd.nextBytes(b);
                long r = tx.allocate(OBJECT);
                tx.write(r, 0, b);
                refs.add(r);
            }
            tx.commit();
        }
        return refs;
    }

    private static String state(Store s) {
        MappedFrames f = s.mappedFramesForTest();
        return "moved arena " + f.movedArena() + ", relocated pages " + s.relocatedPages() + ", failure "
                + f.populateFailure();
    }

    /** Reads every object through the application view (real read faults), then through the store's API. */
    private static void checkContents(Store s, List<Long> refs, long seed) {
        Random rnd = new Random(seed);
        MemorySegment view = s.view();
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < refs.size(); i++) {
                byte[] b = new byte[OBJECT];
                rnd.nextBytes(b);
                long off = refs.get(i) - s.arenaBase();
                for (int k = 0; k < OBJECT; k += 499) {
                    assertEquals(b[k], view.get(ValueLayout.JAVA_BYTE, off + k), "object " + i + " byte " + k);
                }
                assertArrayEquals(b, tx.read(refs.get(i)), "object " + i + " at " + Long.toHexString(refs.get(i)));
            }
            tx.commit();
        }
    }

    @Test
    void populatesTheVolumesFramesAndLoadsStillReadEveryPage() throws Exception {
        Path db = dir.resolve("db");
        List<Long> refs = fill(db, 400, 7);
        try (Store s = Store.open(db)) {
            MappedFrames f = s.mappedFramesForTest();
            assertTrue(f.awaitPopulated(30_000), "the populating thread ended");
            long pages = s.pageCount();
            assertTrue(pages > 100, "a volume of " + pages + " pages");
            assertEquals(
                    Math.min(pages, s.options().bufferPoolPages()),
                    f.populatedFrames(),
                    "frames populated; " + state(s));
            int resident = s.residentPagesForTest();
            assertTrue(resident <= 2, "populating loads no page: resident " + resident + " (the open's own)");
            long before = s.faultCounters().readFaults();
            checkContents(s, refs, 7);
            assertTrue(s.faultCounters().readFaults() - before >= 100, "the objects were read through cold faults");
        }
    }

    @Test
    void isBoundedByThePoolsCapacity() throws Exception {
        Path db = dir.resolve("db");
        List<Long> refs = fill(db, 400, 11);
        StoreOptions small =
                StoreOptions.defaults().toBuilder().bufferPoolPages(16).build();
        try (Store s = Store.open(db, small)) {
            MappedFrames f = s.mappedFramesForTest();
            assertTrue(f.awaitPopulated(30_000), "the populating thread ended");
            assertEquals(
                    16,
                    f.populatedFrames(),
                    "a 16-frame pool populates 16 frames of " + s.pageCount() + "; " + state(s));
            checkContents(s, refs, 11); // evictions punch populated frames: still correct
        }
    }

    @Test
    void aStoreClosedWhilePopulatingWaitsForTheThread() throws Exception {
        Path db = dir.resolve("db");
        List<Long> refs = fill(db, 8_000, 13); // about 2,000 pages: several runs of populate
        StoreOptions big =
                StoreOptions.defaults().toBuilder().bufferPoolPages(8_192).build();
        for (int round = 0; round < 25; round++) {
            MappedFrames f;
            try (Store s = Store.open(db, big)) {
                f = s.mappedFramesForTest();
                assertTrue(f.populatedFrames() <= s.pageCount());
            } // closed at once: usually while the thread is still allocating
            assertTrue(f.awaitPopulated(30_000), "the thread ended");
            // a thread that outlived the arena would have failed on its closed memfd (or crashed the VM)
            assertNull(f.populateFailure(), "round " + round);
        }
        try (Store s = Store.open(db, big)) {
            checkContents(s, refs, 13);
        }
    }
}
