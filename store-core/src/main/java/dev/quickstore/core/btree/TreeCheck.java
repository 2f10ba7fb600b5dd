package dev.quickstore.core.btree;

import static dev.quickstore.core.btree.BPlusTree.BODY;
import static dev.quickstore.core.btree.BPlusTree.LINK;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.verify.VerifyReport;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The structural check of one B+tree ({@link BPlusTree#check}, part of {@code Store.verify}): a walk from the root
 * that reports, without stopping at the first, every node of the wrong type or over its capacity, entries out of
 * order or outside their parent's separators, leaves at different depths, leaf links that are not the doubly linked
 * list of the leaves in key order, an entry count on the meta page that differs from the leaves', and a page
 * reachable twice (from this tree or, through {@code treePages}, from another). It reads only: a damaged tree is
 * reported, never repaired.
 */
final class TreeCheck {
    private final BPlusTree tree;
    private final BufferPool pool;
    private final Nodes nodes;
    private final VerifyReport report;
    private final Set<Long> treePages;
    private final List<Long> leaves = new ArrayList<>();
    private long entries;

    TreeCheck(BPlusTree tree, BufferPool pool, Nodes nodes, VerifyReport report, Set<Long> treePages) {
        this.tree = tree;
        this.pool = pool;
        this.nodes = nodes;
        this.report = report;
        this.treePages = treePages;
    }

    /** Verifies order, separator bounds, equal leaf depth, leaf links and the entry count. */
    void run() throws IOException {
        treePages.add(tree.metaPage);
        int h = tree.height();
        checkNode(tree.root(), 1, h, null, null);
        for (int i = 0; i < leaves.size(); i++) {
            MemorySegment p = pool.fix(leaves.get(i));
            long expectNext = i + 1 < leaves.size() ? leaves.get(i + 1) : 0;
            long expectPrev = i > 0 ? leaves.get(i - 1) : 0;
            if (PageHeader.aux(p) != expectNext || p.get(PageHeader.LONG, LINK) != expectPrev) {
                report.problem(
                        leaves.get(i),
                        "leaf links next " + PageHeader.aux(p) + " prev " + p.get(PageHeader.LONG, LINK) + ", expected "
                                + expectNext + " / " + expectPrev);
            }
            pool.unpin(leaves.get(i));
        }
        if (entries != tree.size()) {
            report.problem(tree.metaPage, "entry count " + tree.size() + " but " + entries + " entries in the leaves");
        }
        report.indexEntries(entries);
    }

    private void checkNode(long page, int level, int height, byte[] lo, byte[] hi) throws IOException {
        if (!treePages.add(page)) {
            report.problem(page, "B+tree page reachable twice (tree of meta page " + tree.metaPage + ")");
            return;
        }
        MemorySegment p = pool.fix(page);
        boolean leaf = level == height;
        int type = PageHeader.type(p);
        if (type != (leaf ? PageHeader.BTREE_LEAF : PageHeader.BTREE_INNER)) {
            report.problem(
                    page,
                    "expected a B+tree " + (leaf ? "leaf" : "inner page") + " at level " + level + ", found "
                            + PageHeader.typeName(type));
            return;
        }
        int entry = nodes.entry;
        int n = Nodes.count(p);
        int w = leaf ? entry : entry + 8;
        if (n > (leaf ? nodes.leafCapacity : nodes.innerCapacity)) {
            report.problem(page, "count " + n + " exceeds capacity");
            return;
        }
        byte[] prev = null;
        for (int i = 0; i < n; i++) {
            byte[] cur = new byte[entry];
            MemorySegment.copy(p, ValueLayout.JAVA_BYTE, BODY + (long) i * w, cur, 0, entry);
            if (prev != null && Arrays.compareUnsigned(prev, cur) >= 0) {
                report.problem(page, "entry " + i + " not greater than entry " + (i - 1));
            }
            if (lo != null && Arrays.compareUnsigned(cur, lo) < 0) {
                report.problem(page, "entry " + i + " below the parent's lower separator");
            }
            if (hi != null && Arrays.compareUnsigned(cur, hi) >= 0) {
                report.problem(page, "entry " + i + " not below the parent's upper separator");
            }
            prev = cur;
        }
        if (leaf) {
            entries += n;
            leaves.add(page);
            pool.unpin(page);
            return;
        }
        long[] children = new long[n + 1];
        byte[][] seps = new byte[n][];
        for (int i = 0; i <= n; i++) {
            children[i] = nodes.child(p, i);
        }
        for (int i = 0; i < n; i++) {
            seps[i] = new byte[entry];
            MemorySegment.copy(p, ValueLayout.JAVA_BYTE, BODY + (long) i * w, seps[i], 0, entry);
        }
        pool.unpin(page);
        for (int i = 0; i <= n; i++) {
            checkNode(children[i], level + 1, height, i == 0 ? lo : seps[i - 1], i == n ? hi : seps[i]);
        }
    }
}
