package dev.quickstore.peers.lmdb;

import static dev.quickstore.peers.lmdb.LmdbEnvironment.ATOMIC;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.BASE;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.BY_BUILD_DATE;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.BY_TITLE;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.COMPLEX;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.COMPOSITE;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.CONNECTION;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.DOCUMENT;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.MANUAL;
import static dev.quickstore.peers.lmdb.LmdbEnvironment.MODULE;
import static dev.quickstore.peers.lmdb.LmdbRecords.ATOMIC_HEAD;
import static dev.quickstore.peers.lmdb.LmdbRecords.BUILD_DATE;
import static dev.quickstore.peers.lmdb.LmdbRecords.CONNECTION_SIZE;
import static dev.quickstore.peers.lmdb.LmdbRecords.DESIGN_HEAD;

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
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbAtomicPart;
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbBaseAssembly;
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbComplexAssembly;
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbCompositePart;
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbConnection;
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbDocument;
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbManual;
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbModule;
import dev.quickstore.peers.lmdb.LmdbObjects.LmdbObject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.lmdbjava.Cursor;
import org.lmdbjava.GetOp;
import org.lmdbjava.PutFlags;

/**
 * OO7 on LMDB through lmdbjava (issue 17), written the way lmdbjava's users write a data model: one DBI per
 * class keyed by the object's id, records in the compact binary encoding of {@link LmdbRecords} built with
 * {@link ByteBuffer}s, secondary-index DBIs (build date with {@code MDB_DUPSORT}, document title), and the
 * schema interfaces implemented by small view objects ({@link LmdbObjects}) that read and write through the
 * current transaction, with live {@link List} views for the relationship lists. Reads are zero-copy: a view
 * keeps the buffer LMDB returned (a pointer into the memory map) until the next write or the transaction's
 * end ({@link LmdbEnvironment#epoch()}).
 *
 * <p>The id indexes of OO7 (atomic part, composite part, document, base assembly, module by id) are the
 * primary DBIs themselves; connections get ids from a counter in the {@code meta} DBI.
 *
 * <p>Transactions: every OO7 transaction is one LMDB write transaction ({@code begin} = {@code
 * env.txnWrite()}, {@code commit} = {@code Txn.commit()}, {@code abort} = {@code Txn.abort()}). Durability:
 * LMDB's default, without {@code MDB_NOSYNC}/{@code MDB_NOMETASYNC}/{@code MDB_MAPASYNC}: a commit that
 * changed something writes its pages and {@code fdatasync}s the data file before returning (a transaction
 * that changed nothing writes nothing). The map size ({@value #MAP_SIZE_GIB} GiB of address space; the file
 * grows only as data is written) holds the medium database with room for copy-on-write.
 *
 * <p>Cold runs ({@link #makeCold()}): the environment is closed, the data file's pages are dropped from the
 * OS page cache with {@link PageCacheEviction} ({@code posix_fadvise DONTNEED}, no root needed), and the
 * environment is reopened.
 *
 * <p>This class is the OO7 store: the records it creates and deletes, the indexes and the connection id counter;
 * the environment, its DBIs, the transaction and record access by (DBI, id) are {@link LmdbEnvironment}'s.
 */
public final class LmdbOo7Store implements Oo7Store {
    /** The map size: reserved address space, not file size. */
    static final long MAP_SIZE_GIB = LmdbEnvironment.MAP_SIZE_GIB;

    /** The environment, its DBIs, the current transaction and record access (the views read through it). */
    final LmdbEnvironment env;

    private int nextConnection;
    private boolean nextConnectionDirty;
    private long commits;
    private long aborts;

    private final ByteBuffer dateKey = ByteBuffer.allocateDirect(4);

    private LmdbOo7Store(LmdbEnvironment env) {
        this.env = env;
        this.nextConnection = env.committedMeta(LmdbEnvironment.NEXT_CONNECTION_KEY);
    }

    /** Opens the LMDB environment in {@code dir} (creating the directory and an empty database if needed). */
    public static LmdbOo7Store open(Path dir) {
        return new LmdbOo7Store(LmdbEnvironment.open(dir));
    }

    /** LMDB's data file in the environment directory. */
    public Path dataFile() {
        return env.dataFile();
    }

    /** Sets a {@code meta} entry in the current transaction (tests write other format versions with it). */
    void setMeta(String name, int value) {
        env.setMeta(name, value);
    }

    @Override
    public String name() {
        return "lmdb";
    }

    // ------------------------------------------------------------------------------------- factory

    private ByteBuffer designHead(String type, int buildDate, int a, int b, int lists) {
        ByteBuffer o = env.out(DESIGN_HEAD + 4 * lists);
        LmdbRecords.putType(o, type);
        o.putInt(LmdbRecords.BUILD_DATE, buildDate);
        o.putInt(LmdbRecords.FIELD_A, a);
        o.putInt(LmdbRecords.FIELD_B, b);
        for (int i = 0; i < lists; i++) {
            o.putInt(DESIGN_HEAD + 4 * i, 0);
        }
        return o;
    }

    private static int id(Object o) {
        return o == null ? 0 : ((LmdbObject) o).id;
    }

    @Override
    public Module createModule(int id, String type, int buildDate, Object near) {
        env.putNew(MODULE, id, designHead(type, buildDate, 0, 0, 1));
        return new LmdbModule(this, id);
    }

    @Override
    public Manual createManual(int id, String title, CharSequence text, Module mod, Object near) {
        env.putNew(MANUAL, id, textRecord(id(mod), title, text));
        return new LmdbManual(this, id);
    }

    private ByteBuffer textRecord(int ref, String title, CharSequence text) {
        int textAt = 4 + LmdbRecords.stringSize(title);
        ByteBuffer o = env.out(textAt + LmdbRecords.textSize(text));
        o.putInt(0, ref);
        LmdbRecords.putString(o, 4, title);
        LmdbRecords.putText(o, textAt, text);
        return o;
    }

    @Override
    public ComplexAssembly createComplexAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        env.putNew(COMPLEX, id, designHead(type, buildDate, id(superAssembly), id(module), 1));
        return new LmdbComplexAssembly(this, id);
    }

    @Override
    public BaseAssembly createBaseAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        env.putNew(BASE, id, designHead(type, buildDate, id(superAssembly), id(module), 2));
        return new LmdbBaseAssembly(this, id);
    }

    @Override
    public CompositePart createCompositePart(int id, String type, int buildDate, Object near) {
        env.putNew(COMPOSITE, id, designHead(type, buildDate, 0, 0, 3));
        return new LmdbCompositePart(this, id);
    }

    @Override
    public Document createDocument(int id, String title, CharSequence text, CompositePart part, Object near) {
        if (title.length() > Document.TITLE_LENGTH) {
            throw new IllegalArgumentException("title '" + title + "' longer than " + Document.TITLE_LENGTH);
        }
        ByteBuffer tk = titleKey(title);
        if (!env.dbi(BY_TITLE).put(env.txn(), tk, env.intValue(id), PutFlags.MDB_NOOVERWRITE)) {
            throw new IllegalArgumentException("a document titled '" + title + "' exists already");
        }
        env.putNew(DOCUMENT, id, textRecord(id(part), title, text));
        return new LmdbDocument(this, id);
    }

    private ByteBuffer titleKey(String title) {
        return env.titleKey(title.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public AtomicPart createAtomicPart(
            int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf, Object near) {
        ByteBuffer o = env.out(ATOMIC_HEAD + 8);
        LmdbRecords.putType(o, type);
        o.putInt(BUILD_DATE, buildDate)
                .putInt(LmdbRecords.X, x)
                .putInt(LmdbRecords.Y, y)
                .putInt(LmdbRecords.DOC_ID, docId)
                .putInt(LmdbRecords.PART_OF, id(partOf))
                .putInt(ATOMIC_HEAD, 0)
                .putInt(ATOMIC_HEAD + 4, 0);
        env.putNew(ATOMIC, id, o);
        indexBuildDate(id, buildDate, true);
        return new LmdbAtomicPart(this, id);
    }

    private ByteBuffer dateKey(int date) {
        dateKey.clear();
        dateKey.putInt(0, date ^ Integer.MIN_VALUE); // byte order = numeric order
        return dateKey;
    }

    private void indexBuildDate(int id, int date, boolean add) {
        ByteBuffer dk = dateKey(date);
        ByteBuffer v = env.intValue(id);
        if (add) {
            env.dbi(BY_BUILD_DATE).put(env.txn(), dk, v, PutFlags.MDB_NODUPDATA);
        } else if (!env.dbi(BY_BUILD_DATE).delete(env.txn(), dk, v)) {
            throw new IllegalStateException("build-date index has no entry (" + date + ", " + id + ")");
        }
        env.wrote();
    }

    @Override
    public Connection createConnection(String type, int length, AtomicPart from, AtomicPart to, Object near) {
        int id = nextConnection++;
        nextConnectionDirty = true;
        ByteBuffer o = env.out(CONNECTION_SIZE);
        LmdbRecords.putType(o, type);
        o.putInt(LmdbRecords.LENGTH, length).putInt(LmdbRecords.FROM, id(from)).putInt(LmdbRecords.TO, id(to));
        env.putNew(CONNECTION, id, o);
        return new LmdbConnection(this, id);
    }

    // ------------------------------------------------------------------------------------ deletion

    @Override
    public void deleteConnection(Connection connection) {
        env.delete(CONNECTION, id(connection));
    }

    @Override
    public void deleteAtomicPart(AtomicPart part) {
        int date = part.buildDate();
        env.delete(ATOMIC, id(part));
        indexBuildDate(id(part), date, false);
    }

    @Override
    public void deleteDocument(Document document) {
        String title = document.title();
        env.delete(DOCUMENT, id(document));
        if (!env.dbi(BY_TITLE).delete(env.txn(), titleKey(title))) {
            throw new IllegalStateException("title index has no '" + title + "'");
        }
        env.wrote();
    }

    @Override
    public void deleteCompositePart(CompositePart part) {
        env.delete(COMPOSITE, id(part));
    }

    // ------------------------------------------------------------------------------------- indexes

    @Override
    public List<Module> modules() {
        List<Module> modules = new ArrayList<>();
        forEach(MODULE, id -> new LmdbModule(this, id), o -> modules.add((Module) o));
        return Collections.unmodifiableList(modules);
    }

    @Override
    public Module moduleById(int id) {
        return env.find(MODULE, id) == null ? null : new LmdbModule(this, id);
    }

    @Override
    public AtomicPart atomicPartById(int id) {
        ByteBuffer r = env.find(ATOMIC, id);
        return r == null ? null : new LmdbAtomicPart(this, id).preset(r, env.epoch());
    }

    @Override
    public void scanAtomicPartsByBuildDate(int lo, int hi, Consumer<? super AtomicPart> action) {
        if (lo > hi) {
            return;
        }
        // collect first: the action may write, which would invalidate the cursor's position
        int[] ids = new int[64];
        int n = 0;
        try (Cursor<ByteBuffer> c = env.dbi(BY_BUILD_DATE).openCursor(env.txn())) {
            boolean ok = c.get(dateKey(lo), GetOp.MDB_SET_RANGE);
            while (ok && (c.key().getInt(0) ^ Integer.MIN_VALUE) <= hi) {
                if (n == ids.length) {
                    ids = java.util.Arrays.copyOf(ids, n * 2);
                }
                ids[n++] = c.val().getInt(0);
                ok = c.next();
            }
        }
        for (int i = 0; i < n; i++) {
            action.accept(new LmdbAtomicPart(this, ids[i]));
        }
    }

    @Override
    public void updateBuildDate(AtomicPart part, int buildDate) {
        int id = id(part);
        int old = part.buildDate();
        if (old == buildDate) {
            return;
        }
        indexBuildDate(id, old, false);
        indexBuildDate(id, buildDate, true);
        env.setInt(ATOMIC, id, BUILD_DATE, buildDate);
    }

    @Override
    public void forEachAtomicPart(Consumer<? super AtomicPart> action) {
        forEach(ATOMIC, id -> new LmdbAtomicPart(this, id), o -> action.accept((AtomicPart) o));
    }

    @Override
    public CompositePart compositePartById(int id) {
        ByteBuffer r = env.find(COMPOSITE, id);
        return r == null ? null : new LmdbCompositePart(this, id).preset(r, env.epoch());
    }

    @Override
    public void forEachCompositePart(Consumer<? super CompositePart> action) {
        forEach(COMPOSITE, id -> new LmdbCompositePart(this, id), o -> action.accept((CompositePart) o));
    }

    /**
     * Walks DBI {@code kind} in key order with a cursor, handing each object to {@code action} with the record
     * the cursor found; if the action writes, the cursor is positioned again after the last key.
     */
    private void forEach(int kind, IntFunction<? extends LmdbObject> make, Consumer<LmdbObject> action) {
        try (Cursor<ByteBuffer> c = env.dbi(kind).openCursor(env.txn())) {
            boolean ok = c.first();
            while (ok) {
                int id = c.key().getInt(0);
                long before = env.epoch();
                LmdbObject object = make.apply(id);
                object.preset(c.val().duplicate(), before);
                action.accept(object);
                ok = env.epoch() == before ? c.next() : c.get(env.seekKey(id + 1), GetOp.MDB_SET_RANGE);
            }
        }
    }

    @Override
    public Document documentByTitle(String title) {
        ByteBuffer id = env.dbi(BY_TITLE).get(env.txn(), titleKey(title));
        return id == null ? null : new LmdbDocument(this, id.getInt(0));
    }

    @Override
    public Document documentById(int id) {
        ByteBuffer r = env.find(DOCUMENT, id);
        return r == null ? null : new LmdbDocument(this, id).preset(r, env.epoch());
    }

    @Override
    public BaseAssembly baseAssemblyById(int id) {
        ByteBuffer r = env.find(BASE, id);
        return r == null ? null : new LmdbBaseAssembly(this, id).preset(r, env.epoch());
    }

    // -------------------------------------------------------------------------------- transactions

    @Override
    public void begin() {
        env.begin();
    }

    @Override
    public void commit() {
        env.commit(() -> {
            if (nextConnectionDirty) {
                env.setMeta(LmdbEnvironment.NEXT_CONNECTION_KEY, nextConnection);
            }
        });
        nextConnectionDirty = false;
        commits++;
    }

    @Override
    public void abort() {
        env.abort();
        aborts++;
        if (nextConnectionDirty) {
            nextConnection = env.committedMeta(LmdbEnvironment.NEXT_CONNECTION_KEY);
            nextConnectionDirty = false;
        }
    }

    // -------------------------------------------------------------------------- benchmark protocol

    @Override
    public boolean supportsCold() {
        return true;
    }

    /** Closes the environment, drops the data file from the OS page cache and reopens the environment. */
    @Override
    public void makeCold() {
        env.reopenCold();
        nextConnection = env.committedMeta(LmdbEnvironment.NEXT_CONNECTION_KEY);
    }

    /** {@code commits}, {@code aborts}, and {@code dbPages}: the pages in use in LMDB's file. */
    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("commits", commits);
        c.put("aborts", aborts);
        c.put("dbPages", env.pagesInUse());
        return c;
    }

    @Override
    public void close() {
        env.close();
    }
}
