package dev.quickstore.api.internal;

import java.util.Collection;
import java.util.Set;

/**
 * A live {@code Set} view of a persistent set field (OO7's {@code parts}): a {@link RefBag} without
 * duplicates, identity = address (two proxies of one object are one element). {@code add} scans for the
 * address first and returns false when it is present, so it costs O(size); see {@link RefBag} for why the
 * store keeps no hash of addresses. {@code equals}/{@code hashCode} follow the {@link Set} contract.
 */
public class RefSet<T> extends RefBag<T> implements Set<T> {
    public RefSet(Session session, long field, TypeDescriptor<T> element) {
        super(session, field, element);
    }

    @Override
    String what() {
        return "set element";
    }

    @Override
    public boolean add(T value) {
        session.checkWritable();
        long v = addressOf(value);
        if (RefArray.indexOf(RefArray.root(field), v, shift) >= 0) {
            return false;
        }
        append(v);
        return true;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        if (!(o instanceof Set<?> other) || other.size() != size()) {
            return false;
        }
        return containsAll((Collection<?>) other);
    }

    @Override
    public int hashCode() {
        int h = 0;
        for (T t : this) {
            h += t.hashCode();
        }
        return h;
    }
}
