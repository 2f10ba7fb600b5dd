package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.quickstore.core.software.Oid;
import java.lang.foreign.MemorySegment;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A persistent list (or bag) of references in a software-persistence store: the owner's 8-byte field holds the
 * OID of one node, a small object whose entry words are in its page's pointer map, so they are OIDs on disk
 * and swizzled in place when dereferenced ({@link SoftView#resolve}), like any reference field (E / EPVM 3.0,
 * White and DeWitt 1994, section 4.5.1; in-place swizzling as in docs/software-mode.md).
 *
 * <pre>
 * software reference array, format 1 (docs/formats.md)
 * offset size
 *      0    4 tag       0x51535241 ("QSRA"), constant: a node's OID uniquifier never changes
 *      4    2 size      elements
 *      6    2 capacity  entry words (4, doubling, up to what a small object holds)
 *      8  8*c entries   element OIDs (0 past size)
 * </pre>
 *
 * A full node is replaced by one of twice the capacity (allocated near the owner, entries copied as OIDs, the
 * old node freed); a collection cannot outgrow one node ({@code (maxSmall - 8) / 8} elements: 1,006 with
 * 8 KiB pages) and says so. Entries moved by an insertion or removal are stored as OIDs (a moved swizzled
 * word would not be in its target frame's referrer list). A removal never shrinks the node.
 */
public abstract class SoftRefList<T> extends AbstractList<T> implements RandomAccess {
    /** Bytes 0..3 of every node. */
    public static final int NODE_TAG = 0x51535241;

    static final int HEADER = 8;
    private static final int MIN_CAPACITY = 4;

    protected final Session session;
    private final SoftObject owner;
    private final long field;
    private final TypeDescriptor<T> element;

    /**
     * @param field the offset in {@code owner} of the 8-byte field holding the node's OID
     */
    protected SoftRefList(Session session, SoftObject owner, long field, TypeDescriptor<T> element) {
        this.session = session;
        this.owner = owner;
        this.field = field;
        this.element = element;
    }

    /** The proxy of element {@code oid}, resident at {@code at} (the generated {@code of}). */
    protected abstract T make(Session session, long oid, long at);

    /** The node's region offset (swizzling the owner's field in place), or 0 for an empty collection. */
    private long node() {
        return SoftView.deref(owner.at() + field);
    }

    private static int sizeOf(long node) {
        return node == 0 ? 0 : Short.toUnsignedInt(SoftView.region().get(JAVA_SHORT, node + 4));
    }

    @Override
    public int size() {
        if (View.STRICT) {
            session.checkReadable();
        }
        return sizeOf(node());
    }

    @Override
    public T get(int index) {
        if (View.STRICT) {
            session.checkReadable();
        }
        long node = node();
        int n = sizeOf(node);
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
        long slot = node + HEADER + 8L * index;
        long w = SoftView.region().get(JAVA_LONG, slot);
        if (w == 0) {
            return null;
        }
        if (Oid.isOid(w)) {
            return make(session, w, SoftView.resolve(slot, w)); // may evict the node's page: not used after
        }
        return make(session, SoftView.oidAt(w), w);
    }

    private long oidOf(T value) {
        long oid = session.addressOf(value, element.type().isInstance(value), "collection element");
        if (oid == 0) {
            throw new NullPointerException("a persistent collection holds no null");
        }
        return oid;
    }

    private static long entryOid(long w) {
        return w == 0 || Oid.isOid(w) ? w : SoftView.oidAt(w);
    }

    /** A node with room for one more element; returns its region offset. */
    private long room() {
        long node = node();
        int n = sizeOf(node);
        int cap = node == 0 ? 0 : Short.toUnsignedInt(SoftView.region().get(JAVA_SHORT, node + 6));
        if (node != 0 && n < cap) {
            return node;
        }
        int max = (session.maxSmall() - HEADER) / 8;
        if (n >= max) {
            throw SoftObjects.full(max);
        }
        int grown = Math.min(max, Math.max(MIN_CAPACITY, cap * 2));
        byte[] image = new byte[HEADER + 8 * grown];
        MemorySegment img = MemorySegment.ofArray(image);
        img.set(JAVA_INT_UNALIGNED, 0, NODE_TAG);
        img.set(JAVA_SHORT.withByteAlignment(1), 4, (short) n);
        img.set(JAVA_SHORT.withByteAlignment(1), 6, (short) grown);
        long old = node == 0 ? 0 : SoftView.oidAt(node);
        for (int i = 0; i < n; i++) {
            long w = SoftView.region().get(JAVA_LONG, node + HEADER + 8L * i);
            img.set(JAVA_LONG.withByteAlignment(1), HEADER + 8L * i, entryOid(w));
        }
        int[] pointers = new int[grown];
        for (int k = 0; k < grown; k++) {
            pointers[k] = HEADER + 8 * k;
        }
        SoftObjects soft = session.software();
        var tx = session.storeTransaction();
        long ref = tx.allocate(image.length, SoftObjects.refOf(owner.oid()), pointers);
        tx.write(ref, 0, image);
        long fresh = SoftObjects.oidOfRef(ref);
        SoftView.region().set(JAVA_LONG, owner.writable(field), fresh);
        if (old != 0) {
            soft.free(old);
        }
        return node();
    }

    @Override
    public void add(int index, T value) {
        session.checkWritable();
        int n = size();
        if (index < 0 || index > n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
        long oid = oidOf(value);
        long node = room();
        SoftView.markWrite(node);
        node = node();
        MemorySegment r = SoftView.region();
        for (int i = n; i > index; i--) {
            r.set(JAVA_LONG, node + HEADER + 8L * i, entryOid(r.get(JAVA_LONG, node + HEADER + 8L * (i - 1))));
        }
        r.set(JAVA_LONG, node + HEADER + 8L * index, oid);
        r.set(JAVA_SHORT, node + 4, (short) (n + 1));
        modCount++;
    }

    @Override
    public T set(int index, T value) {
        session.checkWritable();
        T old = get(index);
        long oid = oidOf(value);
        long node = node();
        SoftView.markWrite(node);
        node = node();
        SoftView.region().set(JAVA_LONG, node + HEADER + 8L * index, oid);
        return old;
    }

    @Override
    public T remove(int index) {
        session.checkWritable();
        T old = get(index);
        long node = node();
        int n = sizeOf(node);
        SoftView.markWrite(node);
        node = node();
        MemorySegment r = SoftView.region();
        for (int i = index; i < n - 1; i++) {
            r.set(JAVA_LONG, node + HEADER + 8L * i, entryOid(r.get(JAVA_LONG, node + HEADER + 8L * (i + 1))));
        }
        r.set(JAVA_LONG, node + HEADER + 8L * (n - 1), 0L);
        r.set(JAVA_SHORT, node + 4, (short) (n - 1));
        modCount++;
        return old;
    }

    @Override
    public int indexOf(Object o) {
        if (!(o instanceof SoftObject p)) {
            return -1;
        }
        long oid = p.oid();
        long node = node();
        int n = sizeOf(node);
        for (int i = 0; i < n; i++) {
            if (entryOid(SoftView.region().get(JAVA_LONG, node + HEADER + 8L * i)) == oid) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean contains(Object o) {
        return indexOf(o) >= 0;
    }
}
