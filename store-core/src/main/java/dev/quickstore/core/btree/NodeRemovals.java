package dev.quickstore.core.btree;

import static dev.quickstore.core.btree.BPlusTree.BODY;
import static dev.quickstore.core.btree.BPlusTree.LINK;
import static dev.quickstore.core.btree.Nodes.count;
import static dev.quickstore.core.btree.Nodes.setCount;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.space.ExtentAllocator;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The structural modification of one B+tree on deletion, the inverse of {@link NodeSplits}: a leaf that a delete
 * leaves empty is unlinked from the leaf list, removed from its parent together with one separator, and its page
 * freed; an inner node left without a child goes the same way up the path; a root inner node left with a single
 * child is replaced by that child, and the tree loses a level (the meta page's root and height change).
 *
 * <p>Why: before, deletion only removed entries, and an emptied leaf stayed in the tree for good. A queue-like index
 * (insert at the high end, delete at the low end: a job queue, an expiry index) then grew by a page per leaf's worth
 * of entries forever, and a scan from its low end walked every emptied leaf, so taking the smallest key cost time in
 * proportion to the keys ever deleted (docs/results.md, "Emptied B+tree leaves freed"). Nodes are not merged below
 * half full, as in many B+trees in practice: Johnson and Shasha ("Utilization of B-trees with inserts, deletes and
 * modifies", PODS 1989) found that freeing nodes only when empty loses little space against merging at half full
 * unless deletes outnumber inserts, and it makes far fewer structural changes.
 *
 * <p>Invariants kept: separators still bound their children (a removed child takes the separator below it, or for
 * child 0 the one above it, so the neighbour that takes over its key range already holds only keys inside the wider
 * range); every leaf stays at the same depth (a level goes only at the root); the leaves stay a doubly linked list
 * in key order; a root inner node keeps at least one separator (two children), so a tree of height above 1 always
 * has a leaf left; a freed page is formatted {@link PageHeader#FREE} before its allocation bit is cleared. A leaf
 * emptied while an index scan runs stays in place until no scan runs ({@link
 * dev.quickstore.core.buffer.PoolStamps#scansOpen}): the scan holds it and reads its next link after its visitor
 * returns. It is removed by the tree's next insert or delete after the scans ({@link #removeDeferred}), if it is
 * still an empty leaf of the tree then. Every change goes through {@link BufferPool#fixForStoreWrite}, so it is logged
 * and undone like any other.
 */
final class NodeRemovals {
    private final BufferPool pool;
    private final ExtentAllocator extents;
    private final long metaPage;
    private final Nodes nodes;

    NodeRemovals(BufferPool pool, ExtentAllocator extents, long metaPage, Nodes nodes) {
        this.pool = pool;
        this.extents = extents;
        this.metaPage = metaPage;
        this.nodes = nodes;
    }

    /** A leaf emptied while a scan ran, and the entry deleted last from it, which routes a descent to it. */
    private record Emptied(long leaf, byte[] entry) {}

    /** Leaves {@link #defer}red: removed by {@link #removeDeferred} once no scan runs. */
    private final List<Emptied> emptiedUnderScans = new ArrayList<>();

    /** Whether an index scan runs: a leaf a delete empties now must wait ({@link #defer}). */
    boolean scansOpen() {
        return pool.stamps().scansOpen();
    }

    /**
     * Remembers {@code leaf}, which a delete emptied while a scan ran ({@code entry}: the deleted entry), for {@link
     * #removeDeferred}.
     */
    void defer(long leaf, byte[] entry) {
        emptiedUnderScans.add(new Emptied(leaf, entry));
    }

    /**
     * Removes the leaves {@link #defer}red while scans ran, now that none runs: each that is still an empty leaf of
     * {@code tree}, where the entry deleted last from it still leads (a leaf that took entries since, or a page that
     * an abort gave back its entries, stays). Called at the start of the tree's inserts and deletes.
     */
    void removeDeferred(BPlusTree tree) throws IOException {
        if (emptiedUnderScans.isEmpty() || scansOpen()) {
            return;
        }
        List<Emptied> all = List.copyOf(emptiedUnderScans);
        emptiedUnderScans.clear();
        for (Emptied e : all) {
            long[] path = tree.pathTo(e.entry());
            if (path.length > 1 && path[path.length - 1] == e.leaf()) {
                MemorySegment p = pool.fix(e.leaf());
                if (PageHeader.type(p) == PageHeader.BTREE_LEAF && count(p) == 0) {
                    removeEmptyLeaf(path);
                }
            }
        }
    }

    /** Removes the empty leaf at the end of {@code path} (the pages from the root down, at least two). */
    void removeEmptyLeaf(long[] path) throws IOException {
        int h = path.length;
        long leaf = path[h - 1];
        MemorySegment p = pool.fixForStoreWrite(leaf);
        assert h > 1 && count(p) == 0 : "leaf " + leaf + " of the tree at meta page " + metaPage + " is not removable";
        long next = PageHeader.aux(p);
        long prev = p.get(PageHeader.LONG, LINK);
        if (prev != 0) {
            PageHeader.setAux(pool.fixForStoreWrite(prev), next);
        }
        if (next != 0) {
            pool.fixForStoreWrite(next).set(PageHeader.LONG, LINK, prev);
        }
        free(leaf);
        removeChild(path, h - 2, leaf);
    }

    /** Removes child page {@code child} (already freed) from the inner node at {@code level} of {@code path}. */
    private void removeChild(long[] path, int level, long child) throws IOException {
        long node = path[level];
        MemorySegment p = pool.fixForStoreWrite(node);
        int n = count(p);
        int c = indexOf(p, n, node, child);
        if (n == 0) {
            // its only child: the node goes too (never the root, which keeps two children or is replaced)
            assert level > 0 : "root " + node + " of the tree at meta page " + metaPage + " has one child";
            free(node);
            removeChild(path, level - 1, node);
            return;
        }
        int w = nodes.entry + 8;
        if (c == 0) {
            p.set(PageHeader.LONG, LINK, nodes.child(p, 1)); // child 1 takes child 0's range: removes separator 0
            removeItem(p, 0, n, w);
        } else {
            removeItem(p, c - 1, n, w); // separator c - 1 and child c
        }
        setCount(p, n - 1);
        if (level == 0 && n == 1) {
            collapseRoot();
        }
    }

    /** While the root is an inner node without a separator, its only child becomes the root. */
    private void collapseRoot() throws IOException {
        MemorySegment m = pool.fix(metaPage);
        long root = m.get(PageHeader.LONG, BPlusTree.META_ROOT);
        int height = m.get(PageHeader.INT, BPlusTree.META_HEIGHT);
        while (height > 1) {
            MemorySegment r = pool.fix(root);
            if (count(r) > 0) {
                break;
            }
            long only = nodes.child(r, 0);
            free(root);
            root = only;
            height--;
        }
        pool.stamps().rootMoved();
        m = pool.fixForStoreWrite(metaPage);
        m.set(PageHeader.LONG, BPlusTree.META_ROOT, root);
        m.set(PageHeader.INT, BPlusTree.META_HEIGHT, height);
    }

    /** The index of {@code child} among the {@code n + 1} children of inner node {@code node} ({@code p}). */
    private int indexOf(MemorySegment p, int n, long node, long child) {
        for (int i = 0; i <= n; i++) {
            if (nodes.child(p, i) == child) {
                return i;
            }
        }
        throw new StoreFormatException(
                pool.volume().name(),
                node,
                node * pool.pageSize() + LINK,
                "children of a B+tree inner page (tree at meta page " + metaPage + ")",
                "page " + child + " among its " + (n + 1) + " children",
                "not there");
    }

    /** Removes item {@code i} (separator i, child i + 1) of {@code n} items {@code w} bytes wide; zeroes the last. */
    private static void removeItem(MemorySegment p, int i, int n, int w) {
        long at = BODY + (long) i * w;
        MemorySegment.copy(p, at + w, p, at, (long) (n - i - 1) * w);
        p.asSlice(BODY + (long) (n - 1) * w, w).fill((byte) 0);
    }

    /** Formats {@code page} free and clears its allocation bit. */
    private void free(long page) throws IOException {
        pool.stamps().nodeFreed(); // a leaf some tree keeps may be this page (NumericKeys)
        PageHeader.format(pool.fixForStoreWrite(page), page, PageHeader.FREE);
        extents.free(page, 1);
    }
}
