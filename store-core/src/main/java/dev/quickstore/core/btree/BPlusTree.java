package dev.quickstore.core.btree;

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
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A B+tree from fixed-length keys to 8-byte values (object references), on pages of the volume. Every
 * change is made through the buffer pool, so it is logged by page diffing and recovered with the same
 * WAL as object data (physical redo and undo are correct because transactions of a store are serial).
 * Nodes are written through {@link BufferPool#fixForStoreWrite}: the application never stores to a node through
 * the view, so the mapped store captures the pre-image without opening the view (no {@code mprotect} per node
 * and transaction; results.md, "Structural modifications: SM1/SM2").
 *
 * <p>Entries are {@code key bytes (K) ++ value (8, big-endian)} compared as unsigned byte strings, so
 * duplicate keys are ordered by value and every entry is unique; a unique index additionally refuses a
 * second value for a key. Deletion removes the entry without rebalancing (leaves may become empty; they
 * stay linked), which keeps separator invariants intact.
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
 * as an unsigned big-endian number, {@link #keyBits}) and compare them with the entries in place, two loads per
 * probe: no key object, no encoded byte array, no heap segment, no stream. They are the same tree and the
 * same entries as the {@code Object}-keyed methods (the encoding is the one of {@link KeyType}); the issue
 * 13 profile of OO7 Q8 found the boxed path 94 % of the query (docs/results.md, "Hot path, second landing").
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
    private final ExtentAllocator extents;
    final long metaPage;
    public final KeyType keyType;
    public final boolean unique;
    final int keyLength;
    private final int entry;
    private final int leafCapacity;
    private final int innerCapacity;

    public BPlusTree(
            BufferPool pool, ExtentAllocator extents, long metaPage, KeyType keyType, boolean unique, int keyLength) {
        this.pool = pool;
        this.extents = extents;
        this.metaPage = metaPage;
        this.keyType = keyType;
        this.unique = unique;
        this.keyLength = keyLength;
        this.entry = keyLength + 8;
        int ps = pool.pageSize();
        this.leafCapacity = (ps - BODY) / entry;
        this.innerCapacity = (ps - BODY) / (entry + 8);
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
        MemorySegment m = pool.fixForStoreWrite(meta);
        PageHeader.format(m, meta, PageHeader.BTREE_META);
        m.set(ValueLayout.JAVA_BYTE, META_KEY_TYPE, (byte) type.ordinal());
        m.set(ValueLayout.JAVA_BYTE, META_UNIQUE, (byte) (unique ? 1 : 0));
        m.set(PageHeader.SHORT, META_KEY_LENGTH, (short) k);
        m.set(PageHeader.LONG, META_ROOT, root);
        m.set(PageHeader.INT, META_HEIGHT, 1);
        PageHeader.format(pool.fixForStoreWrite(root), root, PageHeader.BTREE_LEAF);
        return new BPlusTree(pool, extents, meta, type, unique, k);
    }

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
        if (t < 0 || t >= KeyType.values().length) {
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
                KeyType.values()[t],
                m.get(ValueLayout.JAVA_BYTE, META_UNIQUE) != 0,
                Short.toUnsignedInt(m.get(PageHeader.SHORT, META_KEY_LENGTH)));
    }

    private long root() throws IOException {
        return pool.fix(metaPage).get(PageHeader.LONG, META_ROOT);
    }

    private int height() throws IOException {
        return pool.fix(metaPage).get(PageHeader.INT, META_HEIGHT);
    }

    public long size() throws IOException {
        return pool.fix(metaPage).get(PageHeader.LONG, META_ENTRIES);
    }

    private void addSize(long d) throws IOException {
        MemorySegment m = pool.fixForStoreWrite(metaPage);
        m.set(PageHeader.LONG, META_ENTRIES, m.get(PageHeader.LONG, META_ENTRIES) + d);
    }

    byte[] encodeKey(Object key) {
        return keyType.encode(key, keyLength);
    }

    private byte[] composite(byte[] key, long value) {
        return ByteBuffer.allocate(entry).put(key).putLong(value).array();
    }

    private static int count(MemorySegment p) {
        return Short.toUnsignedInt(p.get(PageHeader.SHORT, COUNT));
    }

    private static void setCount(MemorySegment p, int n) {
        p.set(PageHeader.SHORT, COUNT, (short) n);
    }

    private int cmpLeaf(MemorySegment p, int i, byte[] e) {
        return compare(p, BODY + (long) i * entry, MemorySegment.ofArray(e));
    }

    /** Compares the entry at {@code off} with {@code e} (a heap segment wrapped once per search, not per probe). */
    private int compare(MemorySegment p, long off, MemorySegment e) {
        long m = MemorySegment.mismatch(p, off, off + entry, e, 0, entry);
        if (m < 0) {
            return 0;
        }
        return Integer.compare(
                Byte.toUnsignedInt(p.get(ValueLayout.JAVA_BYTE, off + m)),
                Byte.toUnsignedInt(e.get(ValueLayout.JAVA_BYTE, m)));
    }

    private long child(MemorySegment p, int i) {
        return i == 0
                ? p.get(PageHeader.LONG, LINK)
                : p.get(PageHeader.LONG, BODY + (long) (i - 1) * (entry + 8) + entry);
    }

    /** Index of the child to follow for entry e: number of separators &lt;= e. */
    private int route(MemorySegment p, byte[] e) {
        MemorySegment es = MemorySegment.ofArray(e);
        int lo = 0;
        int hi = count(p);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(p, BODY + (long) mid * (entry + 8), es) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First position in a leaf whose entry is &gt;= e. */
    private int lowerBound(MemorySegment p, byte[] e) {
        MemorySegment es = MemorySegment.ofArray(e);
        int lo = 0;
        int hi = count(p);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(p, BODY + (long) mid * entry, es) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private long[] pathTo(byte[] e) throws IOException {
        MemorySegment m = pool.fix(metaPage);
        long page = m.get(PageHeader.LONG, META_ROOT);
        int h = m.get(PageHeader.INT, META_HEIGHT);
        long[] path = new long[h];
        for (int level = 0; level < h; level++) {
            path[level] = page;
            if (level < h - 1) {
                MemorySegment p = pool.fix(page);
                page = child(p, route(p, e));
            }
        }
        return path;
    }

    /** Inserts (key, value); returns false if that exact entry was present. */
    public boolean insert(Object key, long value) throws IOException {
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
        int pos = lowerBound(p, e);
        if (pos < count(p) && cmpLeaf(p, pos, e) == 0) {
            return false;
        }
        p = pool.fixForStoreWrite(leaf);
        int n = count(p);
        if (n < leafCapacity) {
            insertAt(p, BODY, entry, pos, n, e);
            setCount(p, n + 1);
        } else {
            splitLeafAndInsert(path, leaf, p, pos, e);
        }
        addSize(1);
        return true;
    }

    private static void insertAt(MemorySegment p, int body, int width, int pos, int n, byte[] bytes) {
        long at = body + (long) pos * width;
        MemorySegment.copy(p, at, p, at + width, (long) (n - pos) * width);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, p, at, bytes.length);
    }

    private void splitLeafAndInsert(long[] path, long leaf, MemorySegment p, int pos, byte[] e) throws IOException {
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
        MemorySegment q = pool.fixForStoreWrite(newLeaf);
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
        int w = entry + 8;
        byte[] item = ByteBuffer.allocate(w)
                .put(sep)
                .putLong(Long.reverseBytes(right))
                .array(); // child stored little-endian
        if (level < 0) {
            long oldRoot = path[0];
            long newRoot = extents.allocate(1, oldRoot);
            MemorySegment r = pool.fixForStoreWrite(newRoot);
            PageHeader.format(r, newRoot, PageHeader.BTREE_INNER);
            r.set(PageHeader.LONG, LINK, oldRoot);
            MemorySegment.copy(MemorySegment.ofArray(item), 0, r, BODY, w);
            setCount(r, 1);
            MemorySegment m = pool.fixForStoreWrite(metaPage);
            m.set(PageHeader.LONG, META_ROOT, newRoot);
            m.set(PageHeader.INT, META_HEIGHT, m.get(PageHeader.INT, META_HEIGHT) + 1);
            return;
        }
        long node = path[level];
        MemorySegment p = pool.fixForStoreWrite(node);
        int n = count(p);
        int pos = route(p, sep);
        if (n < innerCapacity) {
            insertAt(p, BODY, w, pos, n, item);
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
        MemorySegment q = pool.fixForStoreWrite(newNode);
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

    /** Removes (key, value); returns whether it was present. */
    public boolean delete(Object key, long value) throws IOException {
        byte[] e = composite(encodeKey(key), value);
        long[] path = pathTo(e);
        long leaf = path[path.length - 1];
        MemorySegment p = pool.fix(leaf);
        int pos = lowerBound(p, e);
        if (pos >= count(p) || cmpLeaf(p, pos, e) != 0) {
            return false;
        }
        removeAt(pool.fixForStoreWrite(leaf), pos);
        addSize(-1);
        return true;
    }

    public long[] lookup(Object key) throws IOException {
        return lookup(encodeKey(key), Integer.MAX_VALUE);
    }

    /**
     * Up to {@code max} values stored under the encoded key {@code k}, read in place: the key bytes of each entry
     * are compared on the page (no entry copy, no decoded key), the values collected in one growing array.
     */
    private long[] lookup(byte[] k, int max) throws IOException {
        byte[] start = composite(k, 0);
        long[] path = pathTo(start);
        long leaf = path[path.length - 1];
        MemorySegment p = pool.fix(leaf);
        int pos = lowerBound(p, start);
        MemorySegment ks = MemorySegment.ofArray(k);
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
            out[n++] = p.get(BE_LONG, off + keyLength);
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
        byte[] start = composite(lo, 0);
        long[] path = pathTo(start);
        long leaf = path[path.length - 1];
        MemorySegment p = pool.fix(leaf);
        int pos = lowerBound(p, start);
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

    // ------------------------------------------------------------------ numeric keys (INT, LONG)

    /** An entry's key as stored: big-endian, so that unsigned comparison is the key order. */
    private static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Whether this tree's keys are INT or LONG (the numeric methods below apply). */
    public boolean numeric() {
        return keyType != KeyType.STRING;
    }

    private void checkNumeric() {
        if (!numeric()) {
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

    private long bitsAt(MemorySegment p, long off) {
        return keyLength == 8 ? p.get(BE_LONG, off) : Integer.toUnsignedLong(p.get(BE_INT, off));
    }

    /** Compares the entry at {@code off} with (key bits, value), as {@link #compare} does with the encoded entry. */
    private int compareNumeric(MemorySegment p, long off, long bits, long value) {
        int c = Long.compareUnsigned(bitsAt(p, off), bits);
        return c != 0 ? c : Long.compareUnsigned(p.get(BE_LONG, off + keyLength), value);
    }

    private int routeNumeric(MemorySegment p, long bits, long value) {
        int lo = 0;
        int hi = count(p);
        long w = entry + 8;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareNumeric(p, BODY + mid * w, bits, value) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private int lowerBoundNumeric(MemorySegment p, long bits, long value) {
        int lo = 0;
        int hi = count(p);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareNumeric(p, BODY + (long) mid * entry, bits, value) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The leaf that holds (bits, value) or would: one fix of the meta page and one per level. */
    private long leafNumeric(long bits, long value) throws IOException {
        MemorySegment m = pool.fix(metaPage);
        long page = m.get(PageHeader.LONG, META_ROOT);
        int h = m.get(PageHeader.INT, META_HEIGHT);
        for (int level = 1; level < h; level++) {
            MemorySegment p = pool.fix(page);
            page = child(p, routeNumeric(p, bits, value));
        }
        return page;
    }

    /** As {@link #leafNumeric}, remembering the pages from the root down (for splits). */
    private long[] pathNumeric(long bits, long value) throws IOException {
        MemorySegment m = pool.fix(metaPage);
        long page = m.get(PageHeader.LONG, META_ROOT);
        int h = m.get(PageHeader.INT, META_HEIGHT);
        long[] path = new long[h];
        for (int level = 0; level < h; level++) {
            path[level] = page;
            if (level < h - 1) {
                MemorySegment p = pool.fix(page);
                page = child(p, routeNumeric(p, bits, value));
            }
        }
        return path;
    }

    /**
     * The smallest value stored under numeric {@code key}, or {@code absent} if there is none: one descent, no
     * allocation.
     *
     * @throws IllegalArgumentException for a STRING tree
     */
    public long lookupFirst(long key, long absent) throws IOException {
        checkNumeric();
        if (!representable(key)) {
            return absent;
        }
        return first(keyBits(key), absent, false);
    }

    /**
     * The first entry with key {@code bits}: its value, or with {@code presence} 1, and {@code absent} if there
     * is none. Leaves may be empty (deletion does not rebalance), so the entry may start a later leaf.
     */
    private long first(long bits, long absent, boolean presence) throws IOException {
        MemorySegment p = pool.fix(leafNumeric(bits, 0));
        int pos = lowerBoundNumeric(p, bits, 0);
        while (pos >= count(p)) {
            long next = PageHeader.aux(p);
            if (next == 0) {
                return absent;
            }
            p = pool.fix(next);
            pos = 0;
        }
        long off = BODY + (long) pos * entry;
        if (bitsAt(p, off) != bits) {
            return absent;
        }
        return presence ? 1 : p.get(BE_LONG, off + keyLength);
    }

    /**
     * Visits the entries with {@code lo <= key <= hi} in order, reading each from the leaf in place (a bound
     * outside the key type's range is clamped to it). Each leaf is fixed once; the visitor may change the
     * tree (the count is read again after each call), as with {@link #scan}.
     *
     * @throws IllegalArgumentException for a STRING tree
     */
    public void scanNumeric(long lo, long hi, NumericEntryVisitor visitor) throws IOException {
        checkNumeric();
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
        int pos = lowerBoundNumeric(p, loBits, 0);
        while (true) {
            while (pos < count(p)) {
                long off = BODY + (long) pos * entry;
                long bits = bitsAt(p, off);
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

    /**
     * {@link #insert(Object, long)} for a numeric key: returns false if that exact entry was present.
     *
     * @throws DuplicateKeyException for a unique tree whose key maps to another value
     * @throws IllegalArgumentException for a STRING tree, or an INT tree and a key outside the int range
     */
    public boolean insertNumeric(long key, long value) throws IOException {
        checkNumeric();
        if (!representable(key)) {
            throw new IllegalArgumentException("INT index key " + key + " is outside the int range");
        }
        long bits = keyBits(key);
        long[] path = pathNumeric(bits, value);
        long leaf = path[path.length - 1];
        MemorySegment p = pool.fix(leaf);
        int pos = lowerBoundNumeric(p, bits, value);
        if (pos < count(p) && compareNumeric(p, BODY + (long) pos * entry, bits, value) == 0) {
            return false;
        }
        if (unique && keyAround(p, pos, bits)) {
            throw new DuplicateKeyException(
                    "unique index already maps key " + key + " to " + String.format("0x%x", first(bits, 0, false)));
        }
        p = pool.fixForStoreWrite(leaf);
        int n = count(p);
        if (n < leafCapacity) {
            long at = BODY + (long) pos * entry;
            MemorySegment.copy(p, at, p, at + entry, (long) (n - pos) * entry);
            if (keyLength == 8) {
                p.set(BE_LONG, at, bits);
            } else {
                p.set(BE_INT, at, (int) bits);
            }
            p.set(BE_LONG, at + keyLength, value);
            setCount(p, n + 1);
        } else {
            splitLeafAndInsert(path, leaf, p, pos, composite(encodeKey(boxed(key)), value));
        }
        addSize(1);
        return true;
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
            if (bitsAt(p, BODY + (long) pos * entry) == bits) {
                return true;
            }
        } else {
            for (long next = PageHeader.aux(p); next != 0; ) {
                MemorySegment q = pool.fix(next);
                if (count(q) > 0) {
                    if (bitsAt(q, BODY) == bits) {
                        return true;
                    }
                    break;
                }
                next = PageHeader.aux(q);
            }
        }
        if (pos > 0) {
            return bitsAt(p, BODY + (long) (pos - 1) * entry) == bits;
        }
        for (long prev = p.get(PageHeader.LONG, LINK); prev != 0; ) {
            MemorySegment q = pool.fix(prev);
            int c = count(q);
            if (c > 0) {
                return bitsAt(q, BODY + (long) (c - 1) * entry) == bits;
            }
            prev = q.get(PageHeader.LONG, LINK);
        }
        return false;
    }

    private Object boxed(long key) {
        return keyType == KeyType.INT ? (Object) (int) key : (Object) key;
    }

    /**
     * {@link #delete(Object, long)} for a numeric key: removes (key, value), returns whether it was present.
     *
     * @throws IllegalArgumentException for a STRING tree
     */
    public boolean deleteNumeric(long key, long value) throws IOException {
        checkNumeric();
        if (!representable(key)) {
            return false;
        }
        long bits = keyBits(key);
        long leaf = leafNumeric(bits, value);
        MemorySegment p = pool.fix(leaf);
        int pos = lowerBoundNumeric(p, bits, value);
        if (pos >= count(p) || compareNumeric(p, BODY + (long) pos * entry, bits, value) != 0) {
            return false;
        }
        p = pool.fixForStoreWrite(leaf);
        removeAt(p, pos);
        addSize(-1);
        return true;
    }

    private void removeAt(MemorySegment p, int pos) {
        int n = count(p);
        long at = BODY + (long) pos * entry;
        MemorySegment.copy(p, at + entry, p, at, (long) (n - pos - 1) * entry);
        p.asSlice(BODY + (long) (n - 1) * entry, entry).fill((byte) 0);
        setCount(p, n - 1);
    }

    /** Verifies order, separator bounds, equal leaf depth, leaf links and the entry count. */
    public void check(VerifyReport report, java.util.Set<Long> treePages) throws IOException {
        treePages.add(metaPage);
        List<Long> leaves = new ArrayList<>();
        long[] entries = {0};
        int h = height();
        checkNode(root(), 1, h, null, null, report, leaves, entries, treePages);
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
        if (entries[0] != size()) {
            report.problem(metaPage, "entry count " + size() + " but " + entries[0] + " entries in the leaves");
        }
        report.indexEntries(entries[0]);
    }

    private void checkNode(
            long page,
            int level,
            int height,
            byte[] lo,
            byte[] hi,
            VerifyReport report,
            List<Long> leaves,
            long[] entries,
            java.util.Set<Long> treePages)
            throws IOException {
        if (!treePages.add(page)) {
            report.problem(page, "B+tree page reachable twice (tree of meta page " + metaPage + ")");
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
        int n = count(p);
        int w = leaf ? entry : entry + 8;
        if (n > (leaf ? leafCapacity : innerCapacity)) {
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
            entries[0] += n;
            leaves.add(page);
            pool.unpin(page);
            return;
        }
        long[] children = new long[n + 1];
        byte[][] seps = new byte[n][];
        for (int i = 0; i <= n; i++) {
            children[i] = child(p, i);
        }
        for (int i = 0; i < n; i++) {
            seps[i] = new byte[entry];
            MemorySegment.copy(p, ValueLayout.JAVA_BYTE, BODY + (long) i * w, seps[i], 0, entry);
        }
        pool.unpin(page);
        for (int i = 0; i <= n; i++) {
            checkNode(
                    children[i],
                    level + 1,
                    height,
                    i == 0 ? lo : seps[i - 1],
                    i == n ? hi : seps[i],
                    report,
                    leaves,
                    entries,
                    treePages);
        }
    }
}
