package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import dev.quickstore.core.software.Oid;
import java.lang.foreign.MemorySegment;

/**
 * The stored form of a persistent collection of references (list, set and bag fields) in a software-persistence
 * store: an unbounded array of OIDs kept as a radix tree of <em>small</em> objects, the design of the hardware
 * mode's {@link RefArray} with OIDs for virtual addresses. Every entry word (element or child node) is in its
 * page's pointer map, so it is an OID on disk and is swizzled in place when dereferenced ({@link SoftView#deref},
 * {@link SoftView#resolve}) and unswizzled at write-back and eviction like any reference field (E / EPVM 3.0,
 * White and DeWitt 1994, section 4.5.1; in-place swizzling as in docs/software-mode.md). The owner's 8-byte field
 * holds the root node's OID (0 = empty).
 *
 * <pre>
 * software reference array node, format 2 (docs/formats.md)
 * offset size
 *      0    4 tag       0x51535242 ("QSRB"), constant: a node's OID uniquifier never changes
 *      4    4 size      root: elements in the collection; other nodes: 0
 *      8    2 capacity  entry words in this node
 *     10    1 height    0: a leaf, entries are element OIDs (0 past the size);
 *                       h &gt; 0: entries are OIDs of nodes of height h-1 (0 = not allocated)
 *     11    1 format    2
 *     12    4 reserved  0
 *     16  8*c entries
 *
 * software reference array, format 1 (the first landing; read, and rewritten as format 2 on the first change)
 *      0    4 tag       0x51535241 ("QSRA")
 *      4    2 size      elements
 *      6    2 capacity  entry words (up to 1,006 with 8 KiB pages)
 *      8  8*c entries   element OIDs
 * </pre>
 *
 * The tag tells the formats apart (a node's tag never changes, so neither does its OID). Checksums are the
 * page's (CRC32C over every page, docs/formats.md); the format byte versions the node.
 *
 * <p>The fan-out {@code B = 2^shift} is the largest power of two whose node fits a small object: 512 with 8 KiB
 * pages (4,112-byte nodes). Element {@code i} of a tree of height {@code h} is entry {@code i & (B-1)} of the leaf
 * reached through entries {@code (i >>> shift*l) & (B-1)} for {@code l = h..1}: {@code get(i)} is {@code h + 1}
 * residency-checked dereferences from the owner's field (each swizzled in place after its first use, so a
 * repeated {@code get} is {@code h + 1} loads and bit tests). A tree of height {@code h} holds {@code B^(h+1)}
 * elements (262,144 at height 1, 134 million at height 2).
 *
 * <p>Growth and shrinking are {@link RefArray}'s: a root leaf starts with 4 entries and doubles up to {@code B};
 * a full root gains a parent (the old root becomes child 0); non-root nodes have {@code B} entries and are
 * allocated when the first index they cover is appended; removing the last element of a node frees it, a root
 * with one child is replaced by that child and an empty collection frees its root and stores 0.
 *
 * <p><b>Residency.</b> Any dereference may read a page and evict another, so a region offset is used only until
 * the next dereference or allocation: every step walks again from the owner's field (cheap: the words on the
 * path are swizzled), a change to several leaves (an insertion or removal in the middle) goes leaf by leaf
 * carrying one element as an OID between them, and every word that moves is stored as an OID (a moved swizzled
 * word would not be in its target frame's referrer list).
 */
final class SoftRefArray {
    /** Bytes 0..3 of a format-2 node. */
    static final int TAG = 0x51535242;
    /** Bytes 0..3 of a format-1 (one-node) array. */
    static final int LEGACY_TAG = 0x51535241;

    static final int HEADER = 16;
    static final int LEGACY_HEADER = 8;
    static final byte FORMAT = 2;
    private static final int MIN_CAPACITY = 4;

    private SoftRefArray() {}

    /** log2 of the fan-out for the store's largest small object. */
    static int shift(int maxSmall) {
        int entries = (maxSmall - HEADER) / 8;
        return 31 - Integer.numberOfLeadingZeros(Math.min(entries, 1 << 15));
    }

    // ---- reading ----

    /** The root node's region offset (swizzling the owner's field in place), or 0 for an empty collection. */
    static long root(SoftObject owner, long field) {
        return SoftView.deref(owner.at() + field);
    }

    static boolean legacy(long node) {
        return SoftView.region().get(JAVA_INT, node) == LEGACY_TAG;
    }

    static int size(long root) {
        if (root == 0) {
            return 0;
        }
        MemorySegment r = SoftView.region();
        return legacy(root) ? Short.toUnsignedInt(r.get(JAVA_SHORT, root + 4)) : r.get(JAVA_INT, root + 4);
    }

    static int height(long node) {
        return legacy(node) ? 0 : SoftView.region().get(JAVA_BYTE, node + 10);
    }

    static int capacity(long node) {
        MemorySegment r = SoftView.region();
        return Short.toUnsignedInt(r.get(JAVA_SHORT, node + (legacy(node) ? 6 : 8)));
    }

    private static int header(long node) {
        return legacy(node) ? LEGACY_HEADER : HEADER;
    }

    /**
     * Region offset of the node at {@code level} on the path to element {@code index} (the root when the level
     * is the tree's height), or 0 when a node on the path is not allocated.
     */
    static long node(SoftObject owner, long field, int index, int level, int shift) {
        long node = root(owner, field);
        if (node == 0) {
            return 0;
        }
        int mask = (1 << shift) - 1;
        for (int l = height(node); l > level && node != 0; l--) {
            node = SoftView.deref(node + HEADER + 8L * ((index >>> (shift * l)) & mask));
        }
        return node;
    }

    /** Region offset of element {@code index}'s word (its leaf allocated), valid until the next dereference. */
    static long slot(SoftObject owner, long field, int index, int shift) {
        long root = root(owner, field);
        if (height(root) == 0) {
            return root + header(root) + 8L * index;
        }
        long leaf = node(owner, field, index, 0, shift);
        return leaf + HEADER + 8L * (index & ((1 << shift) - 1));
    }

    /** Like {@link #slot}, after the software write barrier for it. */
    private static long writableSlot(SoftObject owner, long field, int index, int shift) {
        long at = slot(owner, field, index, shift);
        long epoch = SoftView.epoch();
        SoftView.markWrite(at);
        return SoftView.epoch() == epoch ? at : slot(owner, field, index, shift);
    }

    /** Elements in the leaf holding {@code index} from {@code index} on (the whole root leaf at height 0). */
    private static int leafEnd(long root, int index, int shift) {
        return height(root) == 0 ? Integer.MAX_VALUE : (index | ((1 << shift) - 1)) + 1;
    }

    /** The stored form of a word that may be swizzled: its OID (0 stays 0). */
    static long oidOf(long word) {
        return word == 0 || Oid.isOid(word) ? word : SoftView.oidAt(word);
    }

    /**
     * Index of the first element that is object {@code oid}, or -1; scans leaf by leaf. A word equals the object
     * when it is its OID or, while the object is resident, its region offset (a swizzled pointer to it).
     */
    static int indexOf(SoftObject owner, long field, long oid, int shift) {
        int n = size(root(owner, field));
        MemorySegment r = SoftView.region();
        int i = 0;
        while (i < n) {
            long root = root(owner, field);
            int end = Math.min(n, leafEnd(root, i, shift));
            long at = slot(owner, field, i, shift);
            long resident = SoftView.residentAt(oid); // after the walk, which may have evicted its page
            if (resident < 0) {
                resident = oid; // not resident: no word is swizzled to it
            }
            for (int k = 0; k < end - i; k++) {
                long w = r.get(JAVA_LONG, at + 8L * k);
                if (w == oid || w == resident) {
                    return i + k;
                }
            }
            i = end;
        }
        return -1;
    }

    // ---- writing ----

    /** Stores {@code oid} as element {@code index} (in bounds). */
    static void put(SoftObject owner, long field, int index, int shift, long oid) {
        SoftView.region().set(JAVA_LONG, writableSlot(owner, field, index, shift), oid);
    }

    /** A new node's OID: allocated near {@code nearOid}, entries {@code entries[0..count)} (OIDs). */
    private static long allocate(
            Session s, long nearOid, int capacity, int height, int size, long[] entries, int count) {
        byte[] image = new byte[HEADER + 8 * capacity];
        MemorySegment img = MemorySegment.ofArray(image);
        img.set(JAVA_INT_UNALIGNED, 0, TAG);
        img.set(JAVA_INT_UNALIGNED, 4, size);
        img.set(JAVA_SHORT_UNALIGNED, 8, (short) capacity);
        img.set(JAVA_BYTE, 10, (byte) height);
        img.set(JAVA_BYTE, 11, FORMAT);
        for (int k = 0; k < count; k++) {
            img.set(JAVA_LONG_UNALIGNED, HEADER + 8L * k, entries[k]);
        }
        int[] pointers = new int[capacity];
        for (int k = 0; k < capacity; k++) {
            pointers[k] = HEADER + 8 * k;
        }
        var tx = s.storeTransaction();
        long ref = tx.allocate(image.length, nearOid == 0 ? 0 : SoftObjects.refOf(nearOid), pointers);
        tx.write(ref, 0, image);
        return SoftObjects.oidOfRef(ref);
    }

    private static void setField(SoftObject owner, long field, long oid) {
        SoftView.region().set(JAVA_LONG, owner.writable(field), oid);
    }

    /** Writes the size word of the node at {@code node} (format 2). */
    private static void setSize(long node, int size) {
        long epoch = SoftView.epoch();
        long oid = SoftView.oidAt(node);
        SoftView.markWrite(node + 4);
        if (SoftView.epoch() != epoch) {
            node = SoftView.resolve(-1, oid);
        }
        SoftView.region().set(JAVA_INT, node + 4, size);
    }

    private static void setRootSize(SoftObject owner, long field, int size) {
        setSize(root(owner, field), size);
    }

    /** The entries of the node at {@code node} as OIDs (read before anything may evict it). */
    private static long[] entries(long node, int count) {
        long[] e = new long[count];
        int h = header(node);
        for (int k = 0; k < count; k++) {
            e[k] = oidOf(SoftView.region().get(JAVA_LONG, node + h + 8L * k));
        }
        return e;
    }

    /** A format-1 array becomes a format-2 one with the same elements (before its first change). */
    private static void migrate(Session s, SoftObject owner, long field, int shift) {
        long root = root(owner, field);
        if (root == 0 || !legacy(root)) {
            return;
        }
        long oldOid = SoftView.oidAt(root);
        int n = size(root);
        long[] all = entries(root, n);
        setField(owner, field, 0L);
        for (long e : all) {
            int i = append(s, owner, field, shift);
            put(owner, field, i, shift, e);
        }
        s.software().free(oldOid);
    }

    /** Elements a tree of this height can index: {@code B^(h+1)}, saturated at {@code Integer.MAX_VALUE}. */
    private static long reach(int height, int shift) {
        long bits = (long) shift * (height + 1);
        return bits >= 31 ? Integer.MAX_VALUE : 1L << bits;
    }

    /**
     * Appends one element word (0 for now; the caller stores it with {@link #put}) and returns its index, the old
     * size.
     */
    static int append(Session s, SoftObject owner, long field, int shift) {
        migrate(s, owner, field, shift);
        long root = root(owner, field);
        int per = 1 << shift;
        if (root == 0) {
            setField(owner, field, allocate(s, owner.oid(), Math.min(MIN_CAPACITY, per), 0, 1, null, 0));
            return 0;
        }
        int n = size(root);
        if (n == Integer.MAX_VALUE) {
            throw new IllegalStateException("a persistent collection holds at most " + Integer.MAX_VALUE);
        }
        int h = height(root);
        int cap = capacity(root);
        if (h == 0 && n < cap) {
            setSize(root, n + 1);
            return n;
        }
        if (h == 0 && cap < per) { // a root leaf doubles
            long oldOid = SoftView.oidAt(root);
            long[] e = entries(root, n);
            long fresh = allocate(s, owner.oid(), Math.min(per, Math.max(MIN_CAPACITY, cap * 2)), 0, n + 1, e, n);
            setField(owner, field, fresh);
            s.software().free(oldOid);
            return n;
        }
        if (n >= reach(h, shift)) { // a full root gains a parent
            long oldOid = SoftView.oidAt(root);
            long parent = allocate(s, owner.oid(), per, h + 1, n, new long[] {oldOid}, 1);
            setSize(SoftView.resolve(-1, oldOid), 0);
            setField(owner, field, parent);
            h++;
        }
        int mask = per - 1;
        for (int l = h; l > 0; l--) { // the nodes on the path to index n that do not exist yet
            long node = node(owner, field, n, l, shift);
            long entry = node + HEADER + 8L * ((n >>> (shift * l)) & mask);
            if (SoftView.region().get(JAVA_LONG, entry) == 0) {
                long child = allocate(s, SoftView.oidAt(node), per, l - 1, 0, null, 0);
                node = node(owner, field, n, l, shift);
                entry = node + HEADER + 8L * ((n >>> (shift * l)) & mask);
                long epoch = SoftView.epoch();
                SoftView.markWrite(entry);
                if (SoftView.epoch() != epoch) {
                    entry = node(owner, field, n, l, shift) + HEADER + 8L * ((n >>> (shift * l)) & mask);
                }
                SoftView.region().set(JAVA_LONG, entry, child);
            }
        }
        setRootSize(owner, field, n + 1);
        return n;
    }

    /**
     * Inserts {@code oid} at {@code index} (0..size): appends a word, then moves {@code [index, size)} one place
     * up, leaf by leaf from {@code index}'s, carrying each leaf's last element into the next as an OID.
     */
    static void insert(Session s, SoftObject owner, long field, int index, long oid, int shift) {
        int n = append(s, owner, field, shift); // elements are [0, n], word n is 0
        long carry = oid;
        int lo = index;
        MemorySegment r = SoftView.region();
        while (lo <= n) {
            int end = (int) Math.min(n + 1L, leafEnd(root(owner, field), lo, shift));
            long at = writableSlot(owner, field, lo, shift);
            int count = end - lo;
            long out = oidOf(r.get(JAVA_LONG, at + 8L * (count - 1)));
            for (int k = count - 1; k > 0; k--) {
                r.set(JAVA_LONG, at + 8L * k, oidOf(r.get(JAVA_LONG, at + 8L * (k - 1))));
            }
            r.set(JAVA_LONG, at, carry);
            carry = out;
            lo = end;
        }
    }

    /**
     * Removes element {@code index}: moves {@code (index, size)} one place down, leaf by leaf from the last,
     * carrying each leaf's first element into the previous one as an OID, then drops the last word.
     */
    static void remove(Session s, SoftObject owner, long field, int index, int shift) {
        migrate(s, owner, field, shift);
        int n = size(root(owner, field));
        long carry = 0;
        int per = 1 << shift;
        int lo = height(root(owner, field)) == 0 ? index : Math.max(index, (n - 1) & -per);
        MemorySegment r = SoftView.region();
        while (true) {
            int end = Math.min(n, leafEnd(root(owner, field), lo, shift));
            long at = writableSlot(owner, field, lo, shift);
            int count = end - lo;
            long out = oidOf(r.get(JAVA_LONG, at));
            for (int k = 0; k < count - 1; k++) {
                r.set(JAVA_LONG, at + 8L * k, oidOf(r.get(JAVA_LONG, at + 8L * (k + 1))));
            }
            r.set(JAVA_LONG, at + 8L * (count - 1), carry);
            carry = out;
            if (lo == index) {
                break;
            }
            lo = Math.max(index, lo - per);
        }
        removeLast(s, owner, field, shift);
    }

    /** Moves the last element to {@code index} and drops the last word (a set's or bag's O(height) removal). */
    static void removeBySwap(Session s, SoftObject owner, long field, int index, int shift) {
        migrate(s, owner, field, shift);
        int last = size(root(owner, field)) - 1;
        if (index != last) {
            long moved = oidOf(SoftView.region().get(JAVA_LONG, slot(owner, field, last, shift)));
            put(owner, field, index, shift, moved);
        }
        put(owner, field, last, shift, 0L);
        removeLast(s, owner, field, shift);
    }

    /** Drops the last element (its word already 0), freeing emptied nodes. */
    private static void removeLast(Session s, SoftObject owner, long field, int shift) {
        long root = root(owner, field);
        int last = size(root) - 1;
        if (last == 0) {
            long oid = SoftView.oidAt(root);
            setField(owner, field, 0L);
            free(s, oid);
            return;
        }
        int h = height(root);
        int per = 1 << shift;
        if (h == 0) {
            int cap = capacity(root);
            if (cap > MIN_CAPACITY && last <= cap / 4) { // a root leaf at a quarter is halved
                long oldOid = SoftView.oidAt(root);
                long[] e = entries(root, last);
                setField(owner, field, allocate(s, owner.oid(), cap / 2, 0, last, e, last));
                s.software().free(oldOid);
            } else {
                setSize(root, last);
            }
            return;
        }
        // free the nodes whose first covered index is `last`, bottom-up
        for (int l = 0; l < h; l++) {
            long covered = 1L << (shift * (l + 1)); // indexes per node of height l
            if (last % covered != 0) {
                break;
            }
            long parent = node(owner, field, last, l + 1, shift);
            long entry = parent + HEADER + 8L * ((last >>> (shift * (l + 1))) & (per - 1));
            long child = oidOf(SoftView.region().get(JAVA_LONG, entry));
            long epoch = SoftView.epoch();
            SoftView.markWrite(entry);
            if (SoftView.epoch() != epoch) {
                entry = node(owner, field, last, l + 1, shift)
                        + HEADER
                        + 8L * ((last >>> (shift * (l + 1))) & (per - 1));
            }
            SoftView.region().set(JAVA_LONG, entry, 0L);
            s.software().free(child);
        }
        // a root whose elements all fit in child 0 is replaced by it
        while (h > 0 && last <= (1L << (shift * h))) {
            root = root(owner, field);
            long rootOid = SoftView.oidAt(root);
            long child = oidOf(SoftView.region().get(JAVA_LONG, root + HEADER));
            setField(owner, field, child);
            s.software().free(rootOid);
            h--;
        }
        setRootSize(owner, field, last);
    }

    /** Removes every element: frees all nodes and stores 0 in the owner's field. */
    static void clear(Session s, SoftObject owner, long field) {
        long root = root(owner, field);
        if (root != 0) {
            long oid = SoftView.oidAt(root);
            setField(owner, field, 0L);
            free(s, oid);
        }
    }

    /** Frees the array whose root is {@code oid} (its owner is being deleted or the collection cleared). */
    static void free(Session s, long oid) {
        long node = SoftView.resolve(-1, oid);
        if (height(node) > 0) {
            long[] children = entries(node, capacity(node));
            for (long child : children) {
                if (child != 0) {
                    free(s, child);
                }
            }
        }
        s.software().free(oid);
    }
}
