package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.software.Swizzler;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The small-database contract on {@code e}: software persistence (FramesMode.SOFTWARE, docs/software-mode.md;
 * E / EPVM 3.0 in White and DeWitt 1994) runs the same OO7 code through the generated {@code $Soft} classes and
 * must agree with the heap on every operation, as {@code qs} does. Plus: with a buffer pool far smaller than
 * the database (so traversals read pages explicitly, evict, and unswizzle), T1 and T2B give the heap's counts,
 * T2B takes no fault of any kind, and its updates survive close and reopen.
 */
class SoftwareOo7StoreTest extends MappedOo7Contract {
    static final StoreOptions E =
            StoreOptions.defaults().toBuilder().frames(FramesMode.SOFTWARE).build();

    @Override
    StoreOptions options() {
        return E;
    }

    @Test
    void aPoolFarSmallerThanTheDatabaseGivesTheHeapsCountsAndT2bSurvivesReopen() throws IOException {
        MappedOo7Store built = (MappedOo7Store) build(SEED);
        assertEquals("e", built.name());
        Path dir = built.dir();
        built.close();
        last = null;
        HeapOo7Store heap = HeapOo7StoreTest.buildHeap(SEED);
        Oo7Operations.Parameters params = new Oo7Operations.Parameters(Oo7Operations.T2Update.INCREMENT, 10, 5);
        int t1 = ops(heap).run(Oo7Operation.T1);
        int t2b = ops(heap, params).run(Oo7Operation.T2B);
        StoreOptions small = E.withBufferPoolPages(64);
        String digest;
        try (MappedOo7Store e = MappedOo7Store.open(dir, false, small)) {
            long pages = e.databasePages();
            assertTrue(pages > 4 * 64, "the database (" + pages + " pages) is far larger than the pool");
            assertEquals(t1, ops(e).run(Oo7Operation.T1), "T1 through a pool of 64 pages");
            assertEquals(t2b, ops(e, params).run(Oo7Operation.T2B), "T2B through a pool of 64 pages");
            Swizzler sw = e.persistentStore().storageManager().swizzler();
            assertTrue(
                    sw.frames().evictions() > pages,
                    "pages were evicted and read again: " + sw.frames().evictions());
            assertTrue(sw.frames().unswizzledAtEviction() > 0, "evictions unswizzled references");
            Map<String, Long> c = e.counters();
            assertEquals(0, c.get("readFaults") + c.get("writeFaults"), "software persistence takes no fault: " + c);
            digest = digest(e);
        }
        assertEquals(Oo7Digest.of(heap), digest, "the database equals the heap's after T1 and T2B");
        try (MappedOo7Store reopened = MappedOo7Store.open(dir, false, E)) {
            assertEquals(digest, digest(reopened), "T2B's updates survived close and reopen");
            assertTrue(reopened.persistentStore().storageManager().verify().ok(), "store verifies");
        }
    }
}
