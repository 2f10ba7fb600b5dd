package dev.quickstore.lab.swizzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Create-work-save sessions (Moss 1992, section 2): every scheme creates the collection, computes the heap model's
 * results, and saves a file that holds the heap model's graph (same digest), laid out as a written one.
 */
class CreateWorkSaveTest {
    static final int PAGE = 8192;

    @TempDir
    Path tmp;

    static final List<Workload> WORK = List.of(
            new Workload(1, 0, Workload.Work.NONE, 0, 7),
            new Workload(3, 0.3, Workload.Work.READ_BYTES, 12, 11),
            new Workload(2, 1, Workload.Work.READ_SLOTS, 3, 13),
            new Workload(2, 0.5, Workload.Work.READ_INTS, 40, 17),
            new Workload(2, 0.5, Workload.Work.READ_BYTES, 9, 19, 2));

    @Test
    void everySchemeCreatesTheHeapModelsCollectionAndResults() throws Exception {
        Path file = tmp.resolve("created.qs");
        for (TreeShape shape : SwizzleStrategiesTest.SHAPES) {
            for (Workload w : WORK) {
                HeapModel heap = new HeapModel(shape);
                Tally expected = heap.run(w);
                long digest = GraphDigest.of(heap);
                for (Strategy s : Strategy.values()) {
                    String what = s + " " + shape + " " + w;
                    Measurement m = SessionRunner.runCreate(file, PAGE, s, shape, w);
                    assertEquals(expected.results(), m.results(), what);
                    // every object is created, whatever the work touches
                    assertEquals(shape.objects(), m.objects(), what);
                    assertEquals(shape.slots(), m.slots(), what);
                    assertEquals(shape.initializedSlots(), m.initialized(), what);
                    assertEquals(shape.userBytes(), m.userBytes(), what);
                    assertEquals(digest, GraphDigest.of(file, PAGE), what);
                    long pages = CollectionFile.pagesFor(shape, PAGE);
                    assertEquals(pages, m.pagesWritten(), what);
                    assertEquals(pages * PAGE, Files.size(file), what);
                    assertTrue(m.prepareNs() <= m.saveNs(), what);
                }
            }
        }
    }

    @Test
    void aCreatedFileLoadsLikeAWrittenOne() throws Exception {
        TreeShape shape = new TreeShape(8, 3, 2, 24, 2, 2, 24);
        Path written = tmp.resolve("written.qs");
        CollectionFile.Descriptor d = CollectionFile.write(written, shape, PAGE);
        assertEquals(d.pages(), CollectionFile.pagesFor(shape, PAGE));
        Workload none = new Workload(1, 0, Workload.Work.NONE, 0, 1);
        Workload later = new Workload(2, 0.5, Workload.Work.READ_BYTES, 30, 23);
        for (Strategy creator : Strategy.values()) {
            Path file = tmp.resolve("created-" + creator + ".qs");
            SessionRunner.runCreate(file, PAGE, creator, shape, none);
            assertEquals(GraphDigest.of(written, PAGE), GraphDigest.of(file, PAGE), creator.name());
            try (PageBuffers b = PageBuffers.open(file, PAGE)) {
                assertEquals(d, b.descriptor(), creator.name());
            }
            for (Strategy loader : Strategy.values()) {
                Measurement m = SessionRunner.run(file, PAGE, loader, later);
                Tally heap = new Tally();
                HeapModel h = new HeapModel(shape);
                for (int pass = 0; pass < later.visits(); pass++) {
                    h.traverse(later, pass == 0, heap);
                }
                assertEquals(heap.results(), m.results(), creator + " then " + loader);
                SessionRunner.runCreate(file, PAGE, creator, shape, none);
            }
        }
    }
}
