package dev.quickstore.core.btree;

import static dev.quickstore.core.btree.BPlusTree.BODY;
import static dev.quickstore.core.btree.BPlusTree.LINK;
import static dev.quickstore.core.btree.Nodes.BE_INT;
import static dev.quickstore.core.btree.Nodes.BE_LONG;
import static dev.quickstore.core.btree.Nodes.count;
import static dev.quickstore.core.btree.Nodes.setCount;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.index.NumericEntryVisitor;
import dev.quickstore.core.page.PageHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * One B+tree's paths for INT and LONG keys without allocation (issue 13; {@link BPlusTree}'s "Numeric keys
 * without allocation"): lookup, range scan, insert and delete work on the key's <em>order bits</em> (the {@link
 * KeyType} encoding - sign bit flipped, big-endian - read as an unsigned number, {@link #keyBits}) and compare
 * them with the entries in place ({@link Nodes#compareNumeric}): no key object, no encoded byte array, no heap
 * segment. The tree, its entries and their encoding are the same as the {@code Object}-keyed paths', so both work
 * on one tree; a leaf split goes through the encoded entry ({@link NodeSplits}).
 *
 * <p>Invariant: {@link Long#compareUnsigned} of two keys' order bits is the order of the keys, and of their
 * encoded entries' key bytes. The meta page is fixed once per descent (root and height together).
 */
final class NumericKeys {
    private final BPlusTree tree;
    private final BufferPool pool;
    private final Nodes nodes;
    private final NodeSplits splits;
    private final NodeRemovals removals;
    private final KeyType keyType;
    private final int keyLength;
    private final int entry;
    /**
     * The bounds of the keys of the leaf the last {@link #leafNumeric} returned, and which of them are known (the
     * separators around it on the way down): scratch of one descent, read right after it under the store's latch.
     */
    private long leafLow;

    private long leafHigh;
    private int leafKnown;
    /** Whether the last {@link #first} found its key (scratch, read right after it). */
    private boolean found;

    /** The last hit of {@link #remembered} (heap only, under the latch like the tree). */
    private boolean rememberedAbsent;

    private long rememberedValue;

    /** Lookups {@link #remembered} answered since the tree was opened (tests, statistics). */
    private long rememberedAnswers;

    /** The answers of {@link #lookupFirst} under the pool's entry stamp. */
    private final LookupMemo memo = new LookupMemo();

    /**
     * The tree's rightmost leaf as the last insert left it when it added its entry there last: an insert of a key
     * above every key in the tree (ascending ids, timestamps: a load's common order) goes straight to that leaf's end
     * ({@link #appendRightmost}), without the descent, the search in the leaf and their fixes. PostgreSQL's B-tree
     * keeps the same "fastpath" leaf for the same inserts (nbtinsert.c, {@code RelationSetTargetBlock}). The page
     * itself tells whether it is still the rightmost leaf (no next leaf), and whether the key is above its last.
     */
    private final KeptLeaf rightmost;
    /** Inserts {@link #appendRightmost} made since this tree was opened. */
    private long rightmostAppends;

    /**
     * The leaf the last delete took an entry from and left non-empty: a delete of an entry between the leaf's first
     * and last entries finds it there if the tree has it, since a leaf holds every entry of the tree between its own
     * first and last, so it skips the descent and its fixes ({@link #deleteInKept}). Ids deleted in about the order
     * they were inserted (OO7 SM2's parts) fall in one leaf after another.
     */
    private final KeptLeaf deleted;
    /** Deletes {@link #deleteInKept} answered since this tree was opened. */
    private long keptLeafDeletes;

    NumericKeys(BPlusTree tree, BufferPool pool, Nodes nodes, NodeSplits splits, NodeRemovals removals) {
        this.tree = tree;
        this.pool = pool;
        this.rightmost = new KeptLeaf(pool.stamps());
        this.deleted = new KeptLeaf(pool.stamps());
        this.nodes = nodes;
        this.splits = splits;
        this.removals = removals;
        this.keyType = tree.keyType;
        this.keyLength = nodes.keyLength;
        this.entry = nodes.entry;
    }

    private void checkNumeric() {
        if (!tree.numeric()) {
            throw new IllegalArgumentException("a STRING index has no numeric keys");
        }
    }

    /** Whether {@code key} is a key of this tree's type (an INT tree holds only int values). */
    private boolean representable(long key) {
        return keyType == KeyType.LONG || (key >= Integer.MIN_VALUE && key <= Integer.MAX_VALUE);
    }

    /**
     * The order bits of a numeric key: the {@link KeyType} encoding (sign bit flipped, big-endian) read as an
     * unsigned number, so that {@link Long#compareUnsigned} of two keys' bits is their order.
     */
    long keyBits(long key) {
        return keyType == KeyType.INT ? (key ^ Integer.MIN_VALUE) & 0xFFFF_FFFFL : key ^ Long.MIN_VALUE;
    }

    private long keyOfBits(long bits) {
        return keyType == KeyType.INT ? (int) bits ^ Integer.MIN_VALUE : bits ^ Long.MIN_VALUE;
    }

    /**
     * The leaf that holds (bits, value) or would: the root as {@link BPlusTree#readRoot} gives it, one fix per
     * level. The bounds of its keys that the separators on the way down gave are left in {@link #leafLow}, {@link
     * #leafHigh} and {@link #leafKnown} (for {@link Nodes#lowerBoundNumeric(MemorySegment, long, long, long, long,
     * int)}).
     */
    private long leafNumeric(long bits, long value) throws IOException {
        tree.readRoot();
        long page = tree.rootPage;
        int h = tree.rootHeight;
        long low = 0;
        long high = 0;
        int known = 0;
        for (int level = 1; level < h; level++) {
            MemorySegment p = pool.fix(page);
            int r = nodes.routeNumeric(p, bits, value, low, high, known);
            // child r holds the keys from separator r - 1 up to separator r (the node's own bounds at either end)
            if (r > 0) {
                low = nodes.separatorBits(p, r - 1);
                known |= Nodes.LOW_KNOWN;
            }
            if (r < Nodes.count(p)) {
                high = nodes.separatorBits(p, r);
                known |= Nodes.HIGH_KNOWN;
            }
            page = nodes.child(p, r);
        }
        leafLow = low;
        leafHigh = high;
        leafKnown = known;
        return page;
    }

    /** As {@link #leafNumeric}, remembering the pages from the root down (for splits). */
    private long[] pathNumeric(long bits, long value) throws IOException {
        tree.readRoot();
        long page = tree.rootPage;
        int h = tree.rootHeight;
        long[] path = new long[h];
        for (int level = 0; level < h; level++) {
            path[level] = page;
            if (level < h - 1) {
                MemorySegment p = pool.fix(page);
                page = nodes.child(p, nodes.routeNumeric(p, bits, value));
            }
        }
        return path;
    }

    /** {@link BPlusTree#lookupFirst}. */
    long lookupFirst(long key, long absent) throws IOException {
        checkNumeric();
        if (!representable(key)) {
            return absent;
        }
        long bits = keyBits(key);
        long stamp = pool.stamps().entryStamp();
        if (stamp == -1) {
            return first(bits, absent, false);
        }
        int slot = memo.find(bits, stamp);
        if (slot >= 0) {
            assert memoAgrees(bits, slot) : "stale lookup memo of the tree at meta page " + tree.metaPage;
            return memo.absentHit() ? absent : memo.value(slot);
        }
        long v = first(bits, 0, false);
        memo.put(bits, found, v, stamp);
        return found ? v : absent;
    }

    /**
     * {@link BPlusTree#remembered}: the memo's answer for {@code key} without a descent, or false if the memo does not
     * hold it (then {@link #lookupFirst} descends). Reads no page; with assertions on, a hit is checked by a descent
     * whose pins are released before returning (the caller runs inside another operation and has no pin mark).
     */
    boolean remembered(long key) {
        checkNumeric();
        long stamp = pool.stamps().entryStamp();
        if (stamp == -1 || !representable(key)) {
            return false;
        }
        long bits = keyBits(key);
        int slot = memo.find(bits, stamp);
        if (slot < 0) {
            return false;
        }
        assert memoAgreesReleasing(bits, slot) : "stale lookup memo of the tree at meta page " + tree.metaPage;
        rememberedAbsent = memo.absentHit();
        rememberedValue = memo.value(slot);
        rememberedAnswers++;
        return true;
    }

    long rememberedAnswers() {
        return rememberedAnswers;
    }

    /** The answer of the last {@link #remembered} that returned true: the key is absent from the tree. */
    boolean rememberedAbsent() {
        return rememberedAbsent;
    }

    /** The answer of the last {@link #remembered} that returned true: the key's first value, if not absent. */
    long rememberedValue() {
        return rememberedValue;
    }

    private boolean memoAgreesReleasing(long bits, int slot) {
        int mark = pool.pinMark();
        try {
            return memoAgrees(bits, slot);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            pool.releasePins(mark);
        }
    }

    /** Assertions: the memo's answer in {@code slot} is the tree's. */
    private boolean memoAgrees(long bits, int slot) throws IOException {
        boolean wasAbsent = memo.absentHit();
        long v = first(bits, 0, false);
        return found ? !wasAbsent && v == memo.value(slot) : wasAbsent;
    }

    /**
     * The first entry with key {@code bits}: its value, or with {@code presence} 1, and {@code absent} if there
     * is none ({@link #found} tells the two apart). A leaf may be empty (one emptied while a scan ran, or by an
     * earlier version, which never removed leaves), so the entry may start a later leaf.
     */
    private long first(long bits, long absent, boolean presence) throws IOException {
        found = false;
        MemorySegment p = pool.fix(leafNumeric(bits, 0));
        int pos = nodes.lowerBoundNumeric(p, bits, 0, leafLow, leafHigh, leafKnown);
        while (pos >= count(p)) {
            long next = PageHeader.aux(p);
            if (next == 0) {
                return absent;
            }
            p = pool.fix(next);
            pos = 0;
        }
        long off = BODY + (long) pos * entry;
        if (nodes.bitsAt(p, off) != bits) {
            return absent;
        }
        found = true;
        return presence ? 1 : p.get(BE_LONG, off + keyLength);
    }

    /** {@link BPlusTree#scanNumeric}. */
    void scanNumeric(long lo, long hi, NumericEntryVisitor visitor) throws IOException {
        checkNumeric();
        pool.stamps().scanOpened(); // no leaf is freed under the scan (NodeRemovals)
        try {
            scanLeaves(lo, hi, visitor);
        } finally {
            pool.stamps().scanClosed();
        }
    }

    private void scanLeaves(long lo, long hi, NumericEntryVisitor visitor) throws IOException {
        if (keyType == KeyType.INT) {
            lo = Math.max(lo, Integer.MIN_VALUE);
            hi = Math.min(hi, Integer.MAX_VALUE);
        }
        if (lo > hi) {
            return;
        }
        long loBits = keyBits(lo);
        long hiBits = keyBits(hi);
        long leaf = leafNumeric(loBits, 0);
        MemorySegment p = pool.fix(leaf);
        int pos = nodes.lowerBoundNumeric(p, loBits, 0, leafLow, leafHigh, leafKnown);
        while (true) {
            while (pos < count(p)) {
                long off = BODY + (long) pos * entry;
                long bits = nodes.bitsAt(p, off);
                if (Long.compareUnsigned(bits, hiBits) > 0) {
                    return;
                }
                if (!visitor.visit(keyOfBits(bits), p.get(BE_LONG, off + keyLength))) {
                    return;
                }
                pos++;
            }
            long next = PageHeader.aux(p);
            pool.unpin(leaf);
            if (next == 0) {
                return;
            }
            leaf = next;
            p = pool.fix(leaf);
            pos = 0;
        }
    }

    /** {@link BPlusTree#insertNumeric}. */
    boolean insertNumeric(long key, long value) throws IOException {
        checkNumeric();
        if (!representable(key)) {
            throw new IllegalArgumentException("INT index key " + key + " is outside the int range");
        }
        long bits = keyBits(key);
        if (appendRightmost(bits, value)) {
            tree.addSize(1);
            return true;
        }
        long[] path = pathNumeric(bits, value);
        long leaf = path[path.length - 1];
        MemorySegment p = pool.fix(leaf);
        int pos = nodes.lowerBoundNumeric(p, bits, value);
        if (pos < count(p) && nodes.compareNumeric(p, BODY + (long) pos * entry, bits, value) == 0) {
            return false;
        }
        if (tree.unique && keyAround(p, pos, bits)) {
            throw new DuplicateKeyException(
                    "unique index already maps key " + key + " to " + String.format("0x%x", first(bits, 0, false)));
        }
        p = pool.fixForStoreWrite(leaf);
        int n = count(p);
        if (n < nodes.leafCapacity) {
            long at = BODY + (long) pos * entry;
            MemorySegment.copy(p, at, p, at + entry, (long) (n - pos) * entry);
            putEntry(p, at, bits, value, n + 1);
            if (pos == n && PageHeader.aux(p) == 0) { // the tree's last entry now: the next may follow it here
                rightmost.keep(leaf, p);
            }
        } else {
            splits.splitLeafAndInsert(path, leaf, p, pos, tree.composite(tree.encodeKey(boxed(key)), value));
        }
        tree.addSize(1);
        return true;
    }

    /**
     * Inserts (bits, value) at the end of the {@link #rightmost} leaf if it is still valid, still the rightmost leaf
     * (no next leaf), not full and not empty, and its last entry is below (bits, value) with a smaller key in a
     * unique tree: then the entry is the tree's largest, its place is there and no entry has its key, which is
     * what the descent would find. Returns whether it did; otherwise the memo is dropped or kept for later and the
     * tree is unchanged.
     */
    private boolean appendRightmost(long bits, long value) {
        MemorySegment p = rightmost.segment();
        if (p == null) {
            return false;
        }
        int n = count(p);
        if (n == 0 || n >= nodes.leafCapacity || PageHeader.aux(p) != 0) {
            return false;
        }
        long last = BODY + (long) (n - 1) * entry;
        if (nodes.compareNumeric(p, last, bits, value) >= 0 || (tree.unique && nodes.bitsAt(p, last) == bits)) {
            return false;
        }
        assert PageHeader.type(p) == PageHeader.BTREE_LEAF && appendsWhereDescentWould(bits, value)
                : "the rightmost-leaf memo of the tree at meta page " + tree.metaPage + " is stale";
        putEntry(p, last + entry, bits, value, n + 1);
        rightmostAppends++;
        return true;
    }

    /** Writes the entry (bits, value) at {@code at} of leaf {@code p}, which then holds {@code count} entries. */
    private void putEntry(MemorySegment p, long at, long bits, long value, int count) {
        if (keyLength == 8) {
            p.set(BE_LONG, at, bits);
        } else {
            p.set(BE_INT, at, (int) bits);
        }
        p.set(BE_LONG, at + keyLength, value);
        setCount(p, count);
    }

    /**
     * Deletes (bits, value) in the {@link #deleted} leaf when the leaf is still valid and the entry lies between its
     * first and last entries (inclusive), and the leaf keeps at least one entry: 1 if it was there and is gone, 0 if
     * the tree does not have it. -1 when the leaf cannot tell (the memo is dropped if stale); the tree is unchanged.
     */
    private int deleteInKept(long bits, long value) throws IOException {
        MemorySegment p = deleted.segment();
        if (p == null) {
            return -1;
        }
        int n = count(p);
        if (n < 2
                || nodes.compareNumeric(p, BODY, bits, value) > 0
                || nodes.compareNumeric(p, BODY + (long) (n - 1) * entry, bits, value) < 0) {
            return -1; // a last entry goes by the descent, which removes the leaf it empties
        }
        assert PageHeader.type(p) == PageHeader.BTREE_LEAF && keptLeafHolds(bits, value)
                : "the kept leaf of the deletes of the tree at meta page " + tree.metaPage + " is stale";
        int pos = nodes.lowerBoundNumeric(p, bits, value);
        if (pos >= n || nodes.compareNumeric(p, BODY + (long) pos * entry, bits, value) != 0) {
            return 0;
        }
        nodes.removeAt(p, pos);
        tree.addSize(-1);
        keptLeafDeletes++;
        return 1;
    }

    /**
     * Assertions: the descent to (bits, value) ends in the {@link #deleted} leaf. The kept leaf is pinned first: the
     * descent may make room in the pool, and a steal of the kept leaf there would leave its caller writing through
     * the segment of an evicted page (an OO7 kill sweep's transactions through a pool smaller than the database lost
     * index entries that way, with assertions on only).
     */
    private boolean keptLeafHolds(long bits, long value) {
        try {
            pool.fix(deleted.page()); // resident (the memo is valid): a pin for the operation, no load
            return leafNumeric(bits, value) == deleted.page();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@link BPlusTree#keptLeafDeletes}. */
    long keptLeafDeletes() {
        return keptLeafDeletes;
    }

    /** {@link BPlusTree#rightmostAppends}. */
    long rightmostAppends() {
        return rightmostAppends;
    }

    /**
     * Assertions: the descent to (bits, value) ends in the {@link #rightmost} leaf, past its last entry. The kept leaf
     * is pinned first, as for {@link #keptLeafHolds}: the descent must not steal it from under its caller.
     */
    private boolean appendsWhereDescentWould(long bits, long value) {
        try {
            pool.fix(rightmost.page()); // resident (the memo is valid): a pin for the operation, no load
            long[] path = pathNumeric(bits, value);
            MemorySegment p = pool.fix(path[path.length - 1]);
            return path[path.length - 1] == rightmost.page() && nodes.lowerBoundNumeric(p, bits, value) == count(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Whether an entry with key {@code bits} lies next to position {@code pos} of leaf {@code p}, where an entry
     * (bits, value) not in the tree would be inserted: the unique check of {@link #insertNumeric} on the insert's own
     * descent (before issue #20 it descended a second time from the root). Entries of one key are adjacent and
     * ordered by value, so another value of the key is the entry at {@code pos} or the one before it; at either end
     * of the leaf that neighbour is the first entry of the next non-empty leaf or the last of the previous one
     * (leaves may be empty: deletion does not rebalance).
     */
    private boolean keyAround(MemorySegment p, int pos, long bits) throws IOException {
        int n = count(p);
        if (pos < n) {
            if (nodes.bitsAt(p, BODY + (long) pos * entry) == bits) {
                return true;
            }
        } else {
            for (long next = PageHeader.aux(p); next != 0; ) {
                MemorySegment q = pool.fix(next);
                if (count(q) > 0) {
                    if (nodes.bitsAt(q, BODY) == bits) {
                        return true;
                    }
                    break;
                }
                next = PageHeader.aux(q);
            }
        }
        if (pos > 0) {
            return nodes.bitsAt(p, BODY + (long) (pos - 1) * entry) == bits;
        }
        for (long prev = p.get(PageHeader.LONG, LINK); prev != 0; ) {
            MemorySegment q = pool.fix(prev);
            int c = count(q);
            if (c > 0) {
                return nodes.bitsAt(q, BODY + (long) (c - 1) * entry) == bits;
            }
            prev = q.get(PageHeader.LONG, LINK);
        }
        return false;
    }

    private Object boxed(long key) {
        return keyType == KeyType.INT ? (Object) (int) key : (Object) key;
    }

    /** {@link BPlusTree#deleteNumeric}. */
    boolean deleteNumeric(long key, long value) throws IOException {
        checkNumeric();
        if (!representable(key)) {
            return false;
        }
        long bits = keyBits(key);
        int kept = deleteInKept(bits, value);
        if (kept >= 0) {
            return kept == 1;
        }
        long leaf = leafNumeric(bits, value);
        MemorySegment p = pool.fix(leaf);
        int pos = nodes.lowerBoundNumeric(p, bits, value, leafLow, leafHigh, leafKnown);
        if (pos >= count(p) || nodes.compareNumeric(p, BODY + (long) pos * entry, bits, value) != 0) {
            return false;
        }
        p = pool.fixForStoreWrite(leaf);
        nodes.removeAt(p, pos);
        tree.addSize(-1);
        if (count(p) > 0) {
            deleted.keep(leaf, p);
        }
        if (count(p) == 0 && tree.rootHeight > 1) {
            if (removals.scansOpen()) {
                removals.defer(leaf, tree.composite(tree.encodeKey(boxed(key)), value));
            } else {
                long[] path = pathNumeric(bits, value); // (bits, value) still routes to the leaf that held it
                assert path[path.length - 1] == leaf : "descent to " + path[path.length - 1] + ", deleted from " + leaf;
                removals.removeEmptyLeaf(path);
            }
        }
        return true;
    }
}
