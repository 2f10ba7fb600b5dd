package dev.quickstore.api.internal;

import java.util.AbstractSet;
import java.util.Iterator;

/**
 * A persistent set of references in a software-persistence store: the storage of {@link SoftRefList} (one
 * node of OIDs), with {@code add} refusing an element already present.
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
        if (list.contains(value)) {
            return false;
        }
        return list.add(value);
    }

    @Override
    public boolean remove(Object o) {
        int i = list.indexOf(o);
        if (i < 0) {
            return false;
        }
        list.remove(i);
        return true;
    }

    @Override
    public Iterator<T> iterator() {
        return list.iterator();
    }
}
