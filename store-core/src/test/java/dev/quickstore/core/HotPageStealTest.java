package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
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
 * again while the pool's {@code writeStamp} holds ({@code ObjectAllocator.hotSegment}). Here that page is stolen in
 * the middle of the transaction (written back and evicted while dirty) and read back in, clean, into the same frame
 * (identity placement): the kept segment is the same memory and still describes the page, but the page is no longer
 * dirty. The next append must fix it for write again (a new pre-image), or the slot it adds is in no log record and
 * is lost by a power cut. Checked after a power cut and recovery; with the stamp ignored, the object's slot is
 * missing there.
 */
class HotPageStealTest {
    private static final Path DIR = Path.of("/mem/db");
    /** 16 frames: the 30 pages dirtied below cannot all stay; no checkpoint before the power cut. */
    private static final StoreOptions OPTS = new StoreOptions(16, 1 << 20, 1L << 30);

    @Test
    void anAppendAfterTheHotPageWasStolenAndReadAgainIsLogged() throws Exception {
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store.create(fs, DIR, 8192, OPTS).close();
        Store store = Store.open(fs, DIR, OPTS);
        long base = store.arenaBase();
        List<Long> spread = new ArrayList<>();
        try (Transaction tx = store.begin()) {
            for (int i = 0; i < 30; i++) { // one object per page: more pages than frames
                spread.add(tx.allocate(6000, 0));
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
            long steals0 = store.pool.steals();
            for (int round = 0; round < 10 && frames.resident(hot) != null; round++) {
                for (long o : spread) { // dirties every page again: steals take the unpinned hot page too
                    tx.write(o, 1, new byte[] {(byte) round});
                }
            }
            assertTrue(store.pool.steals() > steals0, "no steal happened: the test needs one");
            assertTrue(frames.resident(hot) == null, "hot page " + hot + " was not stolen");
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
}
