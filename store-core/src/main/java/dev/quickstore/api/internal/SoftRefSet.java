package dev.quickstore.api.internal;

import java.util.AbstractSet;
import java.util.Iterator;

/**
 * A persistent set of references in a software-persistence store: the storage of {@link SoftRefList} (a
 * {@link SoftRefArray} of OIDs, any size), with {@code add} scanning for the element first (O(size), as the
 * hardware mode's {@link RefSet}) and {@code remove} moving the last element into the removed one's place.
 */
public abstract class SoftRefSet<T> extends AbstractSet<T> {
    private final SoftRefList<T> list;

    protected SoftRefSet(Session session, SoftObject owner, long field, TypeDescriptor<T> element) {
        this.list = new SoftRefList<>(session, owner, field, element) {
            @Override
            protected T make(Session s, long oid, long at) {
                return SoftRefSet.this.make(s, oid, at);
            }
        };
    }

    /** The proxy of element {@code oid}, resident at {@code at} (the generated {@code of}). */
    protected abstract T make(Session session, long oid, long at);

    @Override
    public int size() {
        return list.size();
    }

    @Override
    public boolean contains(Object o) {
        return list.contains(o);
    }

    @Override
    public boolean add(T value) {
        list.session.checkWritable();
        long oid = list.oidOf(value);
        if (list.contains(value)) {
            return false;
        }
        list.append(oid);
        return true;
    }

    @Override
    public boolean remove(Object o) {
        int i = list.indexOf(o);
        if (i < 0) {
            return false;
        }
        list.removeUnordered(i);
        return true;
    }

    @Override
    public void clear() {
        list.clear();
    }

    @Override
    public Iterator<T> iterator() {
        return list.iterator();
    }
}
