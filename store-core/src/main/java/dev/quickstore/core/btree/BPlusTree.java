package dev.quickstore.core.btree;

import static dev.quickstore.core.btree.Nodes.count;
import static dev.quickstore.core.btree.Nodes.setCount;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.index.EntryVisitor;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.index.NumericEntryVisitor;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.space.ExtentAllocator;
import dev.quickstore.core.verify.VerifyReport;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A B+tree from fixed-length keys to 8-byte values (object references), on pages of the volume. Every
 * change is made through the buffer pool, so it is logged by page diffing and recovered with the same
 * WAL as object data (physical redo and undo are correct because transactions of a store are serial).
 * Nodes are written through {@link BufferPool#fixForStoreWrite}: the application never stores to a node through
 * the view, so the mapped store captures the pre-image without opening the view (no {@code mprotect} per node
 * and transaction; results.md, "Structural modifications: SM1/SM2"). A node just allocated (a split's new node, a
 * new root, a new tree's meta page and root) is fixed by {@link BufferPool#fixNew}: not read, made new against zeros
 * without a pre-image, logged as a NEW_PAGE (docs/results.md, "B+tree nodes made new").
 *
 * <p>Entries are {@code key bytes (K) ++ value (8, big-endian)} compared as unsigned byte strings, so
 * duplicate keys are ordered by value and every entry is unique; a unique index additionally refuses a
 * second value for a key. Deletion removes the entry; a leaf it leaves empty is removed from the tree and its page
 * freed ({@link NodeRemovals}); while an index scan runs it stays, empty and linked, until the tree's next insert or
 * delete after the scan. Nodes are not merged when less than full.
 *
 * <pre>
 * meta page (type {@link PageHeader#BTREE_META}):
 *   32 1 keyType (0 INT, 1 LONG, 2 STRING)   33 1 unique (0/1)   34 2 key length K   36 4 reserved
 *   40 8 root page   48 4 height (1 = root is a leaf)   52 4 reserved   56 8 entry count
 * leaf page (type {@link PageHeader#BTREE_LEAF}), header aux = next leaf (0 = last):
 *   32 2 count   34 6 reserved   40 8 previous leaf (0 = first)   48 entries: count * (K + 8) bytes, ascending
 * inner page (type {@link PageHeader#BTREE_INNER}):
 *   32 2 count   34 6 reserved   40 8 child 0   48 count * (entry (K + 8), child (8)):
 *   child i+1 holds entries &gt;= separator i, child i entries &lt; separator i
 * </pre>
 *
 * <p><b>Numeric keys without allocation.</b> For INT and LONG keys, {@link #lookupFirst}, {@link #scanNumeric},
 * {@link #insertNumeric} and {@link #deleteNumeric} work on the key's <em>order bits</em> (the encoded key read
 * as an unsigned big-endian number, {@link NumericKeys#keyBits}) and compare them with the entries in place, two loads per
 * probe: no key object, no encoded byte array, no heap segment, no stream. They are the same tree and the
 * same entries as the {@code Object}-keyed methods (the encoding is the one of {@link KeyType}); the issue
 * 13 profile of OO7 Q8 found the boxed path 94 % of the query (docs/results.md, "Hot path, second landing").
 *
 * <p>This class is the tree's format and its {@code Object}-keyed paths; the search within a node and the
 * insertion and removal at a position are {@link Nodes}', node splits {@link NodeSplits}', the removal of emptied
 * nodes {@link NodeRemovals}', the numeric paths
 * {@link NumericKeys}' and the structural check {@link TreeCheck}'s.
 */
public final class BPlusTree {
    /** Meta page: offset of the key type (byte, {@link KeyType} ordinal). */
    public static final int META_KEY_TYPE = 32;
    /** Meta page: offset of the unique flag (byte 0/1). */
    public static final int META_UNIQUE = 33;
    /** Meta page: offset of the key length K (unsigned short). */
    public static final int META_KEY_LENGTH = 34;
    /** Meta page: offset of the root page (long). */
    public static final int META_ROOT = 40;
    /** Meta page: offset of the height (int, 1 = root is a leaf). */
    public static final int META_HEIGHT = 48;
    /** Meta page: offset of the entry count (long). */
    public static final int META_ENTRIES = 56;
    /** Offset of a node's entry count (unsigned short); the layout above, for the inspector. */
    public static final int COUNT = 32;
    /** Offset of an inner node's child 0 or a leaf's previous-leaf link (long). */
    public static final int LINK = 40;
    /** Offset of a node's first entry. */
    public static final int BODY = 48;

    private final BufferPool pool;
    final long metaPage;
    public final KeyType keyType;
    public final boolean unique;
    final int keyLength;
    private final int entry;
    private final Nodes nodes;
    private final NodeSplits splits;
    private final NodeRemovals removals;
    private final NumericKeys numericKeys;
    /** The root and height as last read from the meta page, under {@link #rootStamp} ({@link #readRoot}). */
    long rootPage;

    int rootHeight;
    private long rootStamp;
    /** The answers of {@link #lookup(Object)} under the pool's entry stamp. */
    private final KeyedLookupMemo keyedMemo = new KeyedLookupMemo();
    /** The meta page as {@link #addSize} last fixed it for write, while the pool's stamps hold. */
    private final KeptLeaf keptMeta;

    public BPlusTree(
            BufferPool pool, ExtentAllocator extents, long metaPage, KeyType keyType, boolean unique, int keyLength) {
        this.pool = pool;
        this.metaPage = metaPage;
        this.keyType = keyType;
        this.unique = unique;
        this.keyLength = keyLength;
        this.entry = keyLength + 8;
        this.nodes = new Nodes(pool.pageSize(), keyLength);
        this.splits = new NodeSplits(pool, extents, metaPage, nodes);
        this.removals = new NodeRemovals(pool, extents, metaPage, nodes);
        this.numericKeys = new NumericKeys(this, pool, nodes, splits, removals);
        this.keptMeta = new KeptLeaf(pool.stamps());
    }

    static int maxKeyLength(int pageSize) {
        return (pageSize - BODY) / 4 - 16;
    }

    static BPlusTree create(
            BufferPool pool, ExtentAllocator extents, KeyType type, int keyLength, boolean unique, long near)
            throws IOException {
        int k = type.encodedLength(keyLength);
        if (k < 1 || k > maxKeyLength(pool.pageSize())) {
            throw new IllegalArgumentException("key length " + k + " not in 1.." + maxKeyLength(pool.pageSize()));
        }
        long meta = extents.allocate(2, near);
        long root = meta + 1;
        MemorySegment m = pool.fixNew(meta); // both just allocated: not read, no pre-image, logged as NEW_PAGEs
        PageHeader.format(m, meta, PageHeader.BTREE_META);
        m.set(ValueLayout.JAVA_BYTE, META_KEY_TYPE, (byte) type.ordinal());
        m.set(ValueLayout.JAVA_BYTE, META_UNIQUE, (byte) (unique ? 1 : 0));
        m.set(PageHeader.SHORT, META_KEY_LENGTH, (short) k);
        m.set(PageHeader.LONG, META_ROOT, root);
        m.set(PageHeader.INT, META_HEIGHT, 1);
        PageHeader.format(pool.fixNew(root), root, PageHeader.BTREE_LEAF);
        return new BPlusTree(pool, extents, meta, type, unique, k);
    }

    /** The key types by their code in the meta page (one array, not a copy per {@link #open}). */
    private static final KeyType[] KEY_TYPES = KeyType.values();

    public static BPlusTree open(BufferPool pool, ExtentAllocator extents, long meta) throws IOException {
        MemorySegment m = pool.fix(meta);
        if (PageHeader.type(m) != PageHeader.BTREE_META) {
            throw new StoreFormatException(
                    pool.volume().name(),
                    meta,
                    meta * pool.pageSize() + PageHeader.TYPE,
                    "page type",
                    "B+tree meta page",
                    PageHeader.typeName(PageHeader.type(m)));
        }
        int t = m.get(ValueLayout.JAVA_BYTE, META_KEY_TYPE);
        if (t < 0 || t >= KEY_TYPES.length) {
            throw new StoreFormatException(
                    pool.volume().name(),
                    meta,
                    meta * pool.pageSize() + META_KEY_TYPE,
                    "B+tree key type",
                    "0..2",
                    String.valueOf(t));
        }
        return new BPlusTree(
                pool,
                extents,
                meta,
                KEY_TYPES[t],
                m.get(ValueLayout.JAVA_BYTE, META_UNIQUE) != 0,
                Short.toUnsignedInt(m.get(PageHeader.SHORT, META_KEY_LENGTH)));
    }

    long root() throws IOException {
        return pool.fix(metaPage).get(PageHeader.LONG, META_ROOT);
    }

    int height() throws IOException {
        return pool.fix(metaPage).get(PageHeader.INT, META_HEIGHT);
    }

    public long size() throws IOException {
        return pool.fix(metaPage).get(PageHeader.LONG, META_ENTRIES);
    }

    /**
     * Adds {@code d} to the entry count in the meta page. The segment the first call of a transaction fixed for write
     * is kept ({@link KeptLeaf}) and written again while the pool's write stamp holds (this transaction, the page
     * neither stolen nor evicted): no fix and no pin per insert and delete, as the rightmost leaf's appends (the fix
     * was 1.7 % of the OO7 small build, docs/results.md "The entry count through a kept segment"). Before, the pool
     * handed the page out from its kept segments ({@code KeptWriteSegments}: a lookup and a pin per call).
     */
    void addSize(long d) throws IOException {
        MemorySegment m = keptMeta.segment();
        if (m == null) {
            m = pool.fixForStoreWrite(metaPage);
            keptMeta.keep(metaPage, m);
        }
        assert keptMeta.page() == metaPage;
        m.set(PageHeader.LONG, META_ENTRIES, m.get(PageHeader.LONG, META_ENTRIES) + d);
    }

    byte[] encodeKey(Object key) {
        return keyType.encode(key, keyLength);
    }

    byte[] composite(byte[] key, long value) {
        return ByteBuffer.allocate(entry).put(key).putLong(value).array();
    }

    /**
     * Sets {@link #rootPage} and {@link #rootHeight} from the meta page, or keeps them if they were read under the
     * pool's current {@link dev.quickstore.core.buffer.PoolStamps#rootStamp} (no root moved and no transaction ended
     * since): one fix fewer per descent. Invariant: with a valid stamp the two fields equal the meta page's root and
     * height.
     */
    void readRoot() throws IOException {
        long stamp = pool.stamps().rootStamp();
        if (stamp == rootStamp && stamp != -1) {
            assert rootPage == root() && rootHeight == height() : "stale root of the tree at meta page " + metaPage;
            return;
        }
        MemorySegment m = pool.fix(metaPage);
        rootPage = m.get(PageHeader.LONG, META_ROOT);
        rootHeight = m.get(PageHeader.INT, META_HEIGHT);
        rootStamp = stamp;
    }

    /** The leaf {@link #pathTo} ends at, without the path. */
    private long leafFor(MemorySegment e) throws IOException {
        readRoot();
        long page = rootPage;
        int h = rootHeight;
        for (int level = 0; level < h - 1; level++) {
            MemorySegment p = pool.fix(page);
            page = nodes.child(p, nodes.route(p, e));
        }
        return page;
    }

    /** The pages from the root down to the leaf that holds the encoded entry {@code bytes}, or would. */
    long[] pathTo(byte[] bytes) throws IOException {
        MemorySegment e = MemorySegment.ofArray(bytes); // wrapped once for every level
        readRoot();
        long page = rootPage;
        int h = rootHeight;
        long[] path = new long[h];
        for (int level = 0; level < h; level++) {
            path[level] = page;
            if (level < h - 1) {
                MemorySegment p = pool.fix(page);
                page = nodes.child(p, nodes.route(p, e));
            }
        }
        return path;
    }

    /**
     * Inserts (key, value); returns false if that exact entry was present. Like every change of entries, it first
     * steps the pool's {@link dev.quickstore.core.buffer.PoolStamps#entryStamp}: the lookup memos of every tree are
     * stale from here (nothing looks up through a memo while the change runs: the store's latch is held).
     */
    public boolean insert(Object key, long value) throws IOException {
        pool.stamps().entriesChanged();
        removals.removeDeferred(this);
        byte[] k = encodeKey(key);
        if (unique) {
            long[] existing = lookup(k, 1);
            if (existing.length > 0) {
                if (existing[0] == value) {
                    return false;
                }
                throw new DuplicateKeyException(
                        "unique index already maps key " + key + " to " + String.format("0x%x", existing[0]));
            }
        }
        byte[] e = composite(k, value);
        long[] path = pathTo(e);
        long leaf = path[path.length - 1];
        MemorySegment p = pool.fix(leaf);
        int pos = nodes.lowerBound(p, e);
        if (pos < count(p) && nodes.cmpLeaf(p, pos, e) == 0) {
            return false;
        }
        p = pool.fixForStoreWrite(leaf);
        int n = count(p);
        if (n < nodes.leafCapacity) {
            Nodes.insertAt(p, BODY, entry, pos, n, e);
            setCount(p, n + 1);
        } else {
            splits.splitLeafAndInsert(path, leaf, p, pos, e);
        }
        addSize(1);
        return true;
    }

    /** Removes (key, value); returns whether it was present. */
    public boolean delete(Object key, long value) throws IOException {
        pool.stamps().entriesChanged();
        removals.removeDeferred(this);
        byte[] e = composite(encodeKey(key), value);
        long[] path = pathTo(e);
        long leaf = path[path.length - 1];
        MemorySegment p = pool.fix(leaf);
        int pos = nodes.lowerBound(p, e);
        if (pos >= count(p) || nodes.cmpLeaf(p, pos, e) != 0) {
            return false;
        }
        p = pool.fixForStoreWrite(leaf);
        nodes.removeAt(p, pos);
        addSize(-1);
        if (count(p) == 0 && path.length > 1) {
            if (removals.scansOpen()) {
                removals.defer(leaf, e);
            } else {
                removals.removeEmptyLeaf(path);
            }
        }
        return true;
    }

    /**
     * The values stored under {@code key}, in stored order: from the tree, or from its {@link KeyedLookupMemo} when
     * the key was looked up before and no entry of any tree changed since.
     */
    public long[] lookup(Object key) throws IOException {
        long stamp = KeyedLookupMemo.remembers(key) ? pool.stamps().entryStamp() : -1;
        if (stamp != -1) {
            long[] known = keyedMemo.find(key, stamp);
            if (known != null) {
                assert Arrays.equals(known, descend(key))
                        : "stale lookup memo of the tree at meta page " + metaPage + ", key " + key;
                return known;
            }
        }
        long[] values = descend(key);
        if (stamp != -1) {
            keyedMemo.put(key, values, stamp);
        }
        return values;
    }

    /** {@link #lookup(Object)} from the tree: every value stored under {@code key}. */
    private long[] descend(Object key) throws IOException {
        return lookupFrom(keyType.encode(key, keyLength, entry), Integer.MAX_VALUE);
    }

    /**
     * Up to {@code max} values stored under the encoded key {@code k}, read in place: the key bytes of each entry
     * are compared on the page (no entry copy, no decoded key), the values collected in one growing array.
     */
    private long[] lookup(byte[] k, int max) throws IOException {
        return lookupFrom(composite(k, 0), max);
    }

    /** {@link #lookup(byte[], int)} from {@code start}, the entry (key, value 0) where the key's entries begin. */
    private long[] lookupFrom(byte[] start, int max) throws IOException {
        MemorySegment ks = MemorySegment.ofArray(start); // wrapped once; its first keyLength bytes are the key
        long leaf = leafFor(ks);
        MemorySegment p = pool.fix(leaf);
        int pos = nodes.lowerBound(p, ks);
        long[] out = new long[1];
        int n = 0;
        while (n < max) {
            if (pos >= count(p)) {
                long next = PageHeader.aux(p);
                pool.unpin(leaf);
                if (next == 0) {
                    break;
                }
                leaf = next;
                p = pool.fix(leaf);
                pos = 0;
                continue;
            }
            long off = BODY + (long) pos * entry;
            if (MemorySegment.mismatch(p, off, off + keyLength, ks, 0, keyLength) >= 0) {
                break;
            }
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            out[n++] = p.get(Nodes.BE_LONG, off + keyLength);
            pos++;
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    interface RawVisitor {
        boolean visit(byte[] key, long value) throws IOException;
    }

    /** Visits entries with lo &lt;= key &lt;= hi (either bound null = open) in order. */
    public void scan(Object lo, Object hi, EntryVisitor visitor) throws IOException {
        byte[] l = lo == null ? new byte[keyLength] : encodeKey(lo);
        byte[] h = hi == null ? null : encodeKey(hi);
        scanEncoded(l, h, (k, v) -> visitor.visit(keyType.decode(k, 0, keyLength), v));
    }

    private void scanEncoded(byte[] lo, byte[] hi, RawVisitor v) throws IOException {
        pool.stamps().scanOpened(); // no leaf is freed under the scan (NodeRemovals)
        try {
            scanLeaves(lo, hi, v);
        } finally {
            pool.stamps().scanClosed();
        }
    }

    private void scanLeaves(byte[] lo, byte[] hi, RawVisitor v) throws IOException {
        byte[] start = composite(lo, 0);
        long[] path = pathTo(start);
        long leaf = path[path.length - 1];
        MemorySegment p = pool.fix(leaf);
        int pos = nodes.lowerBound(p, start);
        byte[] e = new byte[entry];
        while (true) {
            while (pos < count(p)) {
                MemorySegment.copy(p, ValueLayout.JAVA_BYTE, BODY + (long) pos * entry, e, 0, entry);
                if (hi != null && Arrays.compareUnsigned(e, 0, keyLength, hi, 0, keyLength) > 0) {
                    return;
                }
                long value = ByteBuffer.wrap(e, keyLength, 8).getLong();
                if (!v.visit(Arrays.copyOf(e, keyLength), value)) {
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

    /** Whether this tree's keys are INT or LONG (the numeric methods below apply). */
    public boolean numeric() {
        return keyType != KeyType.STRING;
    }

    /**
     * The smallest value stored under numeric {@code key}, or {@code absent} if there is none: one descent, no
     * allocation; or none, when the key was looked up before and no entry of any tree changed since (the tree's
     * {@link LookupMemo}).
     *
     * @throws IllegalArgumentException for a STRING tree
     */
    public long lookupFirst(long key, long absent) throws IOException {
        return numericKeys.lookupFirst(key, absent);
    }

    /**
     * Whether a numeric point lookup of {@code key} is answered from this tree's memory of earlier lookups (no entry
     * of any tree has changed since): then {@link #rememberedFirst} is {@link #lookupFirst}'s answer, read without a
     * page, a pin or a descent. False if the memo does not hold the key (or cannot be used: a fix observer), in which
     * case {@link #lookupFirst} descends. Under the store's latch, like every call on the tree.
     *
     * @throws IllegalArgumentException for a STRING tree
     */
    public boolean remembered(long key) {
        return numericKeys.remembered(key);
    }

    /** Lookups {@link #remembered} answered from memory since this tree was opened. For tests and statistics. */
    public long rememberedAnswers() {
        return numericKeys.rememberedAnswers();
    }

    /** After {@link #remembered} returned true: {@link #lookupFirst}{@code (key, absent)}'s answer. */
    public long rememberedFirst(long absent) {
        return numericKeys.rememberedAbsent() ? absent : numericKeys.rememberedValue();
    }

    /**
     * Visits the entries with {@code lo <= key <= hi} in order, reading each from the leaf in place (a bound
     * outside the key type's range is clamped to it). Each leaf is fixed once; the visitor may change the
     * tree (the count is read again after each call), as with {@link #scan}.
     *
     * @throws IllegalArgumentException for a STRING tree
     */
    public void scanNumeric(long lo, long hi, NumericEntryVisitor visitor) throws IOException {
        numericKeys.scanNumeric(lo, hi, visitor);
    }

    /**
     * {@link #insert(Object, long)} for a numeric key: returns false if that exact entry was present.
     *
     * @throws DuplicateKeyException for a unique tree whose key maps to another value
     * @throws IllegalArgumentException for a STRING tree, or an INT tree and a key outside the int range
     */
    public boolean insertNumeric(long key, long value) throws IOException {
        pool.stamps().entriesChanged();
        removals.removeDeferred(this);
        return numericKeys.insertNumeric(key, value);
    }

    /**
     * Numeric inserts since this tree was opened that went straight to the end of its rightmost leaf, without a
     * descent (a key above every key in the tree; {@code NumericKeys}' rightmost-leaf memo). For tests and statistics.
     */
    public long rightmostAppends() {
        return numericKeys.rightmostAppends();
    }

    /**
     * Numeric deletes since this tree was opened that the leaf of the delete before answered, without a descent (an
     * entry between that leaf's first and last; {@code NumericKeys}' kept leaf of deletes). For tests and statistics.
     */
    public long keptLeafDeletes() {
        return numericKeys.keptLeafDeletes();
    }

    /**
     * {@link #delete(Object, long)} for a numeric key: removes (key, value), returns whether it was present.
     *
     * @throws IllegalArgumentException for a STRING tree
     */
    public boolean deleteNumeric(long key, long value) throws IOException {
        pool.stamps().entriesChanged();
        removals.removeDeferred(this);
        return numericKeys.deleteNumeric(key, value);
    }

    /** Verifies order, separator bounds, equal leaf depth, leaf links and the entry count. */
    public void check(VerifyReport report, java.util.Set<Long> treePages) throws IOException {
        new TreeCheck(this, pool, nodes, report, treePages).run();
    }
}
