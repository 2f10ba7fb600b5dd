package dev.quickstore.peers.eclipsestore;

import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import dev.quickstore.peers.eclipsestore.EsObjects.EsAtomicPart;
import dev.quickstore.peers.eclipsestore.EsObjects.EsBaseAssembly;
import dev.quickstore.peers.eclipsestore.EsObjects.EsComplexAssembly;
import dev.quickstore.peers.eclipsestore.EsObjects.EsCompositePart;
import dev.quickstore.peers.eclipsestore.EsObjects.EsConnection;
import dev.quickstore.peers.eclipsestore.EsObjects.EsDocument;
import dev.quickstore.peers.eclipsestore.EsObjects.EsManual;
import dev.quickstore.peers.eclipsestore.EsObjects.EsModule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.eclipse.serializer.persistence.types.Storer;
import org.eclipse.store.storage.embedded.types.EmbeddedStorage;
import org.eclipse.store.storage.embedded.types.EmbeddedStorageFoundation;
import org.eclipse.store.storage.embedded.types.EmbeddedStorageManager;

/**
 * OO7 on Eclipse Store 2.1.3 (embedded storage, the successor of MicroStream): the object graph lives on the
 * Java heap as plain classes ({@link EsObjects}) under one root ({@link EsRoot}), and Eclipse Store persists
 * it, written the way its documentation tells users to (<a
 * href="https://docs.eclipsestore.io/manual/storage/storing-data/index.html">storing data</a>, <a
 * href="https://docs.eclipsestore.io/manual/storage/loading-data/lazy-loading/index.html">lazy loading</a>):
 *
 * <ul>
 *   <li>{@code Lazy} references for what is big or rarely needed: each composite part's atomic-part graph,
 *       document and manual texts, and every index (maps in the graph: {@code TreeMap} for id order and the
 *       build-date range scan, {@code HashMap} for exact lookups).
 *   <li>"The object that has been modified has to be stored": a commit stores, with one lazy storer, exactly
 *       the objects this transaction modified (setters and {@link TrackedList} report them to this store, a
 *       unit of work) and the changed collections (a changed {@code ArrayList} or index map is stored whole,
 *       as Eclipse Store stores collections); new objects they reference are stored with them. Never the root
 *       or the whole graph.
 *   <li>Deletion: removed from every referencing collection and index (which are stored); Eclipse Store's
 *       storage garbage collector reclaims what no stored object references any more.
 * </ul>
 *
 * <h2>Durability</h2>
 *
 * Eclipse Store 2.1.3 never forces its files to the device (see {@link SyncingFileWriter}): with the default
 * configuration a returned {@code store()} is in the OS page cache only. This store installs {@link
 * SyncingFileWriter} with {@code EmbeddedStorageFoundation.setWriterProvider}, so that {@link #commit()}
 * returns after the data and the transactions-file entry of the store are on the device (fdatasync each), like
 * the fsync-on-commit of the other systems. One storage channel (the default), default housekeeping.
 *
 * <h2>Transactions, abort, cold runs</h2>
 *
 * Eclipse Store has no transactions over the heap graph: changes are visible at once and only their storing is
 * atomic (one {@code Storer.commit()} is one entry of the transactions file). {@link #begin()} starts a new
 * unit of work; {@link #abort()} cannot undo heap changes, so it does what an Eclipse Store application does
 * after a failed update: it drops the in-memory graph and reloads it from storage (shuts the storage manager
 * down and starts it again), which undoes every uncommitted change. {@link #makeCold()} does the same outside
 * a transaction: the restarted storage loads the root, the modules and their hierarchy (eagerly referenced)
 * and nothing behind a {@code Lazy}, so the next operation loads its atomic parts, texts and indexes from the
 * files (through the OS page cache, which this store does not drop).
 *
 * <h2>Limits</h2>
 *
 * The schema's setters report changes through a static reference to the open store, so one {@code
 * EclipseStoreOo7Store} may be open per JVM at a time ({@link #open} says so otherwise). Counters: {@code
 * storedBytes} (entity bytes written by commits) and {@code syncs} (fdatasyncs and directory fsyncs), both
 * counted by {@link SyncingFileWriter}, including background housekeeping. Not thread-safe.
 */
public final class EclipseStoreOo7Store implements Oo7Store {
    private static final AtomicReference<EclipseStoreOo7Store> OPEN = new AtomicReference<>();

    private final Path dir;
    private final AtomicLong storedBytes = new AtomicLong();
    private final AtomicLong syncs = new AtomicLong();
    private final Set<Object> dirty = Collections.newSetFromMap(new IdentityHashMap<>());
    private EmbeddedStorageManager storage;
    private EsRoot root;
    private boolean inTransaction;
    private boolean closed;

    private EclipseStoreOo7Store(Path dir) {
        this.dir = dir;
    }

    /**
     * Opens the Eclipse Store storage in {@code dir} (creating an empty OO7 root if the directory holds none).
     *
     * @throws IllegalStateException if another {@code EclipseStoreOo7Store} is open in this JVM
     */
    public static EclipseStoreOo7Store open(Path dir) {
        EclipseStoreOo7Store store = new EclipseStoreOo7Store(Objects.requireNonNull(dir));
        EclipseStoreOo7Store other = OPEN.compareAndExchange(null, store);
        if (other != null) {
            throw new IllegalStateException("cannot open Eclipse Store OO7 over " + dir + ": the one over " + other.dir
                    + " is still open in this JVM (one at a time: its objects report changes to the open store)");
        }
        try {
            store.start();
        } catch (RuntimeException | Error e) {
            OPEN.compareAndSet(store, null);
            throw e;
        }
        return store;
    }

    /** Records that {@code object} was modified in the current transaction of the open store. */
    static void changed(Object object) {
        EclipseStoreOo7Store store = OPEN.get();
        if (store == null) {
            throw new IllegalStateException("an Eclipse Store OO7 object was modified with no EclipseStoreOo7Store"
                    + " open: " + object.getClass().getSimpleName());
        }
        store.dirty.add(object);
    }

    private void start() {
        EmbeddedStorageFoundation<?> foundation = EmbeddedStorage.Foundation(dir);
        foundation.setWriterProvider(() -> new SyncingFileWriter(storedBytes, syncs));
        storage = foundation.start();
        Object existing = storage.root();
        if (existing == null) {
            root = new EsRoot();
            storage.setRoot(root);
            storage.storeRoot();
        } else if (existing instanceof EsRoot r) {
            root = r;
        } else {
            storage.shutdown();
            throw new IllegalStateException("Eclipse Store storage " + dir + " holds a root of "
                    + existing.getClass().getName() + ", not an OO7 database (" + EsRoot.class.getName() + ")");
        }
    }

    /** Shuts the storage manager down and starts it again: the graph is reloaded from the files. */
    private void restart() {
        dirty.clear();
        root = null;
        storage.shutdown();
        start();
    }

    @Override
    public String name() {
        return "eclipsestore";
    }

    /** The storage directory. */
    public Path directory() {
        return dir;
    }

    // ------------------------------------------------------------------------------------------- factory

    @Override
    public Module createModule(int id, String type, int buildDate, Object near) {
        EsModule m = new EsModule(id, type, buildDate);
        putUnique(root.modules, id, m, "module");
        return m;
    }

    @Override
    public Manual createManual(int id, String title, CharSequence text, Module mod, Object near) {
        return new EsManual(id, title, text, mod);
    }

    @Override
    public ComplexAssembly createComplexAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        return new EsComplexAssembly(id, type, buildDate, module, superAssembly);
    }

    @Override
    public BaseAssembly createBaseAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        EsBaseAssembly ba = new EsBaseAssembly(id, type, buildDate, module, superAssembly);
        putUnique(root.baseAssemblyById.get(), id, ba, "base assembly");
        return ba;
    }

    @Override
    public CompositePart createCompositePart(int id, String type, int buildDate, Object near) {
        EsCompositePart cp = new EsCompositePart(id, type, buildDate);
        putUnique(root.compositeById.get(), id, cp, "composite part");
        return cp;
    }

    @Override
    public Document createDocument(int id, String title, CharSequence text, CompositePart part, Object near) {
        EsDocument d = new EsDocument(id, title, text, part);
        putUnique(root.documentById.get(), id, d, "document");
        putUnique(root.documentByTitle.get(), title, d, "document title");
        return d;
    }

    @Override
    public AtomicPart createAtomicPart(
            int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf, Object near) {
        EsAtomicPart p = new EsAtomicPart(id, type, buildDate, x, y, docId, partOf);
        putUnique(root.atomicById.get(), id, p, "atomic part");
        TreeMap<Long, AtomicPart> byDate = root.atomicByDate.get();
        byDate.put(dateKey(buildDate, id), p);
        changed(byDate);
        return p;
    }

    @Override
    public Connection createConnection(String type, int length, AtomicPart from, AtomicPart to, Object near) {
        return new EsConnection(type, length, from, to);
    }

    // ------------------------------------------------------------------------------------------ deletion

    /** Nothing indexes connections: once no stored list references one, the storage GC reclaims it. */
    @Override
    public void deleteConnection(Connection connection) {}

    @Override
    public void deleteAtomicPart(AtomicPart part) {
        removeExisting(root.atomicById.get(), part.id(), part);
        removeExisting(root.atomicByDate.get(), dateKey(part.buildDate(), part.id()), part);
    }

    @Override
    public void deleteDocument(Document document) {
        removeExisting(root.documentById.get(), document.id(), document);
        removeExisting(root.documentByTitle.get(), document.title(), document);
    }

    @Override
    public void deleteCompositePart(CompositePart part) {
        removeExisting(root.compositeById.get(), part.id(), part);
    }

    // ------------------------------------------------------------------------------------------- indexes

    @Override
    public List<Module> modules() {
        return Collections.unmodifiableList(new ArrayList<>(root.modules.values()));
    }

    @Override
    public Module moduleById(int id) {
        return root.modules.get(id);
    }

    @Override
    public AtomicPart atomicPartById(int id) {
        return root.atomicById.get().get(id);
    }

    @Override
    public void scanAtomicPartsByBuildDate(int lo, int hi, Consumer<? super AtomicPart> action) {
        if (lo > hi) {
            return;
        }
        NavigableMap<Long, AtomicPart> range = root.atomicByDate
                .get()
                .subMap(dateKey(lo, Integer.MIN_VALUE), true, dateKey(hi, Integer.MAX_VALUE), true);
        range.values().forEach(action);
    }

    @Override
    public void updateBuildDate(AtomicPart part, int buildDate) {
        EsAtomicPart p = (EsAtomicPart) part;
        TreeMap<Long, AtomicPart> byDate = root.atomicByDate.get();
        removeExisting(byDate, dateKey(p.buildDate, p.id()), p);
        p.buildDate = buildDate;
        byDate.put(dateKey(buildDate, p.id()), p);
        changed(p);
    }

    @Override
    public void forEachAtomicPart(Consumer<? super AtomicPart> action) {
        root.atomicById.get().values().forEach(action);
    }

    @Override
    public CompositePart compositePartById(int id) {
        return root.compositeById.get().get(id);
    }

    @Override
    public void forEachCompositePart(Consumer<? super CompositePart> action) {
        root.compositeById.get().values().forEach(action);
    }

    @Override
    public Document documentByTitle(String title) {
        return root.documentByTitle.get().get(title);
    }

    @Override
    public Document documentById(int id) {
        return root.documentById.get().get(id);
    }

    @Override
    public BaseAssembly baseAssemblyById(int id) {
        return root.baseAssemblyById.get().get(id);
    }

    // -------------------------------------------------------------------------------------- transactions

    @Override
    public void begin() {
        checkOpen();
        if (inTransaction) {
            throw new IllegalStateException("transaction already active");
        }
        dirty.clear();
        inTransaction = true;
    }

    /** Stores the objects and collections this transaction changed with one lazy storer (one storage commit). */
    @Override
    public void commit() {
        checkOpen();
        if (!inTransaction) {
            throw new IllegalStateException("no active transaction");
        }
        if (!dirty.isEmpty()) {
            Storer storer = storage.createLazyStorer();
            for (Object o : dirty) {
                storer.store(o);
            }
            storer.commit();
            dirty.clear();
        }
        inTransaction = false;
    }

    /**
     * Ends the transaction by reloading the graph from storage (Eclipse Store cannot undo changes to heap
     * objects): every object obtained before is stale afterwards.
     */
    @Override
    public void abort() {
        checkOpen();
        inTransaction = false;
        restart();
    }

    // --------------------------------------------------------------------------------- benchmark protocol

    @Override
    public boolean supportsCold() {
        return true;
    }

    /** Shuts the storage manager down and starts it again (every {@code Lazy} unloaded, the graph reloaded). */
    @Override
    public void makeCold() {
        checkOpen();
        if (inTransaction) {
            throw new IllegalStateException("makeCold inside a transaction");
        }
        restart();
    }

    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("storedBytes", storedBytes.get());
        c.put("syncs", syncs.get());
        return c;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (storage != null) {
                storage.shutdown();
            }
        } finally {
            root = null;
            dirty.clear();
            OPEN.compareAndSet(this, null);
        }
    }

    // ----------------------------------------------------------------------------------------- helpers

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Eclipse Store OO7 over " + dir + " is closed");
        }
    }

    /** Build-date index key: date in the high half, id (sign-flipped so negative ids sort first) low. */
    private static long dateKey(int buildDate, int id) {
        return ((long) buildDate << 32) | ((id ^ Integer.MIN_VALUE) & 0xFFFF_FFFFL);
    }

    private static <K, V> void putUnique(Map<K, V> index, K key, V value, String what) {
        if (index.putIfAbsent(key, value) != null) {
            throw new IllegalArgumentException("duplicate " + what + " key " + key);
        }
        changed(index);
    }

    private static <K, V> void removeExisting(Map<K, V> index, K key, V value) {
        if (!index.remove(key, value)) {
            throw new IllegalStateException("index has no entry " + key + " -> " + value);
        }
        changed(index);
    }
}
