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
    static final int REDIRTIED = 2 * (POOL / 2 + 2); // objects changed by two transactions in a row: 10 pages

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(
            value = FramesMode.class,
            names = {"EXPLICIT", "SOFTWARE"})
    void aWorkingSetSmallerThanThePoolIsReadOnceAfterACommitThatFilledThePoolWithChanges(FramesMode mode)
            throws Exception {
        StoreOptions opts = new StoreOptions(POOL, 1 << 22, 1 << 26).withFrames(mode);
        long[] refs = populate(opts);
        try (Store s = Store.open(dir, opts)) {
            commitNegated(s, refs, CHANGED); // 14 pages: they fit, no steal
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

    /**
     * The same pool full of disk-dirty pages, but the next transaction changes them again before it reads: they are
     * dirty in the running transaction too, so no eviction can write them back before its commit. An eviction walks
     * the dirty page table once and not again until the transaction ends (before, each of this test's ~500
     * evictions walked all of it for nothing); after the commit they are written back.
     */
    @ParameterizedTest
    @EnumSource(
            value = FramesMode.class,
            names = {"EXPLICIT", "SOFTWARE"})
    void evictionsDoNotWalkTheDirtyPageTableAgainWhileItsPagesAreDirtyInTheTransaction(FramesMode mode)
            throws Exception {
        StoreOptions opts = new StoreOptions(POOL, 1 << 22, 1 << 26).withFrames(mode);
        long[] refs = populate(opts);
        try (Store s = Store.open(dir, opts)) {
            commitNegated(s, refs, REDIRTIED);
            long evictions0;
            long walks0;
            long steals0;
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < REDIRTIED; i++) { // the same 10 pages, dirty again in this transaction
                    tx.putLong(refs[i], 8, i);
                }
                assertTrue(s.pool.dirtyPageTable().size() > POOL / 2, "disk-dirty: " + s.pool.dirtyPageTable());
                evictions0 = s.pool.stats(null).evictions();
                walks0 = s.pool.writeBackWalks;
                steals0 = s.pool.steals();
                for (int round = 0; round < 5; round++) {
                    for (int i = 40; i < OBJECTS; i += 2) { // 100 pages through the six frames left
                        assertEquals(i, tx.getLong(refs[i], 0), "object " + i);
                    }
                }
                long evictions = s.pool.stats(null).evictions() - evictions0;
                assertTrue(evictions >= 100, "the reads evicted: " + evictions);
                assertEquals(0, s.pool.steals() - steals0, "no steal: the reads had frames of their own");
                assertEquals(
                        1,
                        s.pool.writeBackWalks - walks0,
                        evictions + " evictions walked the dirty page table " + (s.pool.writeBackWalks - walks0)
                                + " times");
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                assertEquals(40, tx.getLong(refs[40], 0));
                assertEquals(200, tx.getLong(refs[200], 0));
            }
            assertTrue(
                    s.pool.dirtyPageTable().size() <= POOL / 2,
                    "after the commit the committed pages were written back: " + s.pool.dirtyPageTable());
        }
        try (Store s = Store.open(dir, opts);
                Transaction tx = s.begin()) {
            for (int i = 0; i < OBJECTS; i++) {
                assertEquals(i < REDIRTIED ? -i : i, tx.getLong(refs[i], 0), "object " + i + " after reopen");
                assertEquals(i < REDIRTIED ? i : 0, tx.getLong(refs[i], 8), "object " + i + " field 8 after reopen");
            }
        }
    }

    /** A new store of {@value #OBJECTS} objects, two per page; their references. */
    private long[] populate(StoreOptions opts) throws java.io.IOException {
        try (Store s = Store.create(dir, 8192, opts)) {
            return MappedStoreTest.populate(s, OBJECTS);
        }
    }

    /** One transaction that negates the first field of objects 0..n-1, committed. */
    private static void commitNegated(Store s, long[] refs, int n) {
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < n; i++) {
                tx.putLong(refs[i], 0, -i);
            }
            tx.commit();
        }
    }
}
