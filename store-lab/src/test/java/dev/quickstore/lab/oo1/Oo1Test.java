package dev.quickstore.lab.oo1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OO1 on the mapped store does exactly what it does on the heap: same database, same traversals and lookups. */
class Oo1Test {
    private static final int PARTS = 3_000;
    private static final long SEED = 20261126L;

    @TempDir
    Path tmp;

    @Test
    void theGeneratorFollowsCattellsRules() {
        try (HeapOo1Database heap = new HeapOo1Database()) {
            Oo1Generator.build(heap, PARTS, SEED, done -> {});
            int near = 0, total = 0;
            for (int id = 1; id <= PARTS; id++) {
                Oo1Part p = heap.partById(id);
                assertEquals(id, p.id());
                assertEquals(Oo1Generator.CONNECTIONS, p.to().size());
                assertTrue(p.type().matches("type00[0-9]"), p.type());
                for (Oo1Connection c : p.to()) {
                    assertTrue(c.from() == p);
                    total++;
                    if (Math.abs(c.to().id() - id) <= PARTS / 200) {
                        near++;
                    }
                }
            }
            assertNull(heap.partById(PARTS + 1));
            double share = near / (double) total;
            // 90 % by rule, plus the random tenth that lands within the zone by chance
            assertTrue(share > 0.88 && share < 0.93, "share of connections to the closest 1%: " + share);
        }
    }

    @Test
    void traversalsLookupsAndInsertsAgreeWithTheHeapAndSurviveReopening() throws Exception {
        Path dir = tmp.resolve("oo1");
        try (HeapOo1Database heap = new HeapOo1Database();
                MappedOo1Database qs = MappedOo1Database.create(dir, StoreOptions.defaults(), false)) {
            Oo1Generator.build(heap, PARTS, SEED, done -> {});
            Oo1Generator.build(qs, PARTS, SEED, done -> {});
            SplittableRandom roots = new SplittableRandom(7);
            for (int i = 0; i < 20; i++) {
                int root = 1 + roots.nextInt(PARTS);
                Oo1Operations.Traversal h = Oo1Operations.traverse(heap, root);
                qs.begin();
                Oo1Operations.Traversal q = Oo1Operations.traverse(qs, root);
                qs.commit();
                assertEquals(Oo1Operations.TRAVERSAL_VISITS, h.visits);
                assertEquals(h.visits, q.visits, "visits from " + root);
                assertEquals(h.checksum, q.checksum, "checksum from " + root);
            }
            qs.begin();
            long qsLookups = Oo1Operations.lookup(qs, PARTS, 500, new SplittableRandom(3));
            qs.commit();
            assertEquals(Oo1Operations.lookup(heap, PARTS, 500, new SplittableRandom(3)), qsLookups);

            Oo1Operations.insert(heap, PARTS + 1, 100, new SplittableRandom(11));
            Oo1Operations.insert(qs, PARTS + 1, 100, new SplittableRandom(11));
            qs.makeCold(); // closes and reopens: the inserted parts must have been committed
            qs.begin();
            for (int id = PARTS + 1; id <= PARTS + 100; id++) {
                Oo1Part p = qs.partById(id);
                assertNotNull(p, "inserted part " + id);
                assertEquals(3, p.to().size());
                assertEquals(Oo1Operations.traverse(heap, id).checksum, Oo1Operations.traverse(qs, id).checksum);
            }
            qs.commit();
        }
    }

    @Test
    void theBenchmarkDoesTheSameWorkOnBothAndOnlyTheColdStartReadsPages() throws Exception {
        Path dir = tmp.resolve("oo1-bench");
        Oo1Benchmark.Result h, q;
        try (HeapOo1Database heap = new HeapOo1Database()) {
            Oo1Generator.build(heap, PARTS, SEED, done -> {});
            h = Oo1Benchmark.run(heap, PARTS, 5, s -> {});
        }
        try (MappedOo1Database qs = MappedOo1Database.create(dir, StoreOptions.defaults(), false)) {
            Oo1Generator.build(qs, PARTS, SEED, done -> {});
            q = Oo1Benchmark.run(qs, PARTS, 5, s -> {});
        }
        assertEquals(Oo1Benchmark.TRAVERSALS, q.traversals().size());
        for (int i = 0; i < Oo1Benchmark.TRAVERSALS; i++) {
            assertEquals(Oo1Operations.TRAVERSAL_VISITS, q.traversals().get(i).visits());
            assertEquals(h.traversals().get(i).checksum(), q.traversals().get(i).checksum(), "traversal " + (i + 1));
        }
        assertEquals(h.lookupChecksum(), q.lookupChecksum());
        assertTrue(q.pagesRead("cold") > 0, "the cold traversal reads pages");
        // by the hot traversals the set has touched nearly every page; a root's index leaf may still be new
        assertTrue(
                q.pagesRead("hot") < q.pagesRead("cold"),
                "hot traversals read fewer pages than the cold one: " + q.pagesRead("hot"));
        assertTrue(q.lookupColdPagesRead() > 0, "cold lookups read pages");
        assertEquals(0, h.pagesRead("cold"));
    }
}
