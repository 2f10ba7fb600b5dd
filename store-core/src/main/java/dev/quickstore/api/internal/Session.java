package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.api.PersistentObject;
import dev.quickstore.api.Splice;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.error.StoreException;

/**
 * The run-time side of one object transaction: what generated accessors, {@link RefList} and
 * {@code ObjectTransaction} call. Checks happen per operation (create, lookup, commit, a write, a reference
 * passed in), never per field read unless {@link View#STRICT}.
 */
public final class Session {
    private final Transaction tx;
    private final AppView view;
    private final Catalog catalog;
    private final int maxSmall;
    private final ObjectPadding padding;
    private final int refShift;
    private final FirstNodeSizing firstNodeSizing;
    /** Software persistence's object operations, or null (hardware modes). */
    private final SoftObjects software;

    private boolean active = true;
    private String endedAs;

    public Session(Transaction tx, AppView view, Catalog catalog, int pageSize) {
        this(tx, view, catalog, pageSize, ObjectPadding.NONE);
    }

    /** A session whose created objects and reference arrays are padded (QS-B; {@link ObjectPadding}). */
    public Session(Transaction tx, AppView view, Catalog catalog, int pageSize, ObjectPadding padding) {
        this(tx, view, catalog, pageSize, padding, new FirstNodeSizing());
    }

    /** A session whose reference arrays' first nodes are sized by {@code sizing} (kept by the store across sessions). */
    public Session(
            Transaction tx,
            AppView view,
            Catalog catalog,
            int pageSize,
            ObjectPadding padding,
            FirstNodeSizing sizing) {
        this.tx = tx;
        this.firstNodeSizing = sizing;
        this.padding = padding;
        this.view = view;
        this.catalog = catalog;
        // docs/formats.md, slotted page: data from 40 + pageSize/64, a 4-byte slot, 8-byte units
        this.maxSmall = (pageSize - (40 + pageSize / 64) - 4) & ~7;
        this.refShift = RefArray.shift(maxSmall);
        this.software = view instanceof AppView.Software ? new SoftObjects(this, tx) : null;
    }

    /** Software persistence's object operations (null unless the store runs FramesMode.SOFTWARE). */
    SoftObjects software() {
        return software;
    }

    public Transaction storeTransaction() {
        return tx;
    }

    public boolean isActive() {
        return active;
    }

    int maxSmall() {
        return maxSmall;
    }

    ObjectPadding padding() {
        return padding;
    }

    /** The capacities of new reference arrays' first nodes, learned per element type. */
    FirstNodeSizing firstNodeSizing() {
        return firstNodeSizing;
    }

    /** log2 of the fan-out of reference collections ({@link RefArray}). */
    int refShift() {
        return refShift;
    }

    Catalog catalog() {
        return catalog;
    }

    String nameOfTag(int tag) {
        return catalog.nameOfTag(tag);
    }

    private StoreException ended() {
        return new StoreException("transaction " + tx.id() + " has " + endedAs
                + "; persistent objects are usable only inside the transaction that obtained them"
                + " (look them up again in a new transaction)");
    }

    /** Called by generated getters in strict mode. */
    public void checkReadable() {
        if (!active) {
            throw ended();
        }
    }

    /** Called by every generated setter and list mutation. */
    public void checkWritable() {
        if (!active) {
            throw ended();
        }
    }

    /** The address to store for {@code value} in a reference field (or list) of this session's object. */
    public long addressOf(Object value, boolean rightType, String field) {
        if (value == null) {
            return 0;
        }
        if (!(value instanceof PersistentObject p)) {
            throw new IllegalArgumentException(
                    value.getClass().getName() + " is not a persistent object (field " + field + ")");
        }
        if (!rightType) {
            throw new IllegalArgumentException("field " + field + " cannot hold a " + value);
        }
        Session other = PersistentObject.sessionOf(p);
        if (other != this) {
            throw new StoreException(value + " belongs to transaction " + other.tx.id()
                    + (other.active ? "" : " (" + other.endedAs + ")") + ", not to transaction " + tx.id()
                    + "; look it up again in this transaction");
        }
        return PersistentObject.addressOf(p);
    }

    long allocate(int size, long near, int[] pointerOffsets) {
        long a = tx.allocate(size, near, pointerOffsets);
        view.allocated(a, size);
        return a;
    }

    long allocateLarge(long size, long near) {
        long a = tx.allocateLarge(size, near);
        view.allocatedLarge(a, size);
        return a;
    }

    void freeBlob(long a) {
        if (software != null) {
            software.freeOut(a);
            return;
        }
        if (Blobs.isLarge(a)) {
            tx.deleteLarge(a);
        } else {
            tx.delete(a);
        }
    }

    /** The size of the small object at {@code a}'s slot (a blob's capacity, header included). */
    int slotSize(long a) {
        return tx.sizeOf(a);
    }

    /**
     * Sets a text field: a {@link Splice} of the text the field holds now by moving and overwriting bytes of the
     * old blob ({@link Blobs#spliceInPlace}), any text in place when it fits the old blob's slot ({@link
     * Blobs#rewriteText}), else a new blob (with room to grow, since this text replaces one) and the old one freed.
     */
    public void setString(long owner, long offset, CharSequence value) {
        checkWritable();
        long slot = owner - View.base() + offset;
        long old = View.segment().get(JAVA_LONG, slot);
        if (old != 0
                && value instanceof Splice sp
                && sp.text() instanceof BlobText held
                && held.address() == old
                && Blobs.spliceInPlace(this, old, held.length(), sp)) {
            return;
        }
        if (old != 0 && value != null && Blobs.rewriteText(this, old, value)) {
            return;
        }
        long now = value == null ? 0 : Blobs.writeText(this, owner, value, old != 0);
        View.mark(owner + offset);
        View.segment().set(JAVA_LONG, slot, now);
        if (old != 0) {
            freeBlob(old);
        }
    }

    public void setBytes(long owner, long offset, byte[] value) {
        checkWritable();
        long slot = owner - View.base() + offset;
        long old = View.segment().get(JAVA_LONG, slot);
        long now = value == null ? 0 : Blobs.write(this, owner, Blobs.BYTES, value);
        View.mark(owner + offset);
        View.segment().set(JAVA_LONG, slot, now);
        if (old != 0) {
            freeBlob(old);
        }
    }

    // ---- object operations (ObjectTransaction) ----

    public <T> T create(TypeDescriptor<T> type, long near) {
        checkWritable();
        catalog.ensure(type);
        if (software != null) {
            return software.create(type, near);
        }
        int[] pointers = type.pointerOffsetsShared();
        long a = allocate(type.size() + padding.objectExtra(pointers.length), near, pointers);
        View.mark(a);
        View.segment().set(JAVA_INT, a - View.base(), type.tag());
        return type.create(this, a);
    }

    /**
     * The object at {@code address} as a {@code type}; checks that it is a live object of that type. {@code what}
     * names the address in an error message; null names it by its value ({@code "address 0x..."}), formatted only
     * when a message is made (formatting it for every call was a tenth of a lookup's time).
     */
    public <T> T get(long address, TypeDescriptor<T> type, String what) {
        checkReadable();
        if (address == 0) {
            return null;
        }
        catalog.check(type);
        if (software != null) {
            return software.get(address, type, what);
        }
        try {
            tx.sizeOf(address); // a live small object?
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    described(what, address) + " is not a live persistent object: " + e.getMessage(), e);
        }
        int tag = View.segment().get(JAVA_INT, address - View.base());
        if (tag != type.tag()) {
            TypeDescriptor<?> d = Types.byTag(tag, catalog, type.type().getClassLoader());
            if (d == null || !type.type().isAssignableFrom(d.type())) {
                throw new ClassCastException(String.format(
                        "%s at 0x%x is a %s, not a %s",
                        described(what, address), address, catalog.nameOfTag(tag), type.name()));
            }
        }
        return type.resolve(this, address);
    }

    /** {@code what}, or the address named by its value when {@code what} is null (see {@link #get}). */
    static String described(String what, long address) {
        return what != null ? what : String.format("address 0x%x", address);
    }

    /**
     * The object at an address this store handed out (a stored reference, an index entry): the type tag is
     * checked ({@link TypeDescriptor#resolve}), the slot is not validated against the storage manager.
     */
    public <T> T follow(long address, TypeDescriptor<T> type) {
        if (View.STRICT) {
            checkReadable();
        }
        if (software != null) {
            return software.get(address, type, "reference");
        }
        return address == 0 ? null : type.resolve(this, address);
    }

    /**
     * Frees {@code object}: its strings, byte arrays and reference lists first, then the object itself, all through
     * the storage manager ({@link Transaction#delete}), which zero-fills the freed bytes in the page. The view is
     * told afterwards ({@link AppView#deleted}); nothing is stored through the view, so on a mapped store a page
     * the transaction only deletes from keeps its view write-protected: no write fault, no {@code mprotect}.
     */
    public void delete(Object object) {
        checkWritable();
        long a = addressOf(object, true, "delete");
        if (software != null) {
            software.delete((dev.quickstore.api.PersistentObject) object);
            return;
        }
        int tag = FlatView.getInt(a);
        TypeDescriptor<?> type = Types.byTag(tag);
        if (type == null) {
            throw new IllegalArgumentException(String.format("0x%x has unknown type tag 0x%x", a, tag));
        }
        // the owned blobs and reference arrays, from offsets computed once per type (not a pass over every field)
        int[] owned = type.ownedOffsets();
        for (int k = 0, arrays = type.ownedArraysFrom(); k < owned.length; k++) {
            long out = FlatView.getLong(a + owned[k]);
            if (out != 0) {
                if (k < arrays) {
                    freeBlob(out);
                } else {
                    RefArray.freeTree(this, out);
                }
            }
        }
        tx.delete(a);
        view.deleted(a, type.size());
    }

    public void commit() {
        checkWritable();
        boolean done = false;
        try {
            catalog.flush(this);
            view.beforeCommit(tx);
            view.checkPending();
            tx.commit();
            done = true;
            end("committed");
            catalog.committed();
        } finally {
            if (!done) {
                end("aborted (its commit failed)");
                if (tx.isActive()) {
                    tx.abort();
                }
                view.afterAbort();
                catalog.rolledBack();
            }
        }
    }

    public void abort() {
        checkWritable();
        end("aborted");
        try {
            tx.abort();
        } finally {
            view.afterAbort();
            catalog.rolledBack();
        }
    }

    /** The store is closing: a running transaction is aborted by it. */
    public void storeClosing() {
        if (active) {
            end("ended: its store was closed");
            catalog.rolledBack();
        }
    }

    private void end(String how) {
        active = false;
        endedAs = how;
    }
}
