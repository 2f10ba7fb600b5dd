package dev.quickstore.api;

import dev.quickstore.api.internal.AppView;
import dev.quickstore.api.internal.Catalog;
import dev.quickstore.api.internal.FirstNodeSizing;
import dev.quickstore.api.internal.Session;
import dev.quickstore.api.internal.Types;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.StoreOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A store of persistent objects: the object API over the storage manager ({@link Store}).
 *
 * <pre>{@code
 * try (var db = PersistentStore.open(dir, Part.class)) {
 *     try (var tx = db.begin()) {
 *         Part p = tx.create(Part.class, null);
 *         p.x(42);
 *         tx.root("first", p);
 *         tx.commit();
 *     }
 * }
 * }</pre>
 *
 * One transaction at a time (the storage manager's rule), and one open persistent store per process: its
 * objects are addressed through the process's single application view, as the mapped arena will be. The
 * types passed to {@link #open} / {@link #create} are checked against the store's schema catalog at once
 * (and added to it if new); other types are checked when first used.
 */
public final class PersistentStore implements AutoCloseable {
    private final Store store;
    private final AppView view;
    private Catalog catalog;
    private Session current;
    private boolean closed;
    private ObjectPadding padding = ObjectPadding.NONE;
    /** First-node capacities of reference arrays learned by this store's transactions (issue #20). */
    private final FirstNodeSizing firstNodeSizing = new FirstNodeSizing();

    private PersistentStore(Store store, Class<?>[] types) {
        this.store = store;
        boolean ok = false;
        AppView v = null;
        try {
            v = AppView.of(this, store);
            this.view = v;
            try (Transaction tx = store.begin()) {
                this.catalog = Catalog.load(tx);
            }
            if (types.length > 0) {
                for (int attempt = 1; ; attempt++) {
                    try (ObjectTransaction tx = begin()) {
                        for (Class<?> t : types) {
                            catalog.ensure(Types.of(t));
                        }
                        tx.commit();
                        break;
                    } catch (dev.quickstore.core.remote.TransactionConflictException e) {
                        if (attempt == 10) { // another client of the server registered types meanwhile
                            throw e;
                        }
                    }
                }
            }
            ok = true;
        } finally {
            if (!ok) {
                if (v != null) {
                    v.close();
                }
                try {
                    store.close();
                } catch (IOException | RuntimeException e) {
                    // already failing: the original exception is the one to report
                }
            }
        }
    }

    /** Creates a store in {@code dir} (which must not hold one) and registers {@code types}. */
    public static PersistentStore create(Path dir, Class<?>... types) throws IOException {
        return new PersistentStore(Store.create(dir), types);
    }

    /**
     * Opens an existing store (running recovery if needed) and checks {@code types} against its catalog.
     *
     * @throws SchemaMismatchException if the store holds one of the types with another layout
     */
    public static PersistentStore open(Path dir, Class<?>... types) throws IOException {
        return new PersistentStore(Store.open(dir), types);
    }

    /**
     * Creates a store with explicit storage-manager options (frames mode, write detection, replacement,
     * relocation; {@link StoreOptions#defaults()} reads the {@code qs.*} system properties).
     */
    public static PersistentStore create(Path dir, StoreOptions options, Class<?>... types) throws IOException {
        return new PersistentStore(
                Store.create(dir, dev.quickstore.core.volume.VolumeFile.DEFAULT_PAGE_SIZE, options), types);
    }

    /** Opens an existing store with explicit storage-manager options; see {@link #create(Path, StoreOptions, Class[])}. */
    public static PersistentStore open(Path dir, StoreOptions options, Class<?>... types) throws IOException {
        return new PersistentStore(Store.open(dir, options), types);
    }

    /**
     * Connects to the page server at {@code uri} ({@code qs://host:port}, started by {@code qs serve DIR}) as one
     * of its client processes and checks {@code types} against the store's catalog: the same transactions,
     * objects and API as {@link #open}, over a cache of the server's pages that this process keeps across
     * transactions. Objects are reached by plain loads; a page not cached is faulted in from the server by the
     * C fault path over the connection.
     *
     * <p>Transactions are optimistic: {@link ObjectTransaction#commit} ships the changed bytes of each page and
     * the versions of the pages read, and throws {@link dev.quickstore.core.remote.TransactionConflictException}
     * (naming the pages; nothing applied, the transaction is aborted) if another client's commit changed one of
     * them since - retry the transaction. A commit that returns is durable at the server.
     *
     * @param secretFile a copy of the store's {@code server.secret} (mode 0600)
     * @throws dev.quickstore.core.remote.ServerUnavailableException if the server cannot be reached, refuses the
     *     client, or stops answering (later calls throw it too: connect again)
     */
    public static PersistentStore connect(String uri, Path secretFile, Class<?>... types) throws IOException {
        return new PersistentStore(Store.connect(uri, secretFile, StoreOptions.defaults()), types);
    }

    /** Starts the store's transaction. */
    public ObjectTransaction begin() {
        if (closed) {
            throw new StoreException("persistent store is closed");
        }
        Transaction tx = store.begin();
        if (store.isClient() && current != null) {
            boolean ok = false;
            try {
                catalog = catalog.refreshed(tx); // another client may have added types
                ok = true;
            } finally {
                if (!ok) {
                    tx.abort();
                }
            }
        }
        current = new Session(tx, view, catalog, store.pageSize(), padding, firstNodeSizing);
        return new ObjectTransaction(current);
    }

    /**
     * Pads the objects and reference arrays that transactions begun from now on create (QS-B, see {@link
     * ObjectPadding}); {@link ObjectPadding#NONE} (the default) turns it off. Not recorded in the volume.
     */
    public void objectPadding(ObjectPadding padding) {
        this.padding = java.util.Objects.requireNonNull(padding);
    }

    /** The padding of {@link #objectPadding(ObjectPadding)}. */
    public ObjectPadding objectPadding() {
        return padding;
    }

    /** The storage manager underneath (indexes, verify, checkpoint). */
    public Store storageManager() {
        return store;
    }

    /** The committed schema catalog: type name to record (type id, size, fields). */
    public Map<String, Catalog.TypeRecord> schema() {
        return catalog.types();
    }

    /** Aborts a running transaction, unbinds the application view and closes the store. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (current != null) {
            current.storeClosing();
        }
        try {
            view.close();
        } finally {
            store.close();
        }
    }
}
