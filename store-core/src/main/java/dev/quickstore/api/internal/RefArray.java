package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.MemorySegment;

/**
 * The stored form of a persistent collection of references (list, set and bag fields): an unbounded array of
 * 8-byte virtual addresses kept as a radix tree of <em>small</em> objects, so that every element word lies in
 * its page's pointer map and fault-time translation and relocation find it like any reference field
 * (QuickStore, White &amp; DeWitt 1994, §3.4: the per-page pointer bitmaps; a large object would hold bytes
 * the pointer maps do not describe). The owner's 8-byte field holds the root node's address (0 = empty).
 *
 * <pre>
 * node, format 1 (a small object allocated near the owner; every entry word in the pointer map)
 * offset size
 *      0    4 size      root: elements in the collection; other nodes: 0
 *      4    2 capacity  entry words in this node
 *      6    1 height    0: a leaf, entries are element addresses (0 = null);
 *                       h &gt; 0: entries are addresses of nodes of height h-1 (0 = not allocated)
 *      7    1 format    1 (0: an array written before format 1, u32 capacity &lt; 65,536: read as a leaf)
 *      8  8*c entries
 * </pre>
 *
 * The fan-out {@code B = 2^shift} is the largest power of two whose node fits a small object: 512 with
 * 8 KiB pages (4,104-byte nodes), 256 with 4 KiB pages; it depends only on the page size, which is fixed
 * per store. Element {@code i} of a tree of height {@code h} is entry {@code i & (B-1)} of the leaf reached
 * by entries {@code (i >>> shift*l) & (B-1)} for {@code l = h..1}: {@code get(i)} is {@code h + 2} plain
 * loads (one node per level, the root is read for size and height first). A tree of height {@code h}
 * holds up to {@code B^(h+1)} elements (134 million at height 2 with 8 KiB pages).
 *
 * <p>Growth: a root leaf starts with 4 entries, or with the power of two at least half of the recent lists of
 * the same element type needed ({@link FirstNodeSizing}, at most 128), and doubles up to {@code B}; a full root gains a parent (the
 * height grows, the old root becomes child 0); every non-root node has {@code B} entries and is allocated
 * when the first index it covers is appended. Elements are dense: indexes {@code [0, size)} are stored,
 * entries past the end are 0. Removing the last element of a node frees the node; a root with one child is
 * replaced by that child; a root leaf at a quarter of its capacity is halved; an empty collection frees its
 * root and stores 0 in the field. Every mutation writes the owner's field and nodes through the view only.
 */
final class RefArray {
    static final int HEADER = 8;
    static final byte FORMAT = 1;
    private static final int MIN_CAPACITY = 4;

    private RefArray() {}

    /** log2 of the fan-out for the store's largest small object. */
    static int shift(int maxSmall) {
        int entries = (maxSmall - HEADER) / 8;
        return 31 - Integer.numberOfLeadingZeros(Math.min(entries, 1 << 15));
    }

    /*
     * The read path (root, size, element) loads through FlatView: one unsigned range compare per load against the
     * bound view instead of the bound segment's own checks (its session, its length, the alignment of each
     * address): the list reads were a third of a hot OO7 T6, much of it those checks (docs/results.md, "Reference
     * lists through the flat view").
     * Writes stay on View.segment(), whose offsets slot() returns.
     */

    static long root(long field) {
        return FlatView.getLong(field);
    }

    static int size(long root) {
        return root == 0 ? 0 : FlatView.getInt(root);
    }

    /**
     * Element {@code i} of the tree at {@code root} (not 0; {@code 0 <= i < size}, checked by the caller): one
     * load per level below the root, then the entry. The single read path of element words ({@link #slot} is
     * the write path's).
     */
    static long element(long root, int i, int shift) {
        long node = root;
        int h = FlatView.getByte(root + 6);
        int low = i;
        if (h > 0) { // else a root leaf (of a format-0 array: i may exceed the fan-out)
            int mask = (1 << shift) - 1;
            do {
                node = FlatView.getLong(node + HEADER + 8L * ((i >>> (shift * h)) & mask));
            } while (--h > 0);
            low = i & mask;
        }
        return FlatView.getLong(node + HEADER + 8L * low);
    }

    static int capacity(long node) {
        return Short.toUnsignedInt(View.segment().get(JAVA_SHORT, node - View.base() + 4));
    }

    static int height(long node) {
        return View.segment().get(JAVA_BYTE, node - View.base() + 6);
    }

    /** View offset of element {@code i} (must be below the tree's capacity and its leaf allocated). */
    static long slot(long root, int i, int shift) {
        var seg = View.segment();
        long base = View.base();
        int h = seg.get(JAVA_BYTE, root - base + 6);
        long node = root;
        int mask = (1 << shift) - 1;
        if (h == 0) {
            return node - base + HEADER + 8L * i; // a root leaf (of a format-0 array: may exceed the fan-out)
        }
        while (h > 0) {
            node = seg.get(JAVA_LONG, node - base + HEADER + 8L * ((i >>> (shift * h)) & mask));
            h--;
        }
        return node - base + HEADER + 8L * (i & mask);
    }

    /** The element word at index {@code i}, bounds-checked. */
    static long get(long root, int i, int shift) {
        int n = size(root);
        if (i < 0 || i >= n) {
            throw new IndexOutOfBoundsException("index " + i + " of a persistent collection of " + n);
        }
        return element(root, i, shift);
    }

    /** Stores {@code value} at index {@code i} (in bounds). The single store path for element words. */
    static void put(long root, int i, int shift, long value) {
        setWord(slot(root, i, shift), value);
    }

    /** Index of the first element word equal to {@code address}, or -1. Scans leaf by leaf. */
    static int indexOf(long root, long address, int shift) {
        int n = size(root);
        var seg = View.segment();
        int per = 1 << shift;
        for (int lo = 0; lo < n; lo += per) {
            long at = slot(root, lo, shift);
            int end = Math.min(n - lo, height(root) == 0 ? n : per);
            for (int k = 0; k < end; k++) {
                if (seg.get(JAVA_LONG, at + 8L * k) == address) {
                    return lo + k;
                }
            }
            if (height(root) == 0) {
                break;
            }
        }
        return -1;
    }

    private static long node(Session s, long near, int capacity, int height) {
        int[] pointers = new int[capacity];
        for (int k = 0; k < capacity; k++) {
            pointers[k] = HEADER + 8 * k;
        }
        // QS-B (ObjectPadding): a header and a wider slot per element, at most up to the largest small object
        int size = HEADER + 8 * capacity;
        long a = s.allocate(
                Math.max(size, Math.min(s.maxSmall(), size + s.padding().objectExtra(capacity))), near, pointers);
        var seg = View.segment();
        long off = a - View.base();
        written(off, HEADER + 8L * capacity); // a new object: all of it
        seg.set(JAVA_SHORT, off + 4, (short) capacity);
        seg.set(JAVA_BYTE, off + 6, (byte) height);
        seg.set(JAVA_BYTE, off + 7, FORMAT);
        return a;
    }

    private static void setRoot(long field, long root, int size) {
        var seg = View.segment();
        setWord(field - View.base(), root);
        if (root != 0) {
            written(root - View.base(), 4);
            seg.set(JAVA_INT, root - View.base(), size);
        }
    }

    /** Elements a tree of this height can index: {@code B^(h+1)}, saturated at {@code Integer.MAX_VALUE}. */
    private static long reach(int height, int shift) {
        long shiftBits = (long) shift * (height + 1);
        return shiftBits >= 31 ? Integer.MAX_VALUE : 1L << shiftBits;
    }

    /**
     * Appends one element word (0 for now) and sets the size to {@code n + 1}; returns the (possibly new)
     * root. The caller stores the value with {@link #put}. A new list's first node gets the capacity {@link
     * FirstNodeSizing} learned for {@code sizingKey} (the element type; null: 4 entries).
     */
    static long append(Session s, long field, int shift, Object sizingKey) {
        long root = root(field);
        int per = 1 << shift;
        if (root == 0) {
            root = node(s, field, s.firstNodeSizing().firstCapacity(sizingKey, per), 0);
            setRoot(field, root, 1);
            return root;
        }
        int n = size(root);
        if (n == Integer.MAX_VALUE) {
            throw new IllegalStateException("a persistent collection holds at most " + Integer.MAX_VALUE);
        }
        if ((n & (n - 1)) == 0 && n >= MIN_CAPACITY) {
            s.firstNodeSizing().exceeded(sizingKey, n); // the list now holds more than n elements
        }
        int h = height(root);
        if (h == 0 && n < capacity(root)) {
            setRoot(field, root, n + 1);
            return root;
        }
        if (h == 0 && capacity(root) < per) {
            int cap = Math.min(per, Math.max(MIN_CAPACITY, capacity(root) * 2));
            long fresh = node(s, field, cap, 0);
            copyWords(root - View.base() + HEADER, fresh - View.base() + HEADER, n);
            setRoot(field, fresh, n + 1);
            s.storeTransaction().delete(root);
            return fresh;
        }
        if (h == 0 && capacity(root) > per) {
            root = splitLegacy(s, field, root, n, shift);
            h = 1;
        }
        if (n >= reach(h, shift)) {
            long parent = node(s, field, per, h + 1);
            setWord(parent - View.base() + HEADER, root);
            written(root - View.base(), 4);
            View.segment().set(JAVA_INT, root - View.base(), 0);
            root = parent;
            h++;
        }
        // allocate the nodes on the path to index n that do not exist yet
        var seg = View.segment();
        long node = root;
        for (int l = h; l > 0; l--) {
            long entry = node - View.base() + HEADER + 8L * ((n >>> (shift * l)) & (per - 1));
            long child = seg.get(JAVA_LONG, entry);
            if (child == 0) {
                child = node(s, node, per, l - 1);
                setWord(entry, child);
            }
            node = child;
        }
        setRoot(field, root, n + 1);
        return root;
    }

    /** A leaf of more than {@code B} entries (format 0) becomes a height-1 tree of B-entry leaves. */
    private static long splitLegacy(Session s, long field, long leaf, int n, int shift) {
        int per = 1 << shift;
        long parent = node(s, field, per, 1);
        for (int lo = 0, k = 0; lo < n; lo += per, k++) {
            long child = node(s, parent, per, 0);
            copyWords(leaf - View.base() + HEADER + 8L * lo, child - View.base() + HEADER, Math.min(per, n - lo));
            setWord(parent - View.base() + HEADER + 8L * k, child);
        }
        setRoot(field, parent, n);
        s.storeTransaction().delete(leaf);
        return parent;
    }

    /** Drops the last element (its word must already be 0 or is cleared here), freeing emptied nodes. */
    static void removeLast(Session s, long field, int shift) {
        long root = root(field);
        int n = size(root);
        var seg = View.segment();
        int last = n - 1;
        setWord(slot(root, last, shift), 0L);
        if (last == 0) {
            setRoot(field, 0, 0);
            freeTree(s, root);
            return;
        }
        int h = height(root);
        int per = 1 << shift;
        if (h == 0) {
            int cap = capacity(root);
            if (cap > MIN_CAPACITY && last <= cap / 4) {
                long fresh = node(s, field, cap / 2, 0);
                copyWords(root - View.base() + HEADER, fresh - View.base() + HEADER, last);
                setRoot(field, fresh, last);
                s.storeTransaction().delete(root);
            } else {
                setRoot(field, root, last);
            }
            return;
        }
        // free the nodes whose first covered index was `last`, bottom-up
        long[] path = new long[h + 1];
        path[h] = root;
        for (int l = h; l > 0; l--) {
            path[l - 1] =
                    seg.get(JAVA_LONG, path[l] - View.base() + HEADER + 8L * ((last >>> (shift * l)) & (per - 1)));
        }
        for (int l = 0; l < h; l++) {
            long covered = 1L << (shift * (l + 1)); // indexes per node of height l
            if (last % covered != 0) {
                break;
            }
            setWord(path[l + 1] - View.base() + HEADER + 8L * ((last >>> (shift * (l + 1))) & (per - 1)), 0L);
            s.storeTransaction().delete(path[l]);
        }
        // a root whose elements all fit in child 0 is replaced by it
        while (h > 0 && last <= (1L << (shift * h))) {
            long child = seg.get(JAVA_LONG, root - View.base() + HEADER);
            s.storeTransaction().delete(root);
            root = child;
            h--;
        }
        setRoot(field, root, last);
    }

    /** Removes every element: frees all nodes and stores 0 in the field. */
    static void clear(Session s, long field) {
        long root = root(field);
        if (root != 0) {
            setWord(field - View.base(), 0L);
            freeTree(s, root);
        }
    }

    /** Frees a tree (the owner is being deleted or the collection cleared). */
    static void freeTree(Session s, long node) {
        int h = height(node);
        if (h > 0) {
            int cap = capacity(node);
            for (int k = 0; k < cap; k++) {
                long child = View.segment().get(JAVA_LONG, node - View.base() + HEADER + 8L * k);
                if (child != 0) {
                    freeTree(s, child);
                }
            }
        }
        s.storeTransaction().delete(node);
    }

    /** Indexes per leaf: the root leaf's capacity at height 0, else the fan-out. */
    private static int span(long root, int shift) {
        return height(root) == 0 ? Integer.MAX_VALUE : 1 << shift;
    }

    /** Moves elements {@code [from, n)} one place up (insert at {@code from}); the size must be n + 1 already. */
    static void shiftUp(long root, int from, int n, int shift) {
        var seg = View.segment();
        int span = span(root, shift);
        int j = n;
        while (j > from) {
            int leafStart = (j - 1) / span * span;
            int lo = Math.max(from, leafStart);
            if (span != Integer.MAX_VALUE && j == leafStart + span) { // the last one crosses into the next leaf
                setWord(slot(root, j, shift), seg.get(JAVA_LONG, slot(root, j - 1, shift)));
                move(slot(root, lo, shift), 8, j - 1 - lo);
            } else {
                move(slot(root, lo, shift), 8, j - lo);
            }
            j = lo;
        }
    }

    /** Moves elements {@code (at, n)} one place down (remove at {@code at}); the last word keeps its value. */
    static void shiftDown(long root, int at, int n, int shift) {
        var seg = View.segment();
        int span = span(root, shift);
        int j = at;
        while (j < n - 1) {
            int leafEnd = (int) Math.min((long) j / span * span + span, n);
            if (leafEnd - 1 > j) {
                move(slot(root, j + 1, shift), -8, leafEnd - 1 - j);
            }
            if (leafEnd < n) { // the first of the next leaf crosses into this one
                setWord(slot(root, leafEnd - 1, shift), seg.get(JAVA_LONG, slot(root, leafEnd, shift)));
            }
            j = leafEnd;
        }
    }

    /** Moves {@code count} words starting at view offset {@code from} by {@code delta} bytes (within a node). */
    private static void move(long from, int delta, int count) {
        if (count > 0) {
            written(from + delta, 8L * count);
            var seg = View.segment();
            MemorySegment.copy(seg, from, seg, from + delta, 8L * count); // copy() handles the overlap
        }
    }

    private static void setWord(long off, long value) {
        written(off, 8);
        View.segment().set(JAVA_LONG, off, value);
    }

    private static void copyWords(long from, long to, int count) {
        if (count > 0) {
            written(to, 8L * count);
            var seg = View.segment();
            MemorySegment.copy(seg, from, seg, to, 8L * count);
        }
    }

    /**
     * View bytes {@code [off, off + bytes)} are about to be stored to: every store of this class is preceded by
     * a call. Nothing to do under page protection (the first write faults and the page is captured); the place
     * for a software write barrier (card marking) to mark the range.
     */
    private static void written(long off, long bytes) {
        View.markRange(
                View.base() + off, bytes); // the card-marking write barrier (a no-op table under page protection)
    }
}
