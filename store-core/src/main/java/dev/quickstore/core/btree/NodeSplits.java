package dev.quickstore.core.btree;

import static dev.quickstore.core.btree.BPlusTree.BODY;
import static dev.quickstore.core.btree.BPlusTree.LINK;
import static dev.quickstore.core.btree.Nodes.count;
import static dev.quickstore.core.btree.Nodes.setCount;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.space.ExtentAllocator;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The structural modification of one B+tree on insertion: a full leaf is split in half around the new entry and
 * the right half's first entry becomes a separator in the parent; a full inner node likewise keeps its lower half,
 * moves its middle item up and gives the rest to a new right sibling; a split root grows the tree by one level (a
 * new inner root over the two halves; the meta page's root and height change). New nodes are allocated near the
 * node they split. Deletion never merges; it removes emptied nodes ({@link NodeRemovals}), the inverse of a split.
 *
 * <p>Invariants after a split: every entry of the left node is below the separator and every entry of the right
 * node is at or above it; the leaves stay a doubly linked list in key order (next in the header's aux field,
 * previous in the link); the freed halves of the old node are zeroed.
 */
final class NodeSplits {
    private final BufferPool pool;
    private final ExtentAllocator extents;
    private final long metaPage;
    private final Nodes nodes;

    NodeSplits(BufferPool pool, ExtentAllocator extents, long metaPage, Nodes nodes) {
        this.pool = pool;
        this.extents = extents;
        this.metaPage = metaPage;
        this.nodes = nodes;
    }

    /**
     * Inserts entry {@code e} at position {@code pos} of the full leaf {@code leaf} ({@code p}, fixed for writing),
     * the last page of the descent {@code path}, by splitting it.
     */
    void splitLeafAndInsert(long[] path, long leaf, MemorySegment p, int pos, byte[] e) throws IOException {
        int entry = nodes.entry;
        int n = count(p);
        // build the n+1 entries, then split in half
        byte[] all = new byte[(n + 1) * entry];
        MemorySegment a = MemorySegment.ofArray(all);
        MemorySegment.copy(p, BODY, a, 0, (long) pos * entry);
        MemorySegment.copy(MemorySegment.ofArray(e), 0, a, (long) pos * entry, entry);
        MemorySegment.copy(p, BODY + (long) pos * entry, a, (long) (pos + 1) * entry, (long) (n - pos) * entry);
        int left = (n + 1) / 2;
        int right = n + 1 - left;
        long newLeaf = extents.allocate(1, leaf);
        MemorySegment q = pool.fixNew(newLeaf); // just allocated: not read, no pre-image, logged as a NEW_PAGE
        PageHeader.format(q, newLeaf, PageHeader.BTREE_LEAF);
        p = pool.fixForStoreWrite(leaf);
        MemorySegment.copy(a, 0, p, BODY, (long) left * entry);
        p.asSlice(BODY + (long) left * entry, (long) (n - left) * entry).fill((byte) 0);
        setCount(p, left);
        MemorySegment.copy(a, (long) left * entry, q, BODY, (long) right * entry);
        setCount(q, right);
        long next = PageHeader.aux(p);
        PageHeader.setAux(q, next);
        q.set(PageHeader.LONG, LINK, leaf);
        PageHeader.setAux(p, newLeaf);
        if (next != 0) {
            pool.fixForStoreWrite(next).set(PageHeader.LONG, LINK, newLeaf);
        }
        insertSeparator(path, path.length - 2, Arrays.copyOfRange(all, left * entry, (left + 1) * entry), newLeaf);
    }

    /** Inserts (sep, right child) into the inner node at {@code level} of {@code path} (-1 = new root). */
    private void insertSeparator(long[] path, int level, byte[] sep, long right) throws IOException {
        int entry = nodes.entry;
        int w = entry + 8;
        byte[] item = ByteBuffer.allocate(w)
                .put(sep)
                .putLong(Long.reverseBytes(right))
                .array(); // child stored little-endian
        if (level < 0) {
            long oldRoot = path[0];
            long newRoot = extents.allocate(1, oldRoot);
            MemorySegment r = pool.fixNew(newRoot);
            PageHeader.format(r, newRoot, PageHeader.BTREE_INNER);
            r.set(PageHeader.LONG, LINK, oldRoot);
            MemorySegment.copy(MemorySegment.ofArray(item), 0, r, BODY, w);
            setCount(r, 1);
            MemorySegment m = pool.fixForStoreWrite(metaPage);
            pool.stamps().rootMoved();
            m.set(PageHeader.LONG, BPlusTree.META_ROOT, newRoot);
            m.set(PageHeader.INT, BPlusTree.META_HEIGHT, m.get(PageHeader.INT, BPlusTree.META_HEIGHT) + 1);
            return;
        }
        long node = path[level];
        MemorySegment p = pool.fixForStoreWrite(node);
        int n = count(p);
        int pos = nodes.route(p, sep);
        if (n < nodes.innerCapacity) {
            Nodes.insertAt(p, BODY, w, pos, n, item);
            setCount(p, n + 1);
            return;
        }
        byte[] all = new byte[(n + 1) * w];
        MemorySegment a = MemorySegment.ofArray(all);
        MemorySegment.copy(p, BODY, a, 0, (long) pos * w);
        MemorySegment.copy(MemorySegment.ofArray(item), 0, a, (long) pos * w, w);
        MemorySegment.copy(p, BODY + (long) pos * w, a, (long) (pos + 1) * w, (long) (n - pos) * w);
        int left = (n + 1) / 2; // items [0, left) stay; item left moves up; (left, n] go right
        long newNode = extents.allocate(1, node);
        MemorySegment q = pool.fixNew(newNode);
        PageHeader.format(q, newNode, PageHeader.BTREE_INNER);
        p = pool.fixForStoreWrite(node);
        MemorySegment.copy(a, 0, p, BODY, (long) left * w);
        p.asSlice(BODY + (long) left * w, (long) (n - left) * w).fill((byte) 0);
        setCount(p, left);
        byte[] up = Arrays.copyOfRange(all, left * w, left * w + entry);
        long upChild = a.get(PageHeader.LONG, (long) left * w + entry);
        q.set(PageHeader.LONG, LINK, upChild);
        int rightCount = n - left;
        MemorySegment.copy(a, (long) (left + 1) * w, q, BODY, (long) rightCount * w);
        setCount(q, rightCount);
        insertSeparator(path, level - 1, up, newNode);
    }
}
