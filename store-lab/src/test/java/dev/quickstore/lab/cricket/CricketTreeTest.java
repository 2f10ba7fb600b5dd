package dev.quickstore.lab.cricket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mapped tree against its heap twin: the paper's layout (1,343 pages of twelve nodes), and the same digests for
 * passes, seeded searches and update searches, before and after the store is reopened.
 */
@ExtendWith(SeedExtension.class)
class CricketTreeTest {
    @TempDir
    Path dir;

    @Test
    void thePapersTreeHas16105NodesOnPagesOfTwelve() throws Exception {
        TreeShape shape = TreeShape.PAPER;
        assertEquals(16_105, shape.nodes());
        assertEquals(1_343, shape.pages());
        HeapTree heap = HeapTree.build(shape);
        try (MappedTree qs = MappedTree.create(dir.resolve("tree"), shape, StoreOptions.defaults())) {
            assertEquals(1_343, qs.treePages(), "nodes padded to twelve a page, placed in preorder");
            qs.reopen(StoreOptions.defaults());
            try (ObjectTransaction tx = qs.begin()) {
                assertEquals(heap.pass(), MappedTree.pass(MappedTree.root(tx)));
                tx.commit();
            }
        }
    }

    @Test
    void searchesAndUpdatesReturnWhatTheHeapReturns(Seed seed) throws Exception {
        TreeShape shape = TreeShape.of(3, 7);
        SearchPaths paths = SearchPaths.random(shape, 300, seed.value());
        HeapTree heap = HeapTree.build(shape);
        try (MappedTree qs = MappedTree.create(dir.resolve("tree"), shape, StoreOptions.defaults())) {
            assertEquals(shape.pages(), qs.treePages());
            try (ObjectTransaction tx = qs.begin()) {
                TreeNode root = MappedTree.root(tx);
                assertEquals(heap.pass(), MappedTree.pass(root));
                assertEquals(heap.search(paths, 0, 300), MappedTree.search(root, paths, 0, 300));
                assertEquals(heap.search(paths, 100, 200), MappedTree.search(root, paths, 100, 200));
                assertEquals(heap.update(paths, 0, 150), MappedTree.update(root, paths, 0, 150));
                tx.commit();
            }
            long afterFirst = heap.visitsDigest();
            assertNotEquals(HeapTree.build(shape).visitsDigest(), afterFirst, "the updates changed counters");
            qs.reopen(StoreOptions.defaults());
            try (ObjectTransaction tx = qs.begin()) {
                TreeNode root = MappedTree.root(tx);
                assertEquals(afterFirst, MappedTree.visitsDigest(root), "committed counters after reopening");
                assertEquals(heap.update(paths, 150, 300), MappedTree.update(root, paths, 150, 300));
                tx.abort();
            }
            heap = HeapTree.build(shape);
            heap.update(paths, 0, 150);
            try (ObjectTransaction tx = qs.begin()) {
                assertEquals(heap.visitsDigest(), MappedTree.visitsDigest(MappedTree.root(tx)), "abort undid");
                tx.commit();
            }
        }
    }

    @Test
    void searchPathsAreDeterminedBySeedAndStayInsideTheFanout(Seed seed) {
        TreeShape shape = TreeShape.of(4, 5);
        SearchPaths a = SearchPaths.random(shape, 50, seed.value());
        SearchPaths b = SearchPaths.random(shape, 50, seed.value());
        HeapTree heap = HeapTree.build(shape);
        assertEquals(heap.search(a, 0, 50), heap.search(b, 0, 50));
        for (int s = 0; s < a.count(); s++) {
            for (int l = 0; l < a.depth(); l++) {
                int c = a.choice(s, l);
                assertEquals(b.choice(s, l), c);
                assertEquals(true, c >= 0 && c < shape.fanout(), "choice " + c);
            }
        }
    }
}
