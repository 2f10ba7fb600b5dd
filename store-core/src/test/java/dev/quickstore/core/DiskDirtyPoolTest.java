package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The store clock's pool after a transaction that changed nearly as many pages as the pool holds: at its commit every
 * resident page but two is disk-dirty (logged, not written back). The next eviction writes them back in one batch,
 * so the pool is whole again. Before, the clock's preference for clean victims left the reads two frames: a
 * working set of 11 pages was read again on every access through a pool of 16 (and with no clean page at all,
 * each read wrote back one page and then evicted the page it had just read) (OO7 medium on e through 2,048 pages ran
 * 26 times longer than through a pool that held the database, docs/results.md).
 */
class DiskDirtyPoolTest {
    static final int POOL = 16;
    static final int OBJECTS = 240; // two objects per page: 120 data pages
    static final int CHANGED = 2 * (POOL - 2); // objects changed by the first transaction: 14 pages

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(
            value = FramesMode.class,
            names = {"EXPLICIT", "SOFTWARE"})
    void aWorkingSetSmallerThanThePoolIsReadOnceAfterACommitThatFilledThePoolWithChanges(FramesMode mode)
            throws Exception {
        StoreOptions opts = new StoreOptions(POOL, 1 << 22, 1 << 26).withFrames(mode);
        long[] refs;
        try (Store s = Store.create(dir, 8192, opts)) {
            refs = MappedStoreTest.populate(s, OBJECTS);
        }
        try (Store s = Store.open(dir, opts)) {
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < CHANGED; i++) { // 14 pages: they fit, no steal
                    tx.putLong(refs[i], 0, -i);
                }
                tx.commit();
            }
            int diskDirty = s.pool.dirtyPageTable().size();
            assertTrue(diskDirty >= POOL - 2, "the commit left the pool full of disk-dirty pages: " + diskDirty);
            long batches0 = s.pool.writeBackBatches;
            long[] readsPerRound = new long[5];
            try (Transaction tx = s.begin()) {
                for (int round = 0; round < readsPerRound.length; round++) {
                    long r0 = s.pool.reads;
                    for (int i = 200; i < 220; i++) { // 10 pages
                        assertEquals(i, tx.getLong(refs[i], 0), "object " + i);
                        assertEquals(-3L, tx.getLong(refs[3], 0), "hot object 3"); // one more page, changed above
                    }
                    readsPerRound[round] = s.pool.reads - r0;
                }
                tx.commit();
            }
            assertTrue(readsPerRound[0] >= 10, "the first round read the working set: " + readsPerRound[0]);
            for (int round = 1; round < readsPerRound.length; round++) {
                assertEquals(
                        0,
                        readsPerRound[round],
                        "round " + round + " re-read pages of an 11-page working set"
                                + " through a pool of " + POOL + " (reads per round "
                                + java.util.Arrays.toString(readsPerRound)
                                + ")");
            }
            assertEquals(1, s.pool.writeBackBatches - batches0, "the disk-dirty pages were written back in one batch");
        }
        try (Store s = Store.open(dir, opts);
                Transaction tx = s.begin()) {
            for (int i = 0; i < OBJECTS; i++) {
                assertEquals(i < CHANGED ? -i : i, tx.getLong(refs[i], 0), "object " + i + " after reopen");
            }
        }
    }
}
