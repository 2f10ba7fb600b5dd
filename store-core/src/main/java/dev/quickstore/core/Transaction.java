package dev.quickstore.core;

import dev.quickstore.core.btree.BPlusTree;
import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.error.PageFaultRefusedException;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * The store's transaction (one at a time per opened store; usable from several threads). States:
 * ACTIVE, then COMMITTED or ABORTED. {@link #close()} aborts a transaction that was not committed.
 * An operation that fails half-way dooms the transaction: it can then only be aborted.
 *
 * <p>Objects are addressed by store references ({@code long}): {@code arenaBase + pageId * pageSize +
 * offset}. Small objects ({@link #allocate}) live on slotted pages and never move; large objects
 * ({@link #allocateLarge}) occupy runs of contiguous pages.
 */
public final class Transaction implements AutoCloseable {
    enum State {
        ACTIVE,
        COMMITTED,
        ABORTED
    }

    private final Store store;
    private final long id;
    private State state = State.ACTIVE;
    private RuntimeException doomedBy;
    /** Whether this transaction created an index: its catalog entries are then not remembered (it may abort). */
    private boolean createdIndex;

    Transaction(Store store, long id) {
        this.store = store;
        this.id = id;
    }

    Addresses addresses() {
        return store.addresses;
    }

    public long id() {
        return id;
    }

    public boolean isActive() {
        return state == State.ACTIVE;
    }

    /** Runs a read-only operation. */
    <T> T read(Store.IoWork<T> work) {
        return store.run(() -> {
            checkActive();
            checkRefusals();
            return work.run();
        });
    }

    /**
     * {@link #read} without its lambda, for a caller that writes the operation out (one point lookup): begins the
     * store operation and checks the transaction; the caller ends it with {@link #exitRead} in a {@code finally}.
     */
    int enterRead() {
        int mark = store.enter();
        try {
            checkActive();
            checkRefusals();
        } catch (RuntimeException e) {
            store.exit(mark);
            throw e;
        }
        return mark;
    }

    /**
     * Whether the calling thread is inside a store operation (it holds the latch, and an operation of its nest has
     * begun and not ended: a scan's visitor), after the checks {@link #enterRead} makes: the handle is usable, this
     * transaction is active and no refused fault is pending (each throws as there). Then a read that touches no page
     * (a point lookup answered by the index's memo) needs no operation of its own; false: take {@link #enterRead}.
     */
    boolean insideOperation() {
        if (!store.insideOperation()) {
            return false;
        }
        store.checkUsable();
        checkActive();
        checkRefusals();
        return true;
    }

    /** Ends an operation begun by {@link #enterRead}. */
    void exitRead(int mark) {
        store.exit(mark);
    }

    /** An I/O failure inside an operation begun by {@link #enterRead}: the exception to throw (fail-stop). */
    StoreException poisonedBy(IOException e) {
        return store.poisonedBy(e);
    }

    /**
     * A refused fault on the application view dooms the transaction (design notes section 2a): one
     * acquire load when nothing is pending.
     */
    private void checkRefusals() {
        if (store.hasPendingRefusal()) {
            store.takePending();
        }
    }

    /**
     * Opens a {@link Batch}: the calling thread holds the store latch until the batch is closed, so that the
     * operations it runs meanwhile do not take and release the latch each. Other threads' operations on the
     * store wait until then.
     *
     * <pre>{@code
     * try (Batch _ = tx.batch()) {
     *     for (...) tx.allocate(...);
     * }
     * tx.commit();
     * }</pre>
     *
     * @throws StoreException if the transaction is not active
     */
    public Batch batch() {
        store.latch.lock();
        try {
            checkActive();
            return new Batch(store.latch);
        } catch (RuntimeException e) {
            store.latch.unlock();
            throw e;
        }
    }

    /** Ends the transaction (a page server client's commit decided how). */
    void ended(State s) {
        state = s;
    }

    /** Whether the transaction committed (it has ended then). */
    boolean committed() {
        return state == State.COMMITTED;
    }

    /** Marks the transaction as failed: it can then only be aborted (commit aborts it and throws). */
    void doom(RuntimeException cause) {
        if (doomedBy == null) {
            doomedBy = cause;
        }
    }

    /** Runs an operation that may change pages; a failure dooms the transaction. */
    <T> T mutate(Store.IoWork<T> work) {
        int mark = store.enter(); // Store.run without its lambda (issue #20: the wrappers were 13% of a build)
        try {
            checkMutable();
            try {
                return work.run();
            } catch (IllegalArgumentException | IndexOutOfBoundsException | DuplicateKeyException e) {
                throw e; // validated before any page changed
            } catch (RuntimeException e) {
                doomedBy = e;
                throw e;
            }
        } catch (IOException e) {
            throw store.poisonedBy(e);
        } finally {
            store.exit(mark);
        }
    }

    /** The checks of an operation that may change pages: active, no refusal pending, not doomed. */
    private void checkMutable() {
        checkActive();
        checkRefusals();
        if (doomedBy != null) {
            throw new StoreException("transaction " + id + " failed earlier and can only be aborted", doomedBy);
        }
    }

    private void checkActive() {
        if (state != State.ACTIVE) {
            throw new StoreException("transaction " + id + " is " + state.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    // ---- small objects ----

    /** Allocates a zero-filled object of {@code size} bytes without pointers, with no placement hint. */
    public long allocate(int size) {
        return allocate(size, 0);
    }

    /** Allocates near {@code nearHint} (a reference; 0 = none): on its page or extent when possible. */
    public long allocate(int size, long nearHint, int... pointerOffsets) {
        // mutate() written out without its two capturing lambdas: this is the per-object operation of a load
        // (issue #20); the checks and the dooming are the same
        int mark = store.enter();
        try {
            checkMutable();
            try {
                return store.objects.allocate(size, nearHint, pointerOffsets);
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw e; // validated before any page changed
            } catch (RuntimeException e) {
                doomedBy = e;
                throw e;
            }
        } catch (IOException e) {
            throw store.poisonedBy(e);
        } finally {
            store.exit(mark);
        }
    }

    public void delete(long ref) {
        mutate(() -> {
            store.objects.delete(ref);
            return null;
        });
    }

    public int sizeOf(long ref) {
        int mark = enterRead(); // read() without its two capturing lambdas: asked once per in-place text edit (T5)
        try {
            return store.objects.sizeOf(ref);
        } catch (IOException e) {
            throw poisonedBy(e);
        } finally {
            exitRead(mark);
        }
    }

    private MemorySegment object(long ref, int offset, int len, boolean forWrite) throws IOException {
        MemorySegment p = store.objects.page(ref, forWrite);
        int off = store.addresses.offsetOf(ref);
        int size = SlottedPage.slotLength(p, SlottedPage.slotAt(p, off));
        if (offset < 0 || len < 0 || offset + len > size) {
            throw new IndexOutOfBoundsException("range " + offset + "+" + len + " outside object of " + size
                    + " bytes at " + String.format("0x%x", ref));
        }
        return p.asSlice(off + offset, len);
    }

    public byte[] read(long ref) {
        return read(() -> {
            int size = store.objects.sizeOf(ref);
            return object(ref, 0, size, false).toArray(ValueLayout.JAVA_BYTE);
        });
    }

    public void read(long ref, int offset, byte[] dst, int dstOff, int len) {
        read(() -> {
            MemorySegment.copy(object(ref, offset, len, false), ValueLayout.JAVA_BYTE, 0, dst, dstOff, len);
            return null;
        });
    }

    public void write(long ref, int offset, byte[] src) {
        write(ref, offset, src, 0, src.length);
    }

    public void write(long ref, int offset, byte[] src, int srcOff, int len) {
        mutate(() -> {
            MemorySegment.copy(src, srcOff, object(ref, offset, len, true), ValueLayout.JAVA_BYTE, 0, len);
            return null;
        });
    }

    public long getLong(long ref, int offset) {
        return read(() -> object(ref, offset, 8, false).get(PageHeader.LONG, 0));
    }

    public void putLong(long ref, int offset, long value) {
        mutate(() -> {
            object(ref, offset, 8, true).set(PageHeader.LONG, 0, value);
            return null;
        });
    }

    // ---- large objects ----

    public long allocateLarge(long size, long nearHint) {
        if (store.mappedFrames() != null
                && store.mappedFrames().texas() != null
                && size > store.pageSize() - dev.quickstore.core.space.LargeObjects.HEAD_DATA) {
            // a multi-page object is read through the view as one run of frames; Texas reserves frames page by
            // page (docs/texas-mode.md, section 6)
            throw new StoreException("store " + store.dir + " is a Texas store: objects of more than one page (" + size
                    + " bytes) are not supported in Texas mode yet");
        }
        return mutate(() -> store.largeObjects.allocate(size, nearHint));
    }

    public long largeSize(long ref) {
        return read(() -> store.largeObjects.size(ref));
    }

    public void readLarge(long ref, long offset, byte[] dst, int dstOff, int len) {
        read(() -> {
            store.largeObjects.transfer(ref, offset, dst, dstOff, len, false);
            return null;
        });
    }

    public void writeLarge(long ref, long offset, byte[] src, int srcOff, int len) {
        mutate(() -> {
            store.largeObjects.transfer(ref, offset, src, srcOff, len, true);
            return null;
        });
    }

    /** Grows or shrinks a large object; returns its reference, which changes if it had to move. */
    public long resizeLarge(long ref, long newSize) {
        return mutate(() -> store.largeObjects.resize(ref, newSize));
    }

    public void deleteLarge(long ref) {
        mutate(() -> {
            store.largeObjects.delete(ref);
            return null;
        });
    }

    // ---- named roots and indexes ----

    public void setRoot(String name, long ref) {
        mutate(() -> {
            store.roots.setRoot(name, store.addresses.toDisk(ref));
            return null;
        });
    }

    /** The reference stored under {@code name}, or 0. */
    public long root(String name) {
        return read(() -> store.addresses.toRuntime(store.roots.root(name)));
    }

    public boolean removeRoot(String name) {
        return mutate(() -> store.roots.removeRoot(name));
    }

    public Map<String, Long> roots() {
        return read(() -> {
            Map<String, Long> m = new java.util.TreeMap<>(store.roots.roots());
            m.replaceAll((k, v) -> store.addresses.toRuntime(v));
            return m;
        });
    }

    /**
     * Creates a named index.
     *
     * @param keyLength bytes of a STRING key (ignored for INT and LONG)
     */
    public Index createIndex(String name, KeyType type, int keyLength, boolean unique) {
        createdIndex = true;
        return new Index(this, mutate(() -> store.roots.createIndex(name, type, keyLength, unique)), name);
    }

    /**
     * The index named {@code name}, for this transaction's operations. An index this open store opened before is
     * handed out without the store's latch (the handle holds no page); each operation on the handle takes the latch
     * and checks that the transaction is still active.
     *
     * @throws StoreException if there is no such index, or this transaction has ended
     */
    public Index index(String name) {
        // an index opened before needs neither the catalog nor the latch: the handle holds no page, and every
        // operation on it takes the latch and checks the transaction (OO7 T9 took the latch twice per lookup)
        BPlusTree known = store.roots.remembered(name);
        if (known != null) {
            checkActive();
            return new Index(this, known, name);
        }
        return new Index(this, read(() -> store.roots.index(name, !createdIndex)), name);
    }

    // ---- end ----

    /** Makes the transaction durable (diff, log, group commit) and ends it. */
    public void commit() {
        store.run(() -> {
            checkActive();
            // From here on a fault on the view is refused (no transaction), so no store can slip in
            // unnoticed; then every refusal of this transaction is known before anything is logged.
            store.endViewTransaction();
            for (int k = 0; k < 4096 && store.hasPendingRefusal(); k++) {
                try {
                    store.takePending();
                } catch (PageFaultRefusedException e) {
                    doom(e);
                }
            }
            if (doomedBy != null) {
                abortUnderLatch();
                if (doomedBy instanceof dev.quickstore.core.remote.PageLockException
                        || doomedBy instanceof dev.quickstore.core.remote.ServerUnavailableException) {
                    throw doomedBy; // the typed refusal of a page server's client: retry, or connect again
                }
                throw new StoreException(
                        "transaction " + id + " failed earlier and was aborted instead of committed", doomedBy);
            }
            if (store.client != null) {
                store.client.commitAtServer(store, this); // validated, applied and logged by the page server
                return null;
            }
            state = State.COMMITTED;
            long t0 = System.nanoTime();
            store.prepareOneTimeRelocation();
            store.txns.commit();
            store.oneTimeRelocationCommitted();
            long t1 = System.nanoTime();
            store.finished(this);
            long t2 = System.nanoTime();
            store.maybeCheckpoint();
            store.pool.trim(); // back within the pool's budget if the fault path had to overcommit
            long t3 = System.nanoTime();
            store.txns.commitFinished(t1 - t0, t3 - t2, t3 - t0);
            return null;
        });
    }

    /** Rolls back every change of the transaction and ends it. */
    public void abort() {
        store.run(() -> {
            checkActive();
            abortUnderLatch();
            return null;
        });
    }

    void abortUnderLatch() throws IOException {
        state = State.ABORTED;
        store.endViewTransaction();
        store.discardPending();
        try {
            store.txns.abort();
            store.oneTimeRelocationAborted();
        } finally {
            try {
                if (store.client != null) {
                    store.client.abort();
                }
            } finally {
                store.finished(this);
            }
        }
    }

    /** Aborts unless committed or aborted already. */
    @Override
    public void close() {
        store.latch.lock();
        try {
            if (state == State.ACTIVE && !store.poisoned()) {
                abort();
            }
        } finally {
            store.latch.unlock();
        }
    }
}
