package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.MappedArena;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replacement policies on the mapped arena with a pool much smaller than the data: a scan through the
 * store API (each page fixed by the store, so the pool must evict) interleaved with a hot set accessed
 * through the application view (faults). Results must be correct under every policy, and each policy's
 * counters must move as the policy says.
 */
class ReplacementTest {
    static final int POOL = 16;
    static final int OBJECTS = 240; // two 3000-byte objects per 8 KiB page: ~120 data pages, 7x the pool
    static final int HOT = 6; // three pages

    @TempDir
    Path dir;

    record Run(
            long evictions,
            long reprotectAlls,
            long reprotectRuns,
            long framesCleared,
            FaultCounters c,
            int hotLoads,
            int scanLoads,
            long checksum) {}

    Run run(Store.Replacement policy, Path d) throws Exception {
        Store.Options opts = new Store.Options(POOL, 1 << 18, 1 << 22)
                .withFrames(Store.FramesMode.MAPPED)
                .withReplacement(policy);
        long[] refs;
        try (Store s = Store.create(d, 8192, opts)) {
            refs = MappedStoreTest.populate(s, OBJECTS);
        }
        long sum = 0;
        try (Store s = Store.open(d, opts)) {
            MappedArena arena = s.mappedFrames().arena();
            FaultCounters before = arena.counters();
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
                    }
                    s.checkPending();
                    tx.commit();
                }
            }
            FaultCounters after = arena.counters();
            FaultCounters delta = new FaultCounters(
                    after.readFaults() - before.readFaults(),
                    after.writeFaults() - before.writeFaults(),
                    after.referenceFaults() - before.referenceFaults(),
                    0,
                    0,
                    0,
                    after.evictions() - before.evictions(),
                    after.faultPathEvictions() - before.faultPathEvictions(),
                    0,
                    0,
                    after.refusals() - before.refusals(),
                    0,
                    0);
            int hotLoads = 0;
            for (int h = 0; h < HOT; h += 2) {
                hotLoads += arena.loads(arena.frameOf(refs[h])); // the hot pages are only loaded by faults
            }
            int scanLoads = (int) (s.pool.reads - readsBefore); // the scan pages only by the store
            Replacer r = s.pool.replacer();
            assertTrue(s.residentPagesForTest() <= POOL + HOT, "resident " + s.residentPagesForTest());
            Run result = new Run(
                    s.pool.evictions,
                    r.reprotectAlls(),
                    r.reprotectRuns(),
                    r.framesCleared(),
                    delta,
                    hotLoads,
                    scanLoads,
                    sum);
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
        Run r = run(Store.Replacement.SIMPLIFIED_CLOCK, dir.resolve("simplified"));
        assertTrue(r.evictions() > 2 * OBJECTS / 2, "evictions " + r);
        assertTrue(r.reprotectAlls() > 0, "a full sweep without a disabled frame reprotects the arena: " + r);
        assertEquals(0, r.reprotectRuns(), "no per-frame reprotection: " + r);
        assertTrue(r.c().referenceFaults() > 0, "hot pages re-enabled by reference faults: " + r);
        assertEquals(0, r.c().refusals(), r.toString());
        // the hot set is referenced at every step: its 3 pages are reloaded far less often than the scan's
        assertTrue(r.hotLoads() * 20 < r.scanLoads(), r.toString());
    }

    @Test
    void classicClockClearsBitsByReprotectingFrames() throws Exception {
        Run r = run(Store.Replacement.CLASSIC_CLOCK, dir.resolve("classic"));
        assertTrue(r.evictions() > 2 * OBJECTS / 2, "evictions " + r);
        assertEquals(0, r.reprotectAlls(), "never reprotects the whole arena: " + r);
        assertTrue(r.reprotectRuns() > 0 && r.framesCleared() >= r.reprotectRuns(), r.toString());
        assertTrue(r.c().referenceFaults() > 0, "cleared hot pages re-enabled by reference faults: " + r);
        assertEquals(0, r.c().refusals(), r.toString());
        assertTrue(r.hotLoads() * 20 < r.scanLoads(), r.toString());
    }

    @Test
    void allPoliciesReturnTheSameResults() throws Exception {
        long a = run(Store.Replacement.SIMPLIFIED_CLOCK, dir.resolve("a")).checksum();
        long b = run(Store.Replacement.CLASSIC_CLOCK, dir.resolve("b")).checksum();
        long c = run(Store.Replacement.STORE_CLOCK, dir.resolve("c")).checksum();
        assertEquals(a, b);
        assertEquals(a, c);
    }
}
