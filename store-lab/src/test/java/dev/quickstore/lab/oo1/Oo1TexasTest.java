package dev.quickstore.lab.oo1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.mmu.TexasCounters;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OO1 on Texas mode (docs/texas-mode.md) does exactly what it does on the heap: same parts visited, same checksums,
 * same lookups, inserts committed; the parts' pages are swizzled when loaded, and the index of ids (a B+tree whose
 * values stay persistent and are resolved on use: a smart reference, Texas section 5) makes a cold lookup reserve
 * frames only for the pages it reads and, one step ahead, for the references of the part's page - never for the
 * other ids of its leaf.
 */
class Oo1TexasTest {
    private static final int PARTS = 3_000;
    private static final long SEED = 20261126L;

    @TempDir
    Path tmp;

    static StoreOptions texas() {
        return StoreOptions.defaults().withRelocation(Relocation.TEXAS, 0);
    }

    @Test
    void texasVisitsTheSamePartsWithTheSameChecksumsAsTheHeap() throws Exception {
        try (HeapOo1Database heap = new HeapOo1Database();
                MappedOo1Database tx = MappedOo1Database.create(tmp.resolve("texas"), texas(), false)) {
            assertEquals("texas", tx.name());
            Oo1Generator.build(heap, PARTS, SEED, done -> {});
            Oo1Generator.build(tx, PARTS, SEED, done -> {});
            tx.makeCold(); // reopened: every part page comes in by a fault and is swizzled
            SplittableRandom roots = new SplittableRandom(7);
            for (int i = 0; i < 20; i++) {
                int root = 1 + roots.nextInt(PARTS);
                Oo1Operations.Traversal h = Oo1Operations.traverse(heap, root);
                tx.begin();
                Oo1Operations.Traversal t = Oo1Operations.traverse(tx, root);
                tx.commit();
                assertEquals(Oo1Operations.TRAVERSAL_VISITS, h.visits);
                assertEquals(h.visits, t.visits, "visits from " + root);
                assertEquals(h.checksum, t.checksum, "checksum from " + root);
            }
            TexasCounters c = tx.texasCounters();
            assertTrue(c.pagesSwizzled() > 0 && c.wordsSwizzled() > 0, "part pages swizzled at fault time: " + c);
            assertTrue(c.framesReserved() <= tx.pageCount(), "at most one frame per page: " + c);
            tx.begin();
            long lookups = Oo1Operations.lookup(tx, PARTS, 500, new SplittableRandom(3));
            tx.commit();
            assertEquals(Oo1Operations.lookup(heap, PARTS, 500, new SplittableRandom(3)), lookups);

            Oo1Operations.insert(heap, PARTS + 1, 100, new SplittableRandom(11));
            Oo1Operations.insert(tx, PARTS + 1, 100, new SplittableRandom(11));
            tx.makeCold();
            tx.begin();
            for (int id = PARTS + 1; id <= PARTS + 100; id++) {
                Oo1Part p = tx.partById(id);
                assertNotNull(p, "inserted part " + id);
                assertEquals(3, p.to().size());
                assertEquals(Oo1Operations.traverse(heap, id).checksum, Oo1Operations.traverse(tx, id).checksum);
            }
            tx.commit();
        }
    }

    @Test
    void aColdLookupReservesFramesForWhatItReachesNotForTheWholeIndexLeaf() throws Exception {
        try (MappedOo1Database tx = MappedOo1Database.create(tmp.resolve("smart"), texas(), false)) {
            Oo1Generator.build(tx, PARTS, SEED, done -> {});
            tx.makeCold();
            TexasCounters before = tx.texasCounters();
            tx.begin();
            Oo1Part p = tx.partById(PARTS / 2);
            assertEquals(PARTS / 2, p.id());
            tx.commit();
            TexasCounters after = tx.texasCounters();
            long reserved = after.framesReserved() - before.framesReserved();
            long ahead = after.reservedAhead() - before.reservedAhead();
            String what = "one cold lookup reserved " + reserved + " frames (" + ahead + " one step ahead) of "
                    + tx.pageCount() + " pages: " + after;
            // the store's own reads reserve a frame per page they install: the index's meta, inner and leaf pages
            // and the part's page (the leaf's ids are converted on use, only the one looked up)
            assertTrue(reserved - ahead >= 2 && reserved - ahead <= 8, what);
            // loading the part's page reserves frames one step ahead: at most one per pointer it swizzled, and only
            // for the pages of that page's objects' references (swizzled pages: the part's page, its connections')
            assertTrue(ahead > 0 && ahead <= after.wordsSwizzled() - before.wordsSwizzled(), what);
            assertTrue(after.pagesSwizzled() - before.pagesSwizzled() <= 3, what);
        }
    }
}
