package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.api.ObjectPadding;
import java.lang.foreign.MemorySegment;
import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * A live {@code List} view of a persistent reference list. The owning field holds the address of an
 * out-of-line reference array (0 = empty list), a small object allocated near its owner:
 *
 * <pre>
 * offset size
 *      0    4 size
 *      4    4 capacity
 *      8  8*c elements: virtual addresses (0 = null), every one in the page's pointer map
 * </pre>
 *
 * Adding to a full array allocates one of twice the capacity (at least 4), copies, updates the owner's field
 * and frees the old array. The capacity is bounded by the largest small object ({@code (maxSmall-8)/8}, 1,013
 * references with 8 KiB pages); longer lists are not in this slice. Elements must be proxies of the list's
 * element type from the same transaction.
 */
public class RefList<T> extends AbstractList<T> implements RandomAccess {
    private static final int HEADER = 8;

    private final Session session;
    private final long field;
    private final TypeDescriptor<T> element;

    /**
     * @param field address of the owner's 8-byte field holding the array's address
     */
    public RefList(Session session, long field, TypeDescriptor<T> element) {
        this.session = session;
        this.field = field;
        this.element = element;
    }

    private long array() {
        return View.segment().get(JAVA_LONG, field - View.base());
    }

    private static int sizeOf(long array) {
        return array == 0 ? 0 : View.segment().get(JAVA_INT, array - View.base());
    }

    @Override
    public int size() {
        if (View.STRICT) {
            session.checkReadable();
        }
        return sizeOf(array());
    }

    @Override
    public T get(int index) {
        if (View.STRICT) {
            session.checkReadable();
        }
        long arr = array();
        int n = sizeOf(arr);
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
        long a = View.segment().get(JAVA_LONG, arr - View.base() + HEADER + 8L * index);
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
        long arr = array();
        int n = sizeOf(arr);
        if (index < 0 || index >= n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
        long a = View.segment().get(JAVA_LONG, arr - View.base() + HEADER + 8L * index);
        if (a == 0) {
            return null;
        }
        return View.segment().get(JAVA_INT, a - View.base()) == 0 ? element.create(session, a) : make(session, a);
    }

    private long addressOf(T value) {
        return session.addressOf(value, value == null || element.type().isInstance(value), "list element");
    }

    @Override
    public T set(int index, T value) {
        session.checkWritable();
        T old = old(index);
        long at = array() - View.base() + HEADER + 8L * index;
        View.segment().set(JAVA_LONG, at, addressOf(value));
        return old;
    }

    @Override
    public void add(int index, T value) {
        session.checkWritable();
        long v = addressOf(value);
        long arr = array();
        int n = sizeOf(arr);
        if (index < 0 || index > n) {
            throw new IndexOutOfBoundsException("index " + index + " of a persistent list of " + n);
        }
        int cap = arr == 0 ? 0 : View.segment().get(JAVA_INT, arr - View.base() + 4);
        if (n == cap) {
            arr = grow(arr, n, cap);
        }
        long base = arr - View.base() + HEADER;
        var seg = View.segment();
        move(seg, base + 8L * index, base + 8L * (index + 1), 8L * (n - index));
        seg.set(JAVA_LONG, base + 8L * index, v);
        seg.set(JAVA_INT, arr - View.base(), n + 1);
        modCount++;
    }

    private long grow(long arr, int n, int cap) {
        int max = (session.maxSmall() - HEADER) / 8;
        if (cap >= max) {
            throw new UnsupportedOperationException(
                    "persistent reference lists hold at most " + max + " elements in this version");
        }
        int newCap = Math.min(max, Math.max(4, cap * 2));
        int[] pointers = new int[newCap];
        for (int i = 0; i < newCap; i++) {
            pointers[i] = HEADER + 8 * i;
        }
        long owner = field; // near the owning object
        // QS-B (ObjectPadding): header plus a wider slot per element, at most up to the largest small object
        ObjectPadding pad = session.padding();
        int size = HEADER + 8 * newCap;
        size = Math.max(size, Math.min(session.maxSmall(), size + pad.objectExtra(newCap)));
        long fresh = session.allocate(size, owner, pointers);
        var seg = View.segment();
        if (arr != 0) {
            MemorySegment.copy(seg, arr - View.base() + HEADER, seg, fresh - View.base() + HEADER, 8L * n);
        }
        seg.set(JAVA_INT, fresh - View.base(), n);
        seg.set(JAVA_INT, fresh - View.base() + 4, newCap);
        seg.set(JAVA_LONG, field - View.base(), fresh);
        if (arr != 0) {
            session.storeTransaction().delete(arr);
        }
        return fresh;
    }

    private static void move(MemorySegment seg, long from, long to, long bytes) {
        if (bytes > 0) {
            MemorySegment.copy(seg, from, seg, to, bytes); // copy() handles the overlap
        }
    }

    @Override
    public T remove(int index) {
        session.checkWritable();
        T old = old(index);
        long arr = array();
        int n = sizeOf(arr);
        long base = arr - View.base() + HEADER;
        var seg = View.segment();
        move(seg, base + 8L * (index + 1), base + 8L * index, 8L * (n - index - 1));
        seg.set(JAVA_LONG, base + 8L * (n - 1), 0L);
        seg.set(JAVA_INT, arr - View.base(), n - 1);
        modCount++;
        return old;
    }

    @Override
    public void clear() {
        session.checkWritable();
        long arr = array();
        if (arr != 0) {
            View.segment().set(JAVA_LONG, field - View.base(), 0L);
            session.storeTransaction().delete(arr);
            modCount++;
        }
    }
}
