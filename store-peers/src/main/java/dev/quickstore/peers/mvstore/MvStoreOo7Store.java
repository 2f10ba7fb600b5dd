package dev.quickstore.peers.mvstore;

import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import dev.quickstore.peers.PageCacheEviction;
import dev.quickstore.peers.mvstore.MvObjects.MvAtomicPart;
import dev.quickstore.peers.mvstore.MvObjects.MvBaseAssembly;
import dev.quickstore.peers.mvstore.MvObjects.MvComplexAssembly;
import dev.quickstore.peers.mvstore.MvObjects.MvCompositePart;
import dev.quickstore.peers.mvstore.MvObjects.MvConnection;
import dev.quickstore.peers.mvstore.MvObjects.MvDocument;
import dev.quickstore.peers.mvstore.MvObjects.MvManual;
import dev.quickstore.peers.mvstore.MvObjects.MvModule;
import dev.quickstore.peers.mvstore.MvRecords.Atomic;
import dev.quickstore.peers.mvstore.MvRecords.Base;
import dev.quickstore.peers.mvstore.MvRecords.Complex;
import dev.quickstore.peers.mvstore.MvRecords.Composite;
import dev.quickstore.peers.mvstore.MvRecords.Conn;
import dev.quickstore.peers.mvstore.MvRecords.Doc;
import dev.quickstore.peers.mvstore.MvRecords.Man;
import dev.quickstore.peers.mvstore.MvRecords.Mod;
import dev.quickstore.peers.mvstore.MvRecords.Rec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.IntegerDataType;
import org.h2.mvstore.type.LongDataType;
import org.h2.mvstore.type.StringDataType;

/**
 * OO7 on H2's MVStore (H2 2.5.252, issue 17), written the way MVStore's users write a data model: one
 * {@link MVMap} per class keyed by the object's id whose values are immutable Java records ({@link MvRecords})
 * stored with a custom {@link org.h2.mvstore.type.DataType} ({@link MvRecordType}); index maps for the atomic
 * parts' build date (a composite {@code long} key {@code buildDate << 32 | id}, so duplicates and range scans are
 * a plain ordered map) and documents' titles. The schema interfaces are implemented by small views
 * ({@link MvObjects}) that read the current record from the map and update by putting a changed copy. The id
 * indexes of OO7 are the per-class maps themselves; connections get ids from a counter in the {@code meta} map.
 *
 * <p>Transactions: {@code begin} only marks the start; {@code commit} is {@link MVStore#commit()} (which writes
 * a new chunk with every changed page) followed by {@link MVStore#sync()}; {@code abort} is {@link
 * MVStore#rollback()} to the last committed version. Durability: MVStore's {@code commit()} writes the chunk
 * but does not force it to disk ({@code FileChannel.force} is called only by {@code sync()}, {@code close()}
 * and compaction, H2 2.5.252's {@code SingleFileStore.sync}), so this store calls {@code sync()} after every
 * commit that wrote something: fsync on commit, like LMDB's default and QuickStore/J. The background
 * auto-commit of MVStore is disabled ({@code autoCommitDisabled()}) so that only OO7's commits write.
 *
 * <p>Cold runs ({@link #makeCold()}): the store is closed (dropping MVStore's page cache, 16 MiB by default),
 * the file is dropped from the OS page cache with {@link PageCacheEviction} and the store is reopened.
 */
public final class MvStoreOo7Store implements Oo7Store {
    /** The version of the record encoding, in {@code meta/"format"}; a file of another version is refused. */
    public static final int FORMAT_VERSION = 1;

    private static final String FORMAT_KEY = "format", NEXT_CONNECTION_KEY = "nextConnection";

    private final Path file;
    private MVStore store;
    MVMap<Integer, Rec> atomic, connection, composite, document, manual, module, complex, base;
    private MVMap<Long, Integer> byBuildDate;
    private MVMap<String, Integer> byTitle;
    private MVMap<String, Integer> meta;

    private boolean inTransaction;
    private boolean closed;
    private long epoch;
    private int nextConnection;
    private long commits, syncs, aborts;

    private MvStoreOo7Store(Path file) {
        this.file = file;
    }

    /** Opens (creating if needed) the MVStore file {@code oo7.mv.db} in {@code dir}. */
    public static MvStoreOo7Store open(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("creating the MVStore directory " + dir, e);
        }
        MvStoreOo7Store s = new MvStoreOo7Store(dir.resolve("oo7.mv.db"));
        s.openStore();
        return s;
    }

    /** The MVStore file. */
    public Path file() {
        return file;
    }

    private void openStore() {
        store = new MVStore.Builder()
                .fileName(file.toString())
                .autoCommitDisabled()
                .open();
        try {
            atomic = records("atomicPart");
            connection = records("connection");
            composite = records("compositePart");
            document = records("document");
            manual = records("manual");
            module = records("module");
            complex = records("complexAssembly");
            base = records("baseAssembly");
            byBuildDate = store.openMap(
                    "atomicPartByBuildDate",
                    new MVMap.Builder<Long, Integer>()
                            .keyType(LongDataType.INSTANCE)
                            .valueType(IntegerDataType.INSTANCE));
            byTitle = store.openMap(
                    "documentByTitle",
                    new MVMap.Builder<String, Integer>()
                            .keyType(StringDataType.INSTANCE)
                            .valueType(IntegerDataType.INSTANCE));
            meta = store.openMap(
                    "meta",
                    new MVMap.Builder<String, Integer>()
                            .keyType(StringDataType.INSTANCE)
                            .valueType(IntegerDataType.INSTANCE));
            Integer format = meta.get(FORMAT_KEY);
            if (format == null) {
                meta.put(FORMAT_KEY, FORMAT_VERSION);
                meta.put(NEXT_CONNECTION_KEY, 1);
                store.commit();
                store.sync();
            } else if (format != FORMAT_VERSION) {
                throw new IllegalStateException("MVStore OO7 database " + file + " has format version " + format
                        + ", expected " + FORMAT_VERSION);
            }
            nextConnection = meta.get(NEXT_CONNECTION_KEY);
        } catch (RuntimeException e) {
            store.closeImmediately();
            throw e;
        }
        epoch++;
    }

    private MVMap<Integer, Rec> records(String name) {
        return store.openMap(
                name,
                new MVMap.Builder<Integer, Rec>()
                        .keyType(IntegerDataType.INSTANCE)
                        .valueType(MvRecordType.INSTANCE));
    }

    @Override
    public String name() {
        return "mvstore";
    }

    // ------------------------------------------------------------------------------- record access

    /** Bumped by every write, transaction boundary and reopening: records read before may be stale. */
    long epoch() {
        return epoch;
    }

    private void checkTx() {
        if (!inTransaction) {
            throw new IllegalStateException(closed ? "MVStore " + file + " is closed" : "no active transaction");
        }
    }

    void put(MVMap<Integer, Rec> map, int id, Rec r) {
        checkTx();
        map.put(id, r);
        epoch++;
    }

    private void putNew(MVMap<Integer, Rec> map, int id, Rec r) {
        checkTx();
        if (map.putIfAbsent(id, r) != null) {
            throw new IllegalArgumentException(map.getName() + " " + id + " exists already in " + file);
        }
        epoch++;
    }

    private void delete(MVMap<Integer, Rec> map, int id) {
        checkTx();
        if (map.remove(id) == null) {
            throw new IllegalStateException("no " + map.getName() + " with id " + id + " to delete in " + file);
        }
        epoch++;
    }

    private static int id(Object o) {
        return o == null ? 0 : MvObjects.idOf(o);
    }

    private static String checkType(String type) {
        if (type.length() > dev.quickstore.oo7.schema.DesignObj.TYPE_LENGTH) {
            throw new IllegalArgumentException("type '" + type + "' longer than 10 characters");
        }
        return type;
    }

    private static final int[] NONE = {};

    // ------------------------------------------------------------------------------------- factory

    @Override
    public Module createModule(int id, String type, int buildDate, Object near) {
        putNew(module, id, new Mod(checkType(type), buildDate, 0, 0, NONE));
        return new MvModule(this, id);
    }

    @Override
    public Manual createManual(int id, String title, CharSequence text, Module mod, Object near) {
        putNew(manual, id, new Man(title, id(mod), text.toString()));
        return new MvManual(this, id);
    }

    @Override
    public ComplexAssembly createComplexAssembly(
            int id, String type, int buildDate, Module mod, ComplexAssembly superAssembly, Object near) {
        putNew(complex, id, new Complex(checkType(type), buildDate, id(superAssembly), id(mod), NONE));
        return new MvComplexAssembly(this, id);
    }

    @Override
    public BaseAssembly createBaseAssembly(
            int id, String type, int buildDate, Module mod, ComplexAssembly superAssembly, Object near) {
        putNew(base, id, new Base(checkType(type), buildDate, id(superAssembly), id(mod), NONE, NONE));
        return new MvBaseAssembly(this, id);
    }

    @Override
    public CompositePart createCompositePart(int id, String type, int buildDate, Object near) {
        putNew(composite, id, new Composite(checkType(type), buildDate, 0, 0, NONE, NONE, NONE));
        return new MvCompositePart(this, id);
    }

    @Override
    public Document createDocument(int id, String title, CharSequence text, CompositePart part, Object near) {
        if (title.length() > Document.TITLE_LENGTH) {
            throw new IllegalArgumentException("title '" + title + "' longer than " + Document.TITLE_LENGTH);
        }
        checkTx();
        if (byTitle.putIfAbsent(title, id) != null) {
            throw new IllegalArgumentException("a document titled '" + title + "' exists already in " + file);
        }
        putNew(document, id, new Doc(title, id(part), text.toString()));
        return new MvDocument(this, id);
    }

    private static long dateKey(int date, int id) {
        return ((long) date << 32) | (id & 0xffff_ffffL);
    }

    @Override
    public AtomicPart createAtomicPart(
            int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf, Object near) {
        putNew(atomic, id, new Atomic(checkType(type), buildDate, x, y, docId, id(partOf), NONE, NONE));
        byBuildDate.put(dateKey(buildDate, id), id);
        return new MvAtomicPart(this, id);
    }

    @Override
    public Connection createConnection(String type, int length, AtomicPart from, AtomicPart to, Object near) {
        int id = nextConnection++;
        putNew(connection, id, new Conn(checkType(type), length, id(from), id(to)));
        return new MvConnection(this, id);
    }

    // ------------------------------------------------------------------------------------ deletion

    @Override
    public void deleteConnection(Connection c) {
        delete(connection, id(c));
    }

    @Override
    public void deleteAtomicPart(AtomicPart part) {
        int date = part.buildDate();
        delete(atomic, id(part));
        if (byBuildDate.remove(dateKey(date, id(part))) == null) {
            throw new IllegalStateException("build-date index has no entry (" + date + ", " + id(part) + ")");
        }
    }

    @Override
    public void deleteDocument(Document doc) {
        String title = doc.title();
        delete(document, id(doc));
        if (byTitle.remove(title) == null) {
            throw new IllegalStateException("title index has no '" + title + "'");
        }
    }

    @Override
    public void deleteCompositePart(CompositePart part) {
        delete(composite, id(part));
    }

    // ------------------------------------------------------------------------------------- indexes

    @Override
    public List<Module> modules() {
        checkTx();
        List<Module> modules = new ArrayList<>();
        for (Iterator<Integer> it = module.keyIterator(null); it.hasNext(); ) {
            modules.add(new MvModule(this, it.next()));
        }
        return Collections.unmodifiableList(modules);
    }

    @Override
    public Module moduleById(int id) {
        checkTx();
        return module.containsKey(id) ? new MvModule(this, id) : null;
    }

    @Override
    public AtomicPart atomicPartById(int id) {
        checkTx();
        return atomic.containsKey(id) ? new MvAtomicPart(this, id) : null;
    }

    @Override
    public void scanAtomicPartsByBuildDate(int lo, int hi, Consumer<? super AtomicPart> action) {
        checkTx();
        if (lo > hi) {
            return;
        }
        // MVMap cursors iterate a snapshot of the map's root, so the action may write
        Cursor<Long, Integer> c = byBuildDate.cursor(dateKey(lo, 0), dateKey(hi, -1), false); // ids > 0
        while (c.hasNext()) {
            c.next();
            action.accept(new MvAtomicPart(this, c.getValue()));
        }
    }

    @Override
    public void updateBuildDate(AtomicPart part, int buildDate) {
        checkTx();
        int id = id(part);
        int old = part.buildDate();
        if (old == buildDate) {
            return;
        }
        byBuildDate.remove(dateKey(old, id));
        byBuildDate.put(dateKey(buildDate, id), id);
        ((MvAtomicPart) part).buildDate(buildDate);
    }

    @Override
    public void forEachAtomicPart(Consumer<? super AtomicPart> action) {
        checkTx();
        Cursor<Integer, Rec> c = atomic.cursor(null);
        while (c.hasNext()) {
            action.accept(new MvAtomicPart(this, c.next()));
        }
    }

    @Override
    public CompositePart compositePartById(int id) {
        checkTx();
        return composite.containsKey(id) ? new MvCompositePart(this, id) : null;
    }

    @Override
    public void forEachCompositePart(Consumer<? super CompositePart> action) {
        checkTx();
        Cursor<Integer, Rec> c = composite.cursor(null);
        while (c.hasNext()) {
            action.accept(new MvCompositePart(this, c.next()));
        }
    }

    @Override
    public Document documentByTitle(String title) {
        checkTx();
        Integer id = byTitle.get(title);
        return id == null ? null : new MvDocument(this, id);
    }

    @Override
    public Document documentById(int id) {
        checkTx();
        return document.containsKey(id) ? new MvDocument(this, id) : null;
    }

    @Override
    public BaseAssembly baseAssemblyById(int id) {
        checkTx();
        return base.containsKey(id) ? new MvBaseAssembly(this, id) : null;
    }

    // -------------------------------------------------------------------------------- transactions

    @Override
    public void begin() {
        if (closed) {
            throw new IllegalStateException("MVStore " + file + " is closed");
        }
        if (inTransaction) {
            throw new IllegalStateException("transaction already active");
        }
        inTransaction = true;
        epoch++;
    }

    @Override
    public void commit() {
        checkTx();
        try {
            if (meta.get(NEXT_CONNECTION_KEY) != nextConnection) {
                meta.put(NEXT_CONNECTION_KEY, nextConnection);
            }
            if (store.hasUnsavedChanges()) {
                store.commit(); // writes a chunk
                store.sync(); // FileChannel.force(true): the chunk is on disk
                syncs++;
            }
            commits++;
        } finally {
            inTransaction = false;
            epoch++;
        }
    }

    @Override
    public void abort() {
        checkTx();
        try {
            store.rollback(); // back to the last committed version
            nextConnection = meta.get(NEXT_CONNECTION_KEY);
            aborts++;
        } finally {
            inTransaction = false;
            epoch++;
        }
    }

    // -------------------------------------------------------------------------- benchmark protocol

    @Override
    public boolean supportsCold() {
        return true;
    }

    /** Closes the store, drops its file from the OS page cache and opens it again. */
    @Override
    public void makeCold() {
        if (inTransaction) {
            throw new IllegalStateException("makeCold() inside a transaction");
        }
        if (closed) {
            throw new IllegalStateException("MVStore " + file + " is closed");
        }
        store.close();
        epoch++;
        PageCacheEviction.evict(file);
        openStore();
    }

    /** {@code commits}, {@code syncs} (commits that wrote a chunk and forced it), {@code aborts}. */
    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("commits", commits);
        c.put("syncs", syncs);
        c.put("aborts", aborts);
        return c;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        epoch++;
        if (inTransaction) {
            inTransaction = false;
            store.rollback();
        }
        store.close();
    }
}
