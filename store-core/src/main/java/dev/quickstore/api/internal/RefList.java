package dev.quickstore.api.internal;

import dev.quickstore.api.PersistentObject;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A live {@code List} view of a persistent reference list field: the owner's field holds the root of a
 * {@link RefArray} (0 = empty list), an unbounded array of references stored as a radix tree of small objects
 * near the owner. {@code get/size/set/add/remove/clear/indexOf/contains}, {@code RandomAccess}, fail-fast
 * iterators (of this view: two getter calls give two views, each with its own modification count). Elements
 * may be null; non-null elements must be proxies of the list's element type from the same transaction.
 */
public class RefList<T> extends AbstractList<T> implements RandomAccess {
    private final Session session;
    private final long field;
    private final TypeDescriptor<T> element;
    private final int shift;

    /**
     * @param field address of the owner's 8-byte field holding the array's address
     */
    public RefList(Session session, long field, TypeDescriptor<T> element) {
        this.session = session;
        this.field = field;
        this.element = element;
        this.shift = session.refShift();
    }

    /** Address of the owner's field holding the array's root (0 = empty). */
    long field() {
        return field;
    }

    @Override
    public int size() {
        if (View.STRICT) {
            session.checkReadable();
        }
        return RefArray.size(RefArray.root(field));
    }

    @Override
    public T get(int index) {
        if (View.STRICT) {
            session.checkReadable();
        }
        long root = RefArray.root(field);
        int n = RefArray.size(root);
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
        long a = RefArray.element(root, index, shift);
        return a == 0 ? null : make(session, a);
    }

    /**
     * The proxy of element {@code a} (not 0), a {@code T} or a subtype by its type tag. Generated classes
     * override it in their {@code Refs} subclass with a static factory C2 inlines; this one goes through the
     * descriptor (a shared, megamorphic factory call).
     */
    protected T make(Session session, long a) {
        return element.resolve(session, a);
    }

    /**
     * The element being replaced or removed, as {@code set}/{@code remove} return it. It may have been deleted
     * already (its tag zeroed): then it is a proxy of the declared element type, like any proxy of a deleted
     * object, rather than a {@link ClassCastException} from {@link TypeDescriptor#resolve}.
     */
    private T old(int index) {
        long a = RefArray.get(RefArray.root(field), index, shift);
        if (a == 0) {
            return null;
        }
        return FlatView.getInt(a) == 0 ? element.create(session, a) : make(session, a);
    }

    private long addressOf(T value) {
        return session.addressOf(value, value == null || element.type().isInstance(value), "list element");
    }

    @Override
    public T set(int index, T value) {
        session.checkWritable();
        long v = addressOf(value);
        T old = old(index);
        RefArray.put(RefArray.root(field), index, shift, v);
        return old;
    }

    @Override
    public void add(int index, T value) {
        session.checkWritable();
        long v = addressOf(value);
        int n = RefArray.size(RefArray.root(field));
        if (index < 0 || index > n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
        long root = RefArray.append(session, field, shift, element);
        RefArray.shiftUp(root, index, n, shift);
        RefArray.put(root, index, shift, v);
        modCount++;
    }

    @Override
    public T remove(int index) {
        session.checkWritable();
        T old = old(index);
        long root = RefArray.root(field);
        RefArray.shiftDown(root, index, RefArray.size(root), shift);
        RefArray.removeLast(session, field, shift);
        modCount++;
        return old;
    }

    @Override
    public int indexOf(Object o) {
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

    /** The address {@code o} would be stored as (0 for null), or -1 when it cannot be an element. */
    private long find(Object o) {
        if (o == null) {
            return 0;
        }
        if (!(o instanceof PersistentObject) || !element.type().isInstance(o)) {
            return -1;
        }
        return session.addressOf(o, true, "list element");
    }

    @Override
    public void clear() {
        session.checkWritable();
        if (RefArray.root(field) != 0) {
            RefArray.clear(session, field);
            modCount++;
        }
    }
}
