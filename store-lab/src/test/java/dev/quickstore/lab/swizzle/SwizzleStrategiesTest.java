package dev.quickstore.lab.swizzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every scheme against the heap model on seeded workloads; saved pages reload to the heap model's graph. */
class SwizzleStrategiesTest {
    static final int PAGE = 8192;

    @TempDir
    Path tmp;

    static final List<TreeShape> SHAPES = List.of(
            TreeShape.uniform(9, 2, 0),
            TreeShape.uniform(8, 5, 13),
            new TreeShape(7, 4, 3, 20, 233, 21, 0),
            new TreeShape(8, 3, 2, 24, 2, 2, 24),
            new TreeShape(6, 2, 2, 0, 0, 0, 932));

    static final List<Workload> WORK = List.of(
            new Workload(1, 0, Workload.Work.NONE, 0, 7),
            new Workload(3, 0.3, Workload.Work.READ_BYTES, 12, 11),
            new Workload(2, 1, Workload.Work.READ_SLOTS, 3, 13),
            new Workload(2, 0.5, Workload.Work.READ_INTS, 40, 17),
            new Workload(2, 0.5, Workload.Work.READ_BYTES, 9, 19, 2));

    @Test
    void everySchemeComputesTheHeapModelsResultsAndCounts() throws Exception {
        Path file = tmp.resolve("c.qs");
        for (TreeShape shape : SHAPES) {
            for (Workload w : WORK) {
                CollectionFile.write(file, shape, PAGE);
                Tally heap = new HeapModel(shape).run(w);
                // a traversal follows the first child for skip levels, then visits a whole subtree
                long touched = w.skip() + (1L << (shape.height() - w.skip())) - 1;
                assertEquals(touched * w.visits(), heap.visits);
                for (Strategy s : Strategy.values()) {
                    CollectionFile.write(file, shape, PAGE);
                    Measurement m = SessionRunner.run(file, PAGE, s, w);
                    String what = s + " " + shape + " " + w;
                    assertEquals(heap.results(), m.results(), what);
                    // eager schemes swizzle the whole collection; NS and the lazy ones only what is touched
                    boolean all = w.skip() == 0 || s == Strategy.EIS || s == Strategy.ECS;
                    assertEquals(all ? shape.objects() : touched, m.objects(), what);
                    if (all) {
                        assertEquals(shape.slots(), m.slots(), what);
                        assertEquals(shape.initializedSlots(), m.initialized(), what);
                        assertEquals(shape.userBytes(), m.userBytes(), what);
                    }
                    assertEquals(touched * w.visits(), m.visits(), what);
                    if (w.updateFraction() == 0) {
                        assertEquals(0, m.pagesWritten(), what);
                    } else {
                        assertTrue(m.pagesWritten() > 0, what);
                    }
                }
            }
        }
    }

    @Test
    void savedPagesReloadToTheHeapModelsGraph() throws Exception {
        Path file = tmp.resolve("c.qs");
        for (TreeShape shape : SHAPES) {
            Workload w = new Workload(2, 0.4, Workload.Work.READ_BYTES, 8, 99);
            HeapModel fresh = new HeapModel(shape);
            long before = GraphDigest.of(fresh);
            HeapModel updated = new HeapModel(shape);
            updated.run(w);
            long after = GraphDigest.of(updated);
            assertNotEquals(before, after, "the workload changes the graph of " + shape);
            for (Strategy s : Strategy.values()) {
                CollectionFile.write(file, shape, PAGE);
                assertEquals(before, GraphDigest.of(file, PAGE), "written " + shape);
                SessionRunner.run(file, PAGE, s, w);
                assertEquals(after, GraphDigest.of(file, PAGE), s + " saved " + shape);
                // a second session reads the saved pages and continues from them exactly as the heap does
                Workload again = new Workload(1, 0.5, Workload.Work.READ_BYTES, 1000, 5);
                Measurement m = SessionRunner.run(file, PAGE, s, again);
                Tally heap = new Tally();
                updated.traverse(again, true, heap);
                assertEquals(heap.results(), m.results(), s + " reloaded " + shape);
                assertEquals(GraphDigest.of(updated), GraphDigest.of(file, PAGE), s + " saved twice " + shape);
                updated = new HeapModel(shape);
                updated.run(w);
            }
        }
    }

    @Test
    void readOnlySessionsLeaveTheFileAsWritten() throws Exception {
        Path file = tmp.resolve("c.qs");
        TreeShape shape = TreeShape.uniform(10, 3, 8);
        CollectionFile.write(file, shape, PAGE);
        long digest = GraphDigest.of(new HeapModel(shape));
        for (Strategy s : Strategy.values()) {
            Measurement m = SessionRunner.run(file, PAGE, s, new Workload(2, 0, Workload.Work.READ_SLOTS, 3, 1));
            assertEquals(0, m.pagesWritten(), s.name());
            assertEquals(digest, GraphDigest.of(file, PAGE), s.name());
        }
    }
}
