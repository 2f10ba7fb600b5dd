package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.Replacement;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Replacement policies on the mapped arena with a pool much smaller than the data. The simplified and
 * classic clocks run in the data plane (DataPlaneReplacer, qs_clock.c): the pool size must bound the resident
 * frames for the store's own loads and for the application's faults through the view alike, results
 * must be correct under every policy, and each policy's counters must move as the policy says.
 */
class ReplacementTest {
    static final int POOL = 16;
    static final int OBJECTS = 240; // two 3000-byte objects per 8 KiB page: ~120 data pages, 7x the pool
    static final int HOT = 6; // three pages

    @TempDir
    Path dir;

    record Run(PoolStats pool, FaultCounters c, int hotLoads, int scanLoads, long checksum) {}

    static StoreOptions opts(Replacement policy) {
        return new StoreOptions(POOL, 1 << 18, 1 << 22)
                .withFrames(FramesMode.MAPPED)
                .withReplacement(policy);
    }

    static void assertWithinPool(Store s, Replacement policy, String where) {
        if (policy != Replacement.STORE_CLOCK) {
            assertTrue(
                    s.residentPagesForTest() <= POOL,
                    "resident " + s.residentPagesForTest() + " > " + POOL + " " + where);
        }
    }

    /** A scan through the store API (the store's own loads) interleaved with a hot set read through the view. */
    Run run(Replacement policy, Path d) throws Exception {
        long[] refs;
        try (Store s = Store.create(d, 8192, opts(policy))) {
            refs = MappedStoreTest.populate(s, OBJECTS);
        }
        long sum = 0;
        try (Store s = Store.open(d, opts(policy))) {
            MappedArena arena = s.mappedFrames().arena();
            long readsBefore = s.pool.reads;
            for (int round = 0; round < 3; round++) {
                try (Transaction tx = s.begin()) {
                    for (int i = HOT; i < OBJECTS; i++) {
                        assertEquals(i, tx.getLong(refs[i], 0), "scan object " + i);
                        sum += tx.getLong(refs[i], 0);
                        for (int h = 0; h < HOT; h++) { // the hot set, through the view
                            long v = MappedStoreTest.get(s, refs[h], 0);
                            assertEquals(h + round * 1000L, v, "hot object " + h);
                            if (i == OBJECTS - 1) {
                                MappedStoreTest.put(s, refs[h], 0, h + (round + 1) * 1000L);
                            }
                            sum += v;
                        }
                        assertWithinPool(s, policy, "at object " + i + " of round " + round);
                    }
                    s.checkPending();
                    tx.commit();
                }
                assertWithinPool(s, policy, "after commit " + round);
            }
            int hotLoads = 0;
            for (int h = 0; h < HOT; h += 2) {
                hotLoads += arena.loads(arena.frameOf(refs[h])); // the hot pages are only loaded by faults
            }
            int scanLoads = (int) (s.pool.reads - readsBefore); // the scan pages only by the store
            Run result = new Run(s.poolStats(), arena.counters(), hotLoads, scanLoads, sum);
            try (Transaction tx = s.begin()) { // the committed hot-set updates
                for (int h = 0; h < HOT; h++) {
                    assertEquals(h + 3000L, tx.getLong(refs[h], 0));
                }
                tx.commit();
            }
            return result;
        }
    }

    @Test
    void simplifiedClockReprotectsAllWhenNoFrameIsDisabled() throws Exception {
        Run r = run(Replacement.SIMPLIFIED_CLOCK, dir.resolve("simplified"));
        assertTrue(r.pool().evictions() > 2 * OBJECTS / 2, "evictions " + r);
        assertTrue(r.pool().victims() > 0 && r.pool().victims() <= r.pool().evictions(), r.toString());
        assertTrue(r.pool().reprotectAlls() > 0, "a full sweep without a disabled frame reprotects the arena: " + r);
        assertEquals(0, r.pool().reprotectRuns(), "no per-frame reprotection: " + r);
        assertTrue(r.c().referenceFaults() > 0, "hot pages re-enabled by reference faults: " + r);
        assertEquals(0, r.c().refusals(), r.toString());
        // the hot set is referenced at every step: its 3 pages are reloaded far less often than the scan's
        assertTrue(r.hotLoads() * 10 < r.scanLoads(), r.toString());
    }

    @Test
    void classicClockClearsBitsByReprotectingFrames() throws Exception {
        Run r = run(Replacement.CLASSIC_CLOCK, dir.resolve("classic"));
        assertTrue(r.pool().evictions() > 2 * OBJECTS / 2, "evictions " + r);
        assertTrue(r.pool().victims() > 0, r.toString());
        assertEquals(0, r.pool().reprotectAlls(), "never reprotects the whole arena: " + r);
        assertTrue(
                r.pool().reprotectRuns() > 0
                        && r.pool().framesCleared() >= r.pool().reprotectRuns(),
                r.toString());
        assertTrue(r.c().referenceFaults() > 0, "cleared hot pages re-enabled by reference faults: " + r);
        assertEquals(0, r.c().refusals(), r.toString());
        assertTrue(r.hotLoads() * 10 < r.scanLoads(), r.toString());
    }

    @Test
    void allPoliciesReturnTheSameResults() throws Exception {
        long a = run(Replacement.SIMPLIFIED_CLOCK, dir.resolve("a")).checksum();
        long b = run(Replacement.CLASSIC_CLOCK, dir.resolve("b")).checksum();
        long c = run(Replacement.STORE_CLOCK, dir.resolve("c")).checksum();
        assertEquals(a, b);
        assertEquals(a, c);
    }

    /**
     * The defect this replaces: a read-only traversal through the view (application faults only, the store
     * never needs a frame) grew the resident set without bound. Now the fault path evicts by the policy.
     */
    @ParameterizedTest
    @EnumSource(
            value = Replacement.class,
            names = {"SIMPLIFIED_CLOCK", "CLASSIC_CLOCK"})
    void viewTraversalBiggerThanThePoolStaysWithinIt(Replacement policy) throws Exception {
        int n = 2 * OBJECTS; // ~240 pages, 15x the pool
        Path d = dir.resolve(policy.name());
        long[] refs;
        try (Store s = Store.create(d, 8192, opts(policy))) {
            refs = MappedStoreTest.populate(s, n);
        }
        try (Store s = Store.open(d, opts(policy))) {
            PoolStats before = s.poolStats();
            FaultCounters c0 = s.mappedFrames().arena().counters();
            try (Transaction tx = s.begin()) {
                for (int round = 0; round < 2; round++) {
                    for (int i = 0; i < n; i++) {
                        assertEquals(i, MappedStoreTest.get(s, refs[i], 0), "object " + i + " round " + round);
                        assertWithinPool(s, policy, "at object " + i + " of round " + round);
                    }
                }
                s.checkPending();
                tx.commit();
            }
            PoolStats after = s.poolStats();
            FaultCounters c1 = s.mappedFrames().arena().counters();
            assertTrue(c1.readFaults() - c0.readFaults() >= n / 2, "the traversal faulted its pages in: " + c1);
            assertTrue(after.victims() - before.victims() >= n / 2 - POOL, "the fault path evicted: " + after);
            assertEquals(0, after.overcommits(), "clean victims existed: " + after);
            assertEquals(0, c1.refusals(), c1.toString());
            if (policy == Replacement.SIMPLIFIED_CLOCK) {
                assertTrue(
                        after.reprotectAlls() > before.reprotectAlls() && after.reprotectRuns() == 0, after.toString());
            } else {
                assertTrue(after.reprotectRuns() > 0 && after.reprotectAlls() == 0, after.toString());
            }
        }
    }

    /**
     * Dirty frames are never evicted by the fault path (their pre-images and the WAL rule belong to Java):
     * a transaction that dirties more pages than the pool overcommits, and the commit brings the pool back
     * within its budget (write-back, then the clock evicts); the updates survive a reopen.
     */
    @ParameterizedTest
    @EnumSource(
            value = Replacement.class,
            names = {"SIMPLIFIED_CLOCK", "CLASSIC_CLOCK"})
    void dirtyPagesOvercommitUntilCommitThenThePoolTrims(Replacement policy) throws Exception {
        Path d = dir.resolve("w" + policy.name());
        long[] refs;
        try (Store s = Store.create(d, 8192, opts(policy))) {
            refs = MappedStoreTest.populate(s, OBJECTS);
        }
        try (Store s = Store.open(d, opts(policy))) {
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < OBJECTS; i++) {
                    MappedStoreTest.put(s, refs[i], 0, 7L * i);
                }
                s.checkPending();
                assertTrue(s.poolStats().overcommits() > 0, "every resident frame dirty: " + s.poolStats());
                assertTrue(s.residentPagesForTest() > POOL, "dirty pages stay resident");
                tx.commit();
            }
            assertWithinPool(s, policy, "after the commit");
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < OBJECTS; i++) {
                    assertEquals(7L * i, MappedStoreTest.get(s, refs[i], 0), "object " + i);
                    assertWithinPool(s, policy, "re-reading object " + i);
                }
                tx.commit();
            }
        }
        try (Store s = Store.open(d, opts(policy));
                Transaction tx = s.begin()) {
            for (int i = 0; i < OBJECTS; i++) {
                assertEquals(7L * i, tx.getLong(refs[i], 0), "object " + i + " after reopen");
            }
            tx.commit();
        }
    }
}
