package dev.quickstore.oo7.mapped;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.DesignObj;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The OO7 database in a QuickStore/J {@link PersistentStore}: the objects are the generated implementations
 * ({@code <Name>$Impl}) of the {@code dev.quickstore.oo7.schema} interfaces, living in the mapped arena, so
 * {@link dev.quickstore.oo7.Oo7Operations} runs exactly the code it runs over the heap baseline; every
 * navigation is a load through the application view (faulting pages in on first touch) plus a proxy.
 *
 * <h2>Placement</h2>
 *
 * The builder's clustering hints are passed to the allocator: a composite part's document, atomic parts and
 * connections (and their reference arrays and the document text) are allocated near the composite part, the
 * assembly hierarchy near its module; the manual's text (100,000 bytes small) is a large object.
 *
 * <h2>QS-B</h2>
 *
 * Created or opened with an {@link ObjectPadding} other than {@link ObjectPadding#NONE}, the store pads every
 * object and reference array it creates (White and DeWitt 1994 section 4 and Table 2: "QuickStore with big
 * objects", padded to the size of the corresponding object in the OID-based E) and names itself {@code
 * "qs-b"}; the OO7 code, the generated classes and the indexes are the same as for {@code "qs"}. {@link
 * #databasePages()} gives the size to compare.
 *
 * <h2>Indexes</h2>
 *
 * store-core B+trees, created with the store and fetched per transaction on first use:
 *
 * <table>
 *   <caption>indexes</caption>
 *   <tr><th>name</th><th>key</th><th>kind</th></tr>
 *   <tr><td>{@code oo7.atomic.id}</td><td>INT id</td><td>unique</td></tr>
 *   <tr><td>{@code oo7.atomic.date}</td><td>LONG (buildDate &lt;&lt; 32 | id ^ 0x80000000)</td><td>unique;
 *       the composite key orders ties by id, as {@link #scanAtomicPartsByBuildDate} promises (a plain
 *       INT-key index with duplicates would order them by address)</td></tr>
 *   <tr><td>{@code oo7.composite.id}</td><td>INT id</td><td>unique</td></tr>
 *   <tr><td>{@code oo7.document.title}</td><td>STRING(40) title</td><td>unique</td></tr>
 *   <tr><td>{@code oo7.document.id}</td><td>INT id</td><td>unique</td></tr>
 *   <tr><td>{@code oo7.base.id}</td><td>INT id</td><td>unique</td></tr>
 *   <tr><td>{@code oo7.module.id}</td><td>INT id</td><td>unique</td></tr>
 * </table>
 *
 * <h2>Cold runs and counters</h2>
 *
 * {@link #makeCold()} closes the store (a checkpoint writes dirty pages back) and opens it again: the new
 * arena has no page resident, so the next operation faults in every page it touches. It reads them from the
 * operating system's page cache unless {@code dropCaches} was requested and {@code /proc/sys/vm/drop_caches}
 * is writable (root): then it syncs and writes {@code 1} there first ({@link #coldDropsOsCache()} says which
 * happened). {@link #counters()} sums the arena's fault counters and the log's counters over every opening.
 * The commit breakdown ({@code commitPreimageNanos}, {@code commitReprotectNanos}, {@code
 * commitStableNanos}, {@code commitDiffNanos}, {@code commitAppendNanos},
 * {@code commitFlushNanos}, their enclosing {@code commitLogNanos}, {@code commitCheckpointNanos} and the
 * storage manager's whole {@code commitStoreNanos}) comes from {@link Store#commitStats()}; {@code
 * commitNanos} is the object-level commit measured around {@link ObjectTransaction#commit()}. Replacement:
 * {@code evictions}, {@code reprotectAlls} (simplified clock) and {@code framesCleared} (classic clock) from
 * {@link Store#poolStats()}, {@code referenceFaults} from the arena. Card marking ({@code qs-cards}):
 * {@code commitCardPages} (dirty pages diffed by their marked cards only), {@code commitCards} (cards diffed)
 * and {@code cardMarks} (slow paths of the write barrier). Under the simplified and classic clocks
 * the fault path itself evicts by the policy when a fault would exceed the pool (docs/architecture-core.md,
 * "Replacement"), so the pool bounds the pages a traversal faults in; under {@code store} only the storage
 * manager's own frame requests evict.
 *
 * <p>One transaction at a time, one store per process (the arena is process-wide). Not thread-safe.
 */
public final class MappedOo7Store implements Oo7Store {
    /** The persistent types of the OO7 schema (registered in the catalog when the store is created). */
    static final Class<?>[] TYPES = {
        Module.class,
        Manual.class,
        ComplexAssembly.class,
        BaseAssembly.class,
        CompositePart.class,
        Document.class,
        AtomicPart.class,
        Connection.class
    };

    /** Where the store lives and how every opening opens it. */
    private final StoreOpening opening;

    private PersistentStore db;
    private ObjectTransaction tx;
    private final Oo7Indexes indexes = new Oo7Indexes(this::tx);
    private boolean closed;
    private boolean lastColdDroppedOsCache;
    private final StoreCounters counters = new StoreCounters();
    private long commitNanos;
    private long commits;

    private MappedOo7Store(StoreOpening opening, PersistentStore db) {
        this.opening = opening;
        this.db = db;
        db.objectPadding(opening.padding());
    }

    /** Creates an empty OO7 store in {@code dir} (which must not hold a store): catalog and indexes. */
    public static MappedOo7Store create(Path dir, boolean dropCaches) throws IOException {
        return create(dir, false, dropCaches, null, ObjectPadding.NONE);
    }

    /**
     * Creates an empty OO7 store whose objects are padded by {@code padding} (QS-B with {@link
     * ObjectPadding#OID_LAYOUT}; {@link ObjectPadding#NONE} is {@link #create(Path, boolean)}).
     */
    public static MappedOo7Store create(Path dir, boolean dropCaches, ObjectPadding padding) throws IOException {
        return create(dir, false, dropCaches, null, padding);
    }

    /**
     * Creates an empty OO7 store with explicit storage-manager options (used for every reopen too; with
     * {@link WriteDetection#CARD_MARKING} the system is named {@code qs-cards}) and object padding.
     */
    public static MappedOo7Store create(Path dir, boolean dropCaches, StoreOptions options, ObjectPadding padding)
            throws IOException {
        return create(dir, false, dropCaches, options, padding);
    }

    /** {@link #create(Path, boolean, StoreOptions, ObjectPadding)} without padding. */
    public static MappedOo7Store create(Path dir, boolean dropCaches, StoreOptions options) throws IOException {
        return create(dir, false, dropCaches, options, ObjectPadding.NONE);
    }

    /** Creates an empty OO7 store in a new temporary directory, deleted again by {@link #close()}. */
    public static MappedOo7Store createTemporary(boolean dropCaches) throws IOException {
        return createTemporary(dropCaches, null, ObjectPadding.NONE);
    }

    /** {@link #createTemporary(boolean)} with padded objects (QS-B). */
    public static MappedOo7Store createTemporary(boolean dropCaches, ObjectPadding padding) throws IOException {
        return createTemporary(dropCaches, null, padding);
    }

    /** {@link #createTemporary(boolean)} with explicit storage-manager options (null: the defaults) and padding. */
    public static MappedOo7Store createTemporary(boolean dropCaches, StoreOptions options, ObjectPadding padding)
            throws IOException {
        return create(Files.createTempDirectory("qs-oo7-"), true, dropCaches, options, padding);
    }

    private static MappedOo7Store create(
            Path dir, boolean temporary, boolean dropCaches, StoreOptions options, ObjectPadding padding)
            throws IOException {
        StoreOpening opening = StoreOpening.embedded(dir, temporary, dropCaches, options, padding);
        return new MappedOo7Store(opening, opening.create());
    }

    /** Opens an OO7 store created by {@link #create} (running recovery if needed). */
    public static MappedOo7Store open(Path dir, boolean dropCaches) throws IOException {
        return open(dir, dropCaches, null, ObjectPadding.NONE);
    }

    /**
     * Opens an OO7 store; objects created from now on are padded by {@code padding} (pass the padding the store
     * was built with, so that SM1's inserts are as large as the built objects).
     */
    public static MappedOo7Store open(Path dir, boolean dropCaches, ObjectPadding padding) throws IOException {
        return open(dir, dropCaches, null, padding);
    }

    /** {@link #open(Path, boolean, StoreOptions, ObjectPadding)} without padding. */
    public static MappedOo7Store open(Path dir, boolean dropCaches, StoreOptions options) throws IOException {
        return open(dir, dropCaches, options, ObjectPadding.NONE);
    }

    /** {@link #open(Path, boolean, ObjectPadding)} with explicit storage-manager options (null: the defaults). */
    public static MappedOo7Store open(Path dir, boolean dropCaches, StoreOptions options, ObjectPadding padding)
            throws IOException {
        StoreOpening opening = StoreOpening.embedded(dir, false, dropCaches, options, padding);
        return new MappedOo7Store(opening, opening.open());
    }

    /**
     * The OO7 database of the page server at {@code uri} (a store built by {@code qs oo7 build} and served by
     * {@code qs serve}), as one of its client processes ({@link PersistentStore#connect}): the same objects and
     * operations over a cache of the server's pages. {@link #makeCold()} disconnects and connects again (an
     * empty client cache; the server's buffer pool stays as it is); the name is {@code "qs-cs"}.
     */
    public static MappedOo7Store connect(String uri, Path secretFile, ObjectPadding padding) throws IOException {
        StoreOpening opening = StoreOpening.client(uri, secretFile, padding);
        return new MappedOo7Store(opening, opening.open());
    }

    /** Whether this store is a page server's client ({@link #connect}). */
    public boolean isClient() {
        return opening.isClient();
    }

    /**
     * {@code "qs"} (page protection, QuickStore), {@code "qs-cards"} (card marking, Hosking and Moss; likewise
     * {@code -objects}, {@code -remsets}, {@code -scan} for their other schemes), {@code "qs-b"} for a store with
     * padded objects (White and DeWitt 1994 section 4; {@code "qs-b-cards"} with both).
     */
    @Override
    public String name() {
        return opening.name();
    }

    /** The padding of the objects this store creates ({@link ObjectPadding#NONE} unless QS-B). */
    public ObjectPadding padding() {
        return opening.padding();
    }

    /**
     * The database size in pages: the volume header's page count (header page included) as of the last
     * checkpoint, so call it after {@link #makeCold()} or on a freshly opened store for the size of the built
     * database (White and DeWitt 1994 Table 2 compares these sizes).
     */
    public long databasePages() throws IOException {
        return opening.databasePages(db);
    }

    /** The store's directory. */
    public Path dir() {
        return opening.dir();
    }

    /** The persistent store underneath (for tests and tools). */
    public PersistentStore persistentStore() {
        return db;
    }

    // ------------------------------------------------------------------------------------------- factory

    private ObjectTransaction tx() {
        if (tx == null) {
            throw new IllegalStateException("no active transaction: call begin() first");
        }
        return tx;
    }

    private static String fixed(String s, int length) {
        if (s.length() > length) {
            throw new IllegalArgumentException("'" + s + "' is longer than " + length + " characters");
        }
        return s;
    }

    @Override
    public Module createModule(int id, String type, int buildDate, Object near) {
        Module m = tx().create(Module.class, near);
        GeneratedSetters.designObj(m, id, fixed(type, DesignObj.TYPE_LENGTH), buildDate);
        indexes.insertUnique(Oo7Indexes.MODULE_BY_ID, id, tx.addressOf(m), "module");
        return m;
    }

    @Override
    public Manual createManual(int id, String title, CharSequence text, Module mod, Object near) {
        Manual man = tx().create(Manual.class, near);
        GeneratedSetters.manual(man, id, title, text, mod); // more than a page: the text blob is a large object
        return man;
    }

    @Override
    public ComplexAssembly createComplexAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        ComplexAssembly a = tx().create(ComplexAssembly.class, near);
        GeneratedSetters.designObj(a, id, fixed(type, DesignObj.TYPE_LENGTH), buildDate);
        GeneratedSetters.assembly(a, module, superAssembly);
        return a;
    }

    @Override
    public BaseAssembly createBaseAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        BaseAssembly a = tx().create(BaseAssembly.class, near);
        GeneratedSetters.designObj(a, id, fixed(type, DesignObj.TYPE_LENGTH), buildDate);
        GeneratedSetters.assembly(a, module, superAssembly);
        indexes.insertUnique(Oo7Indexes.BASE_BY_ID, id, tx.addressOf(a), "base assembly");
        return a;
    }

    @Override
    public CompositePart createCompositePart(int id, String type, int buildDate, Object near) {
        CompositePart cp = tx().create(CompositePart.class, near);
        GeneratedSetters.designObj(cp, id, fixed(type, DesignObj.TYPE_LENGTH), buildDate);
        indexes.insertUnique(Oo7Indexes.COMPOSITE_BY_ID, id, tx.addressOf(cp), "composite part");
        return cp;
    }

    @Override
    public Document createDocument(int id, String title, CharSequence text, CompositePart part, Object near) {
        Document d = tx().create(Document.class, near);
        GeneratedSetters.document(d, fixed(title, Document.TITLE_LENGTH), id, text, part); // a blob near it
        long a = tx.addressOf(d);
        indexes.insertUnique(Oo7Indexes.DOCUMENT_BY_ID, id, a, "document");
        indexes.insertUnique(Oo7Indexes.DOCUMENT_BY_TITLE, title, a, "document title");
        return d;
    }

    @Override
    public AtomicPart createAtomicPart(
            int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf, Object near) {
        AtomicPart p = tx().create(AtomicPart.class, near);
        GeneratedSetters.designObj(p, id, fixed(type, DesignObj.TYPE_LENGTH), buildDate);
        p.x(x);
        p.y(y);
        GeneratedSetters.atomicPart(p, docId, partOf);
        long a = tx.addressOf(p);
        indexes.insertUnique(Oo7Indexes.ATOMIC_BY_ID, id, a, "atomic part");
        indexes.index(Oo7Indexes.ATOMIC_BY_DATE).insertNumeric(Oo7Indexes.dateKey(buildDate, id), a);
        return p;
    }

    @Override
    public Connection createConnection(String type, int length, AtomicPart from, AtomicPart to, Object near) {
        Connection c = tx().create(Connection.class, near);
        GeneratedSetters.connection(c, fixed(type, DesignObj.TYPE_LENGTH), length, from, to);
        return c;
    }

    // ------------------------------------------------------------------------------------------ deletion

    @Override
    public void deleteConnection(Connection connection) {
        tx().delete(connection);
    }

    @Override
    public void deleteAtomicPart(AtomicPart part) {
        long a = tx().addressOf(part);
        indexes.deleteExisting(Oo7Indexes.ATOMIC_BY_ID, part.id(), a);
        indexes.deleteExisting(Oo7Indexes.ATOMIC_BY_DATE, Oo7Indexes.dateKey(part.buildDate(), part.id()), a);
        tx.delete(part);
    }

    @Override
    public void deleteDocument(Document document) {
        long a = tx().addressOf(document);
        indexes.deleteExisting(Oo7Indexes.DOCUMENT_BY_ID, document.id(), a);
        indexes.deleteExisting(Oo7Indexes.DOCUMENT_BY_TITLE, document.title(), a);
        tx.delete(document);
    }

    @Override
    public void deleteCompositePart(CompositePart part) {
        indexes.deleteExisting(Oo7Indexes.COMPOSITE_BY_ID, part.id(), tx().addressOf(part));
        tx.delete(part);
    }

    // ------------------------------------------------------------------------------------------- indexes

    @Override
    public List<Module> modules() {
        List<Module> out = new ArrayList<>();
        indexes.scan(Oo7Indexes.MODULE_BY_ID, Long.MIN_VALUE, Long.MAX_VALUE, Module.class, out::add);
        return Collections.unmodifiableList(out);
    }

    @Override
    public Module moduleById(int id) {
        return indexes.unique(Oo7Indexes.MODULE_BY_ID, id, Module.class);
    }

    @Override
    public AtomicPart atomicPartById(int id) {
        return indexes.unique(Oo7Indexes.ATOMIC_BY_ID, id, AtomicPart.class);
    }

    @Override
    public void scanAtomicPartsByBuildDate(int lo, int hi, Consumer<? super AtomicPart> action) {
        if (lo > hi) {
            return;
        }
        indexes.scan(
                Oo7Indexes.ATOMIC_BY_DATE,
                Oo7Indexes.dateKey(lo, Integer.MIN_VALUE),
                Oo7Indexes.dateKey(hi, Integer.MAX_VALUE),
                AtomicPart.class,
                action);
    }

    @Override
    public void updateBuildDate(AtomicPart part, int buildDate) {
        long a = tx().addressOf(part);
        indexes.deleteExisting(Oo7Indexes.ATOMIC_BY_DATE, Oo7Indexes.dateKey(part.buildDate(), part.id()), a);
        GeneratedSetters.buildDate(part, buildDate);
        indexes.index(Oo7Indexes.ATOMIC_BY_DATE).insertNumeric(Oo7Indexes.dateKey(buildDate, part.id()), a);
    }

    @Override
    public void forEachAtomicPart(Consumer<? super AtomicPart> action) {
        indexes.scan(Oo7Indexes.ATOMIC_BY_ID, Long.MIN_VALUE, Long.MAX_VALUE, AtomicPart.class, action);
    }

    @Override
    public CompositePart compositePartById(int id) {
        return indexes.unique(Oo7Indexes.COMPOSITE_BY_ID, id, CompositePart.class);
    }

    @Override
    public void forEachCompositePart(Consumer<? super CompositePart> action) {
        indexes.scan(Oo7Indexes.COMPOSITE_BY_ID, Long.MIN_VALUE, Long.MAX_VALUE, CompositePart.class, action);
    }

    @Override
    public Document documentByTitle(String title) {
        return title.length() > Document.TITLE_LENGTH
                ? null
                : indexes.unique(Oo7Indexes.DOCUMENT_BY_TITLE, title, Document.class);
    }

    @Override
    public Document documentById(int id) {
        return indexes.unique(Oo7Indexes.DOCUMENT_BY_ID, id, Document.class);
    }

    @Override
    public BaseAssembly baseAssemblyById(int id) {
        return indexes.unique(Oo7Indexes.BASE_BY_ID, id, BaseAssembly.class);
    }

    // -------------------------------------------------------------------------------------- transactions

    @Override
    public void begin() {
        checkOpen();
        if (tx != null) {
            throw new IllegalStateException("transaction already active");
        }
        tx = db.begin();
    }

    @Override
    public void commit() {
        ObjectTransaction t = tx();
        long start = System.nanoTime();
        try {
            t.commit();
        } finally {
            tx = null;
            indexes.endTransaction();
        }
        commitNanos += System.nanoTime() - start;
        commits++;
    }

    /** Whether a transaction is running ({@link #begin} without its commit or abort yet). */
    public boolean inTransaction() {
        return tx != null;
    }

    @Override
    public void abort() {
        ObjectTransaction t = tx();
        try {
            t.abort();
        } finally {
            tx = null;
            indexes.endTransaction();
        }
    }

    // --------------------------------------------------------------------------------- benchmark protocol

    @Override
    public boolean supportsCold() {
        return true;
    }

    /** The store address of a persistent object of this store (inside a transaction): clustering checks. */
    public long addressOf(Object o) {
        return tx().addressOf(o);
    }

    /** Pages whose loads still involve pointer translation (0 once QS-OR committed every translated page). */
    public long pagesNeedingTranslation() {
        checkOpen();
        return db.storageManager().pagesNeedingTranslation();
    }

    /** Pages the storage manager placed away from their preferred frames at the last opening (relocation). */
    public long relocatedPages() {
        checkOpen();
        return db.storageManager().relocatedPages();
    }

    /** Whether the last {@link #makeCold()} also dropped the operating system's page cache. */
    public boolean coldDropsOsCache() {
        return lastColdDroppedOsCache;
    }

    /**
     * Closes and reopens the store: the new arena holds no page, so every page is faulted in again (from the
     * OS page cache, or from disk when {@code dropCaches} was requested and possible).
     */
    @Override
    public void makeCold() {
        checkOpen();
        if (tx != null) {
            throw new IllegalStateException("makeCold() inside a transaction");
        }
        counters.carry(db);
        try {
            db.close();
            db = null;
            lastColdDroppedOsCache = opening.dropOsCacheForCold();
            db = opening.open(); // a client: an empty client cache
            db.objectPadding(opening.padding());
        } catch (IOException e) {
            closed = true;
            throw new UncheckedIOException("reopening the OO7 store in " + opening.dir(), e);
        }
    }

    @Override
    public Map<String, Long> counters() {
        checkOpen();
        return counters.map(db, commits, commitNanos);
    }

    /** Re-reads the resident pages from the volume file; see {@link ColdRun#preadNanos}. */
    @Override
    public long preadNanosOfResidentPages() {
        checkOpen();
        return opening.preadNanosOfResidentPages(db);
    }

    private void checkOpen() {
        if (closed || db == null) {
            throw new IllegalStateException("OO7 store " + opening.location() + " is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        tx = null;
        try {
            opening.close(db);
        } catch (IOException e) {
            throw new UncheckedIOException("closing the OO7 store in " + opening.dir(), e);
        }
    }
}
