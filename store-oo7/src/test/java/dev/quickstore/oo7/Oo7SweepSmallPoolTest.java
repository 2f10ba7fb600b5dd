package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kill sweep's transactions ({@link Oo7KillSweep}: OO7 updates T2A-T3C, SM1 and SM2) in one process, without
 * kills, through the child's pool of 320 frames for the small database's 688 pages, against the heap model: the
 * database's digest after each batch equals the model's, and the store verifies clean. A run of the sweep's child
 * with this seed lost a build-date index entry in its first T3B ("index oo7.atomic.date has no entry"): with
 * assertions on, the check of a B+tree's kept leaf descended the tree, the descent made room by stealing the kept
 * leaf, and the delete then used the evicted page's memory. Tests run with {@code -ea}, so this runs the check.
 */
class Oo7SweepSmallPoolTest {
    /** The seed of the kill sweep that lost the entry (fixed, so that the failing transactions are replayed). */
    private static final long SEED = -2691390483721606423L;

    private static final int TRANSACTIONS = 20;

    @TempDir
    Path dir;

    @Test
    void theSweepsTransactionsThroughASmallPoolMatchTheHeapModel() throws Exception {
        Path db = dir.resolve("oo7");
        try (MappedOo7Store store = MappedOo7Store.create(db, false)) {
            new Oo7Builder(Oo7Config.SMALL, Oo7SmallContract.SEED).build(store, Oo7Builder.Progress.NONE);
        }
        HeapOo7Store model = HeapOo7StoreTest.buildHeap(Oo7SmallContract.SEED);
        try (MappedOo7Store store = MappedOo7Store.open(db, false, Oo7KillSweep.OPTIONS)) {
            for (long n = 1; n <= TRANSACTIONS; n++) {
                assertEquals(
                        Oo7KillSweep.apply(model, SEED, n), Oo7KillSweep.apply(store, SEED, n), "transaction " + n);
                if (n % 5 == 0) {
                    assertEquals(Oo7SmallContract.digest(model), Oo7SmallContract.digest(store), "after " + n);
                }
            }
            assertTrue(store.persistentStore().storageManager().verify().ok(), "verify");
        }
    }
}
