package dev.quickstore.lab.oo1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.mmu.TexasCounters;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * OO1 with the "all-raw" index of ids (a persistent array of part references, {@link PartArrayIndex}; Kakkad and
 * Wilson 1999 section 5, Figure 3) does what the heap does, in Texas mode ({@code texas-raw}) and in QuickStore's
 * ({@code qs-raw}): same parts visited, same checksums, same lookups, inserts committed and found after a reopen.
 * In Texas mode a cold lookup swizzles the whole leaf of the array it reads and reserves frames one step ahead for
 * the pages of all the parts the leaf lists - what the smart B+tree index ({@code texas}) does not.
 */
class Oo1TexasRawTest {
    private static final int PARTS = 3_000;
    private static final long SEED = 20261126L;

    @TempDir
    Path tmp;

    private MappedOo1Database raw(String name, boolean texas) throws Exception {
        StoreOptions o = texas ? Oo1TexasTest.texas() : StoreOptions.defaults();
        return MappedOo1Database.create(tmp.resolve(name), o, false, MappedOo1Database.IdIndex.PART_ARRAY);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void theRawIndexFindsTheSamePartsAsTheHeap(boolean texas) throws Exception {
        try (HeapOo1Database heap = new HeapOo1Database();
                MappedOo1Database db = raw("raw", texas)) {
            assertEquals(texas ? "texas-raw" : "qs-raw", db.name());
            Oo1Generator.build(heap, PARTS, SEED, done -> {});
            Oo1Generator.build(db, PARTS, SEED, done -> {});
            db.makeCold(); // reopened: the array's leaves and the parts come in by faults
            SplittableRandom roots = new SplittableRandom(7);
            for (int i = 0; i < 20; i++) {
                int root = 1 + roots.nextInt(PARTS);
                Oo1Operations.Traversal h = Oo1Operations.traverse(heap, root);
                db.begin();
                Oo1Operations.Traversal t = Oo1Operations.traverse(db, root);
                db.commit();
                assertEquals(Oo1Operations.TRAVERSAL_VISITS, h.visits);
                assertEquals(h.visits, t.visits, "visits from " + root);
                assertEquals(h.checksum, t.checksum, "checksum from " + root);
            }
            db.begin();
            long lookups = Oo1Operations.lookup(db, PARTS, 500, new SplittableRandom(3));
            assertNull(db.partById(0));
            assertNull(db.partById(PARTS + 1));
            assertEquals(PARTS, db.partById(PARTS).id());
            assertThrows(IllegalArgumentException.class, () -> db.createPart(PARTS + 5, "type001", 1, 2, 3));
            db.commit();
            assertEquals(Oo1Operations.lookup(heap, PARTS, 500, new SplittableRandom(3)), lookups);

            Oo1Operations.insert(heap, PARTS + 1, 100, new SplittableRandom(11));
            Oo1Operations.insert(db, PARTS + 1, 100, new SplittableRandom(11));
            db.makeCold();
            db.begin();
            for (int id = PARTS + 1; id <= PARTS + 100; id++) {
                Oo1Part p = db.partById(id);
                assertNotNull(p, "inserted part " + id);
                assertEquals(id, p.id());
                assertEquals(3, p.to().size());
                assertEquals(Oo1Operations.traverse(heap, id).checksum, Oo1Operations.traverse(db, id).checksum);
            }
            db.commit();
        }
    }

    @Test
    void aColdLookupSwizzlesTheWholeLeafAndReservesFramesForEveryPartItLists() throws Exception {
        long rawAhead;
        long rawWords;
        try (MappedOo1Database db = raw("raw", true)) {
            Oo1Generator.build(db, PARTS, SEED, done -> {});
            db.makeCold();
            TexasCounters before = db.texasCounters();
            db.begin();
            assertEquals(PARTS / 2, db.partById(PARTS / 2).id());
            db.commit();
            TexasCounters after = db.texasCounters();
            rawAhead = after.reservedAhead() - before.reservedAhead();
            rawWords = after.wordsSwizzled() - before.wordsSwizzled();
            // part 1,500 is in the array's third leaf (ids 1,025..1,536), full: all 512 words swizzled at its fault
            assertTrue(rawWords >= 512, "the leaf's 512 references swizzled when it came in: " + after);
        }
        long smartAhead;
        try (MappedOo1Database db = MappedOo1Database.create(tmp.resolve("smart"), Oo1TexasTest.texas(), false)) {
            Oo1Generator.build(db, PARTS, SEED, done -> {});
            db.makeCold();
            TexasCounters before = db.texasCounters();
            db.begin();
            assertEquals(PARTS / 2, db.partById(PARTS / 2).id());
            db.commit();
            smartAhead = db.texasCounters().reservedAhead() - before.reservedAhead();
        }
        // the 512 parts of a leaf lie on several pages (consecutive ids are allocated together), each reserved
        assertTrue(
                rawAhead > smartAhead,
                "all-raw reserves frames for the leaf's parts: " + rawAhead + " ahead vs smart " + smartAhead);
    }
}
