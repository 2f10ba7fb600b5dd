package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.api.PersistentObject;
import java.util.AbstractCollection;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A live {@code Collection} view of a persistent bag field (OO7's {@code usedInPriv}, {@code componentsPriv}:
 * an unordered collection of references in which duplicates are allowed). Stored as a {@link RefArray}, like
 * a list; the order of iteration is the storage order, which {@link #remove} changes: the last element moves
 * into the removed one's place (O(1) after the scan). {@code contains}/{@code remove(Object)} scan the
 * elements comparing addresses (no hash of the address: relocation changes addresses between transactions,
 * QuickStore §3.4). Elements are never null ({@link NullPointerException}, as {@code Set.of}); they must be
 * proxies of the element type from the same transaction. Iterators are fail-fast for changes made through
 * this view, and support {@code remove}.
 */
public class RefBag<T> extends AbstractCollection<T> {
    final Session session;
    final long field;
    final TypeDescriptor<T> element;
    final int shift;
    /** Structural changes through this view (fail-fast iterators). */
    int modCount;

    /**
     * @param field address of the owner's 8-byte field holding the array's address
     */
    public RefBag(Session session, long field, TypeDescriptor<T> element) {
        this.session = session;
        this.field = field;
        this.element = element;
        this.shift = session.refShift();
    }

    /** What the element is called in messages. */
    String what() {
        return "bag element";
    }

    @Override
    public int size() {
        if (View.STRICT) {
            session.checkReadable();
        }
        return RefArray.size(RefArray.root(field));
    }

    /** See {@link RefList#make}: generated subclasses call their type's static factory. */
    protected T make(Session session, long a) {
        return element.resolve(session, a);
    }

    T at(int index) {
        long a = RefArray.get(RefArray.root(field), index, shift);
        // a deleted element (tag 0) is a proxy of the declared type, as RefList.old
        return FlatView.getInt(a) == 0 ? element.create(session, a) : make(session, a);
    }

    long addressOf(T value) {
        if (value == null) {
            throw new NullPointerException("a persistent " + what() + " cannot be null");
        }
        return session.addressOf(value, element.type().isInstance(value), what());
    }

    /** The address of {@code o} if it could be an element, else -1. */
    long find(Object o) {
        if (!(o instanceof PersistentObject) || !element.type().isInstance(o)) {
            return -1;
        }
        return session.addressOf(o, true, what());
    }

    int indexOf(Object o) {
        if (View.STRICT) {
            session.checkReadable();
        }
        long a = find(o);
        return a < 0 ? -1 : RefArray.indexOf(RefArray.root(field), a, shift);
    }

    @Override
    public boolean contains(Object o) {
        return indexOf(o) >= 0;
    }

    @Override
    public boolean add(T value) {
        session.checkWritable();
        long v = addressOf(value);
        append(v);
        return true;
    }

    void append(long v) {
        int n = RefArray.size(RefArray.root(field));
        long root = RefArray.append(session, field, shift, element);
        RefArray.put(root, n, shift, v);
        modCount++;
    }

    @Override
    public boolean remove(Object o) {
        session.checkWritable();
        int i = indexOf(o);
        if (i < 0) {
            return false;
        }
        removeAt(i);
        return true;
    }

    /** Removes element {@code i}: the last element takes its place. */
    void removeAt(int i) {
        long root = RefArray.root(field);
        int last = RefArray.size(root) - 1;
        if (i != last) {
            RefArray.put(root, i, shift, View.segment().get(JAVA_LONG, RefArray.slot(root, last, shift)));
        }
        RefArray.removeLast(session, field, shift);
        modCount++;
    }

    @Override
    public void clear() {
        session.checkWritable();
        if (RefArray.root(field) != 0) {
            RefArray.clear(session, field);
            modCount++;
        }
    }

    @Override
    public Iterator<T> iterator() {
        if (View.STRICT) {
            session.checkReadable();
        }
        return new Iterator<>() {
            private int cursor;
            private int lastReturned = -1;
            private int expected = modCount;

            @Override
            public boolean hasNext() {
                return cursor < size();
            }

            @Override
            public T next() {
                if (modCount != expected) {
                    throw new ConcurrentModificationException();
                }
                if (cursor >= size()) {
                    throw new NoSuchElementException();
                }
                lastReturned = cursor;
                return at(cursor++);
            }

            @Override
            public void remove() {
                if (lastReturned < 0) {
                    throw new IllegalStateException();
                }
                if (modCount != expected) {
                    throw new ConcurrentModificationException();
                }
                session.checkWritable();
                removeAt(lastReturned); // the last element moved here: visit it next
                cursor = lastReturned;
                lastReturned = -1;
                expected = modCount;
            }
        };
    }
}
