package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.core.software.Oid;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A persistent list (or bag) of references in a software-persistence store: the owner's 8-byte field holds the
 * OID of the root of a {@link SoftRefArray}, a radix tree of small objects whose entry words are in their pages'
 * pointer maps, so they are OIDs on disk and swizzled in place when dereferenced ({@link SoftView#resolve}), like
 * any reference field (E / EPVM 3.0, White and DeWitt 1994, section 4.5.1; in-place swizzling as in
 * docs/software-mode.md). Any size: {@code get(i)} is one residency-checked dereference per tree level (one level
 * up to 512 elements, two up to 262,144 with 8 KiB pages). {@code RandomAccess}, fail-fast iterators of this view.
 * Elements are never null.
 */
public abstract class SoftRefList<T> extends AbstractList<T> implements RandomAccess {
    protected final Session session;
    private final SoftObject owner;
    private final long field;
    private final TypeDescriptor<T> element;
    private final int shift;

    /**
     * @param field the offset in {@code owner} of the 8-byte field holding the root node's OID
     */
    protected SoftRefList(Session session, SoftObject owner, long field, TypeDescriptor<T> element) {
        this.session = session;
        this.owner = owner;
        this.field = field;
        this.element = element;
        this.shift = SoftRefArray.shift(session.maxSmall());
    }

    /** The proxy of element {@code oid}, resident at {@code at} (the generated {@code of}). */
    protected abstract T make(Session session, long oid, long at);

    @Override
    public int size() {
        if (View.STRICT) {
            session.checkReadable();
        }
        return SoftRefArray.size(SoftRefArray.root(owner, field));
    }

    private void check(int index, int n) {
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
    }

    @Override
    public T get(int index) {
        if (View.STRICT) {
            session.checkReadable();
        }
        check(index, SoftRefArray.size(SoftRefArray.root(owner, field)));
        long slot = SoftRefArray.slot(owner, field, index, shift);
        long w = SoftView.region().get(JAVA_LONG, slot);
        if (w == 0) {
            return null;
        }
        if (Oid.isOid(w)) {
            return make(session, w, SoftView.resolve(slot, w)); // may evict the leaf's page: not used after
        }
        return make(session, SoftView.oidAt(w), w);
    }

    long oidOf(T value) {
        long oid = session.addressOf(value, element.type().isInstance(value), "collection element");
        if (oid == 0) {
            throw new NullPointerException("a persistent collection holds no null");
        }
        return oid;
    }

    @Override
    public void add(int index, T value) {
        session.checkWritable();
        int n = size();
        if (index < 0 || index > n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
        long oid = oidOf(value);
        if (index == n) {
            int i = SoftRefArray.append(session, owner, field, shift);
            SoftRefArray.put(owner, field, i, shift, oid);
        } else {
            SoftRefArray.insert(session, owner, field, index, oid, shift);
        }
        modCount++;
    }

    /** Appends {@code oid} (a set's add after its scan). */
    void append(long oid) {
        int i = SoftRefArray.append(session, owner, field, shift);
        SoftRefArray.put(owner, field, i, shift, oid);
        modCount++;
    }

    @Override
    public T set(int index, T value) {
        session.checkWritable();
        T old = get(index);
        SoftRefArray.put(owner, field, index, shift, oidOf(value));
        return old;
    }

    @Override
    public T remove(int index) {
        session.checkWritable();
        T old = get(index);
        SoftRefArray.remove(session, owner, field, index, shift);
        modCount++;
        return old;
    }

    /** Removes element {@code index} by moving the last one into its place (a set's removal, O(height)). */
    void removeUnordered(int index) {
        session.checkWritable();
        check(index, size());
        SoftRefArray.removeBySwap(session, owner, field, index, shift);
        modCount++;
    }

    @Override
    public void clear() {
        session.checkWritable();
        SoftRefArray.clear(session, owner, field);
        modCount++;
    }

    @Override
    public int indexOf(Object o) {
        if (View.STRICT) {
            session.checkReadable();
        }
        if (!(o instanceof SoftObject p) || !element.type().isInstance(o)) {
            return -1;
        }
        return SoftRefArray.indexOf(owner, field, p.oid(), shift);
    }

    @Override
    public boolean contains(Object o) {
        return indexOf(o) >= 0;
    }
}
