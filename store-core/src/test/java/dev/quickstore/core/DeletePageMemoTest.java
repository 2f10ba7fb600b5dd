package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.buffer.PageFrames;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The object allocator keeps the segment of the page it last deleted from and frees the next object on that page
 * through it, without the fixes that validate the page, while the pool's {@code writeStamp} holds ({@code
 * ObjectAllocator.deletePage}). The kept path must still refuse an object that is not live (deleted already, or on a
 * page the transaction freed and allocated again), and must not outlive a steal: a page written back and read in
 * again is clean, and a free made through the kept segment would be in no log record (lost by a power cut). Each
 * check fails without its part of the kept path: the stamp (the first test) and the slot check (the second).
 */
class DeletePageMemoTest {
    private static final Path DIR = Path.of("/mem/db");
    /** 16 frames: the 30 pages dirtied below cannot all stay; no checkpoint before the power cut. */
    private static final StoreOptions OPTS = new StoreOptions(16, 1 << 20, 1L << 30);

    @Test
    void aDeleteAfterThePageWasStolenAndReadAgainIsLogged() throws Exception {
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store.create(fs, DIR, 8192, OPTS).close();
        Store store = Store.open(fs, DIR, OPTS);
        long base = store.arenaBase();
        List<Long> spread = new ArrayList<>();
        long a;
        long b;
        long c;
        try (Transaction tx = store.begin()) {
            a = tx.allocate(64, 0);
            b = tx.allocate(64, a);
            c = tx.allocate(64, b);
            for (int i = 0; i < 30; i++) { // one object per page, none on a's: more pages than frames
                spread.add(tx.allocate(8000, 0));
            }
            tx.commit();
        }
        store.checkpoint(); // the page is clean on disk: a steal may take it like any other
        long page = store.addresses.pageOf(a);
        assertEquals(page, store.addresses.pageOf(b), "b placed on a's page");
        assertEquals(page, store.addresses.pageOf(c), "c placed on a's page");
        for (long o : spread) {
            assertTrue(store.addresses.pageOf(o) != page, "a spread object on a's page");
        }
        PageFrames frames = store.pool.frames();
        try (Transaction tx = store.begin()) {
            tx.delete(a); // the allocator keeps the page's segment
            assertTrue(frames.isDirty(page));
            long steals0 = store.pool.steals();
            for (int round = 0; round < 10 && frames.resident(page) != null; round++) {
                for (long o : spread) { // dirties every page again: steals take the unpinned page too
                    tx.write(o, 1, new byte[] {(byte) round});
                }
            }
            assertTrue(store.pool.steals() > steals0, "no steal happened: the test needs one");
            assertNull(frames.resident(page), "page " + page + " was not stolen");
            assertEquals(64, tx.sizeOf(c)); // reads it back in: resident, clean
            assertNotNull(frames.resident(page));
            assertFalse(frames.isDirty(page), "read back clean");
            tx.delete(b);
            assertTrue(frames.isDirty(page), "the delete made the page dirty again");
            tx.commit();
        }
        fs.crash(new SplittableRandom(11)); // never closed: only the log holds the commit
        try (Store s = Store.open(fs, DIR, OPTS)) {
            long shift = s.arenaBase() - base;
            try (Transaction tx = s.begin()) {
                assertThrows(IllegalArgumentException.class, () -> tx.sizeOf(b + shift), "b was deleted");
                assertThrows(IllegalArgumentException.class, () -> tx.sizeOf(a + shift), "a was deleted");
                assertEquals(64, tx.sizeOf(c + shift), "c is live");
                tx.commit();
            }
            assertTrue(s.verify().ok(), "verify after recovery: " + s.verify());
        }
        CommitCleanPointTest.closeCrashed(store);
    }

    @Test
    void theKeptPageStillRefusesAnObjectThatIsNotLive() throws Exception {
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store.create(fs, DIR, 8192, OPTS).close();
        try (Store store = Store.open(fs, DIR, OPTS)) {
            long a;
            long b;
            try (Transaction tx = store.begin()) {
                a = tx.allocate(64, 0);
                b = tx.allocate(64, a);
                tx.commit();
            }
            long page = store.addresses.pageOf(a);
            assertEquals(page, store.addresses.pageOf(b));
            try (Transaction tx = store.begin()) {
                tx.delete(a);
                IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> tx.delete(a));
                assertTrue(twice.getMessage().contains("not a live object"), twice.getMessage());
                tx.delete(b); // the page's last object: the page is freed
                assertThrows(IllegalArgumentException.class, () -> tx.delete(b), "freed page");
                long d = tx.allocate(64, 0); // may take the freed page again, formatted anew
                tx.delete(d);
                assertThrows(IllegalArgumentException.class, () -> tx.delete(d));
                tx.commit();
            }
            assertTrue(store.verify().ok(), "verify: " + store.verify());
        }
    }
}
