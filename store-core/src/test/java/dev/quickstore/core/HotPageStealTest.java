package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.buffer.PageFrames;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The object allocator keeps the segment of the page it is filling and appends through it without fixing the page
 * again while the pool's {@code writeStamp} holds ({@code ObjectAllocator.hotSegment}), and keeps the page of its
 * last delete the same way ({@code ObjectAllocator.deletePage}). Here that page is stolen in the middle of the
 * transaction (written back and evicted while dirty) and read back in, clean, into the same frame (identity
 * placement): the kept segment is the same memory and still describes the page, but the page is no longer dirty. The
 * next append or delete must fix it for write again (a new pre-image), or the slot it adds or frees is in no log
 * record and is lost by a power cut. Checked after a power cut and recovery; with the stamp ignored, the appended
 * object's slot is missing there, and the delete leaves the page clean.
 */
class HotPageStealTest {
    static final Path DIR = Path.of("/mem/db");
    /** 16 frames: the 30 pages dirtied below cannot all stay; no checkpoint before the power cut. */
    static final StoreOptions OPTS = new StoreOptions(16, 1 << 20, 1L << 30);

    private final FaultInjectingFileIO fs = new FaultInjectingFileIO();
    /** Objects of one page each, rewritten to make the pool steal ({@link #stealByRewriting}). */
    private final List<Long> spread = new ArrayList<>();

    /** A new store on {@code fs}, opened with {@link #OPTS} (the caller closes it, crashed or not). */
    static Store freshStore(FaultInjectingFileIO fs) throws Exception {
        Store.create(fs, DIR, 8192, OPTS).close();
        return Store.open(fs, DIR, OPTS);
    }

    /**
     * Dirties every page of {@code spread} again, round after round, until a steal took {@code page} (written back and
     * evicted while dirty); fails if none did.
     */
    static void stealByRewriting(Store store, Transaction tx, List<Long> spread, long page) {
        PageFrames frames = store.pool.frames();
        long steals0 = store.pool.steals();
        for (int round = 0; round < 10 && frames.resident(page) != null; round++) {
            for (long o : spread) { // dirties every page again: steals take the unpinned page too
                tx.write(o, 1, new byte[] {(byte) round});
            }
        }
        assertTrue(store.pool.steals() > steals0, "no steal happened: the test needs one");
        assertTrue(frames.resident(page) == null, "page " + page + " was not stolen");
    }

    @Test
    void anAppendAfterTheHotPageWasStolenAndReadAgainIsLogged() throws Exception {
        Store store = freshStore(fs);
        long base = store.arenaBase();
        try (Transaction tx = store.begin()) {
            for (int i = 0; i < 30; i++) { // one object per page, none beside it: more pages than frames
                spread.add(tx.allocate(8000, 0)); // (the next transaction starts on the last page if it fits)
            }
            tx.commit();
        }
        byte[] payload = new byte[64];
        Arrays.fill(payload, (byte) 5);
        long first;
        long last;
        PageFrames frames = store.pool.frames();
        try (Transaction tx = store.begin()) {
            first = tx.allocate(64, 0);
            long hot = store.addresses.pageOf(first);
            long near = first;
            for (int i = 0; i < 3; i++) { // appends on the hot page: the allocator keeps its segment
                near = tx.allocate(64, near);
                assertEquals(hot, store.addresses.pageOf(near), "appended on the hot page");
            }
            stealByRewriting(store, tx, spread, hot);
            byte[] b = new byte[8];
            tx.read(first, 0, b, 0, b.length); // reads it back in: resident, clean
            assertNotNull(frames.resident(hot));
            assertFalse(frames.isDirty(hot), "read back clean");
            last = tx.allocate(64, near);
            assertEquals(hot, store.addresses.pageOf(last), "appended on the hot page again");
            assertTrue(frames.isDirty(hot), "the append made the page dirty again");
            tx.write(last, 0, payload);
            tx.commit();
        }
        fs.crash(new SplittableRandom(7)); // never closed: only the log holds the commit
        try (Store s = Store.open(fs, DIR, OPTS)) {
            long shift = s.arenaBase() - base;
            try (Transaction tx = s.begin()) {
                byte[] got = new byte[payload.length];
                tx.read(last + shift, 0, got, 0, got.length);
                assertArrayEquals(payload, got, "the object appended after the steal");
                tx.commit();
            }
            assertTrue(s.verify().ok(), "verify after recovery: " + s.verify());
        }
        CommitCleanPointTest.closeCrashed(store);
    }

    @Test
    void aDeleteAfterThePageWasStolenAndReadAgainIsLogged() throws Exception {
        Store store = freshStore(fs);
        long base = store.arenaBase();
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
            stealByRewriting(store, tx, spread, page);
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
}
