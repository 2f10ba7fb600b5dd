package dev.quickstore.api;

import dev.quickstore.api.internal.Session;
import dev.quickstore.api.internal.TypeDescriptor;
import dev.quickstore.api.internal.Types;
import dev.quickstore.core.Batch;
import dev.quickstore.core.Transaction;
import java.util.Objects;

/**
 * A transaction of a {@link PersistentStore}: creates and looks up persistent objects, sets named roots,
 * commits or aborts. {@link #close()} aborts unless committed. Proxies obtained in a transaction are usable
 * until it ends; writing through one afterwards, or storing one into an object of another transaction,
 * throws {@link dev.quickstore.core.error.StoreException} (reading afterwards is checked with
 * {@code -Dqs.api.strict=true} only).
 */
public final class ObjectTransaction implements AutoCloseable {
    private final Session session;
    // the descriptors of the last two types asked for by class (create, root, get, follow): a load creates objects
    // of a few types in turn, and Types.of is a ClassValue lookup (about 6 % of a small object's creation,
    // docs/results.md "Page scans before C2"); the transaction is used by one thread at a time
    private Class<?> type0;
    private TypeDescriptor<?> descriptor0;
    private Class<?> type1;
    private TypeDescriptor<?> descriptor1;

    ObjectTransaction(Session session) {
        this.session = session;
    }

    /** Creates a zero-filled object of {@code type} (fields 0, false, null, empty lists). */
    public <T> T create(Class<T> type) {
        return create(type, null);
    }

    /**
     * Creates an object of {@code type} placed near {@code near} (an object of this transaction, or null):
     * on its page when there is room, else in its extent (QuickStore's clustering hint).
     */
    public <T> T create(Class<T> type, Object near) {
        return session.create(descriptor(type), near == null ? 0 : session.addressOf(near, true, "near"));
    }

    /** Sets (or, with null, removes) a named root. */
    public void root(String name, Object object) {
        session.checkWritable();
        if (object == null) {
            session.storeTransaction().removeRoot(name);
        } else {
            session.storeTransaction().setRoot(name, session.addressOf(object, true, "root " + name));
        }
    }

    /**
     * The object under a named root, or null.
     *
     * @throws ClassCastException if the root holds an object of another type
     */
    public <T> T root(String name, Class<T> type) {
        session.checkReadable();
        return session.get(session.storeTransaction().root(name), descriptor(type), "root '" + name + "'");
    }

    /** The object at a virtual address (as returned by {@link #addressOf}); checks it is a live {@code type}. */
    public <T> T get(long address, Class<T> type) {
        return session.get(address, descriptor(type), null); // named "address 0x..." in a message
    }

    /**
     * The object at an address obtained from this store (a reference read earlier, an index entry), as a
     * {@code type} or a subtype of it. Cheaper than {@link #get}: checks the type tag (a
     * {@link ClassCastException} if it is not a {@code type}) but does not ask the storage manager whether
     * the slot is live, so a stale address yields garbage rather than an exception.
     */
    public <T> T follow(long address, Class<T> type) {
        return session.follow(address, descriptor(type));
    }

    /** {@link Types#of}, remembered for the last two classes asked for. */
    @SuppressWarnings("unchecked") // each descriptor is stored with its own class
    private <T> TypeDescriptor<T> descriptor(Class<T> type) {
        Objects.requireNonNull(type, "type"); // before the compares: the memo starts empty (null)
        if (type == type0) {
            return (TypeDescriptor<T>) descriptor0;
        }
        if (type == type1) {
            return (TypeDescriptor<T>) descriptor1;
        }
        TypeDescriptor<T> d = Types.of(type);
        type1 = type0;
        descriptor1 = descriptor0;
        type0 = type;
        descriptor0 = d;
        return d;
    }

    /** The virtual address of a persistent object (0 for null): its stored form, stable across runs. */
    public long addressOf(Object object) {
        return PersistentObject.addressOf(object);
    }

    /** Deletes an object and its out-of-line strings, byte arrays and every node of its reference collections. */
    public void delete(Object object) {
        session.delete(object);
    }

    /**
     * Holds the store for this thread until the returned batch is closed: the operations inside ({@link
     * #create}, {@link #delete}, index updates, every other call that reaches the storage manager) skip
     * taking and releasing the store latch each (a small object's creation took about 0.9x the time). Meant
     * for loads and bulk changes from one thread; other threads' operations on the store wait until it is
     * closed.
     *
     * <pre>{@code
     * try (ObjectTransaction tx = store.begin()) {
     *     try (Batch _ = tx.batch()) {
     *         for (int i = 0; i < n; i++) { prev = tx.create(Part.class, prev); ... }
     *     }
     *     tx.commit();
     * }
     * }</pre>
     */
    public Batch batch() {
        return session.storeTransaction().batch();
    }

    /** The storage manager's transaction underneath (indexes, raw objects). */
    public Transaction storeTransaction() {
        return session.storeTransaction();
    }

    public boolean isActive() {
        return session.isActive();
    }

    public void commit() {
        session.commit();
    }

    public void abort() {
        session.abort();
    }

    @Override
    public void close() {
        if (session.isActive()) {
            session.abort();
        }
    }
}
