package dev.quickstore.peers.lmdb;

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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.GetOp;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/**
 * OO7 on LMDB through lmdbjava (issue 17), written the way lmdbjava's users write a data model: one DBI per
 * class keyed by the object's id, records in the compact binary encoding of {@link LmdbRecords} built with
 * {@link ByteBuffer}s, secondary-index DBIs (build date with {@code MDB_DUPSORT}, document title), and the
 * schema interfaces implemented by small view objects ({@link LmdbObjects}) that read and write through the
 * current transaction, with live {@link List} views for the relationship lists. Reads are zero-copy: a view
 * keeps the buffer LMDB returned (a pointer into the memory map) until the next write or the transaction's
 * end ({@link #epoch()}).
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
 */
public final class LmdbOo7Store implements Oo7Store {
    /** The map size: reserved address space, not file size. */
    static final long MAP_SIZE_GIB = 16;

    static final int ATOMIC = 0, CONNECTION = 1, COMPOSITE = 2, DOCUMENT = 3, MANUAL = 4, MODULE = 5;
    static final int COMPLEX = 6, BASE = 7, BY_BUILD_DATE = 8, BY_TITLE = 9, META = 10;
    private static final String[] DBI_NAMES = {
        "atomicPart",
        "connection",
        "compositePart",
        "document",
        "manual",
        "module",
        "complexAssembly",
        "baseAssembly",
        "atomicPartByBuildDate",
        "documentByTitle",
        "meta"
    };
    private static final String FORMAT_KEY = "format", NEXT_CONNECTION_KEY = "nextConnection";

    private final Path dir;
    private Env<ByteBuffer> env;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private final Dbi<ByteBuffer>[] dbis = new Dbi[DBI_NAMES.length];

    private Txn<ByteBuffer> txn;
    private long epoch;
    private int nextConnection;
    private boolean nextConnectionDirty;
    private boolean closed;
    private long commits;
    private long aborts;

    private final ByteBuffer key = ByteBuffer.allocateDirect(4);
    private final ByteBuffer seekKey = ByteBuffer.allocateDirect(4);
    private final ByteBuffer dateKey = ByteBuffer.allocateDirect(4);
    private final ByteBuffer idValue = ByteBuffer.allocateDirect(4);
    private final ByteBuffer titleKey = ByteBuffer.allocateDirect(511); // LMDB's default maximum key size
    private ByteBuffer out = ByteBuffer.allocateDirect(4096);

    private LmdbOo7Store(Path dir) {
        this.dir = dir;
    }

    /** Opens the LMDB environment in {@code dir} (creating the directory and an empty database if needed). */
    public static LmdbOo7Store open(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("creating the LMDB directory " + dir, e);
        }
        LmdbOo7Store store = new LmdbOo7Store(dir);
        store.openEnv();
        return store;
    }

    /** LMDB's data file in the environment directory. */
    public Path dataFile() {
        return dir.resolve("data.mdb");
    }

    private void openEnv() {
        env = Env.create()
                .setMapSize(MAP_SIZE_GIB << 30)
                .setMaxDbs(DBI_NAMES.length)
                .open(dir.toFile()); // no EnvFlags: LMDB's durable default (fsync on commit)
        try (Txn<ByteBuffer> t = env.txnWrite()) {
            for (int i = 0; i < DBI_NAMES.length; i++) {
                DbiFlags[] flags = i == BY_BUILD_DATE
                        ? new DbiFlags[] {DbiFlags.MDB_CREATE, DbiFlags.MDB_DUPSORT, DbiFlags.MDB_DUPFIXED}
                        : new DbiFlags[] {DbiFlags.MDB_CREATE};
                dbis[i] = env.openDbi(t, DBI_NAMES[i].getBytes(StandardCharsets.US_ASCII), null, false, flags);
            }
            ByteBuffer format = dbis[META].get(t, metaKey(FORMAT_KEY));
            if (format == null) {
                dbis[META].put(t, metaKey(FORMAT_KEY), intValue(LmdbRecords.FORMAT_VERSION));
                dbis[META].put(t, metaKey(NEXT_CONNECTION_KEY), intValue(1));
                nextConnection = 1;
            } else {
                int version = format.getInt(0);
                if (version != LmdbRecords.FORMAT_VERSION) {
                    throw new IllegalStateException("LMDB OO7 database " + dataFile() + " has format version " + version
                            + ", expected " + LmdbRecords.FORMAT_VERSION);
                }
                nextConnection = dbis[META].get(t, metaKey(NEXT_CONNECTION_KEY)).getInt(0);
            }
            t.commit();
        } catch (RuntimeException e) {
            env.close();
            throw e;
        }
        epoch++;
    }

    /** Sets a {@code meta} entry in the current transaction (tests write other format versions with it). */
    void setMeta(String name, int value) {
        dbis[META].put(txn(), metaKey(name), intValue(value));
        epoch++;
    }

    private ByteBuffer metaKey(String name) {
        titleKey.clear();
        titleKey.put(name.getBytes(StandardCharsets.US_ASCII)).flip();
        return titleKey;
    }

    private ByteBuffer intValue(int v) {
        idValue.clear();
        idValue.putInt(0, v);
        return idValue;
    }

    @Override
    public String name() {
        return "lmdb";
    }

    // ------------------------------------------------------------------------------- record access

    /** Bumped by every write, transaction boundary and reopening: buffers read before are stale. */
    long epoch() {
        return epoch;
    }

    private Txn<ByteBuffer> txn() {
        if (txn == null) {
            throw new IllegalStateException(closed ? "LMDB store " + dir + " is closed" : "no active transaction");
        }
        return txn;
    }

    private ByteBuffer intKey(ByteBuffer buffer, int id) {
        buffer.clear();
        buffer.putInt(0, id);
        return buffer;
    }

    /** The record of {@code id} in DBI {@code kind} (a read-only view into the map), or null. */
    ByteBuffer find(int kind, int id) {
        ByteBuffer found = dbis[kind].get(txn(), intKey(key, id));
        return found == null ? null : found.duplicate(); // lmdbjava reuses its value buffer on the next get
    }

    ByteBuffer record(int kind, int id) {
        ByteBuffer r = find(kind, id);
        if (r == null) {
            throw new IllegalStateException("no " + DBI_NAMES[kind] + " with id " + id + " in " + dataFile());
        }
        return r;
    }

    /** A cleared direct buffer of at least {@code size} bytes, limit {@code size}. */
    ByteBuffer out(int size) {
        if (out.capacity() < size) {
            out = ByteBuffer.allocateDirect(Math.max(size, out.capacity() * 2));
        }
        out.clear().limit(size);
        return out;
    }

    void put(int kind, int id, ByteBuffer value) {
        dbis[kind].put(txn(), intKey(key, id), value);
        epoch++;
    }

    private void putNew(int kind, int id, ByteBuffer value) {
        if (!dbis[kind].put(txn(), intKey(key, id), value, PutFlags.MDB_NOOVERWRITE)) {
            throw new IllegalArgumentException(DBI_NAMES[kind] + " " + id + " exists already in " + dataFile());
        }
        epoch++;
    }

    private void delete(int kind, int id) {
        if (!dbis[kind].delete(txn(), intKey(key, id))) {
            throw new IllegalStateException("no " + DBI_NAMES[kind] + " with id " + id + " to delete");
        }
        epoch++;
    }

    /** Rewrites the 4-byte field at {@code offset} of a record. */
    void setInt(int kind, int id, int offset, int value) {
        ByteBuffer r = record(kind, id);
        ByteBuffer o = out(r.limit());
        o.put(0, r, 0, r.limit());
        o.putInt(offset, value);
        put(kind, id, o);
    }

    /** Rewrites a record with one list edited ({@link LmdbRecords#editList}). */
    void editList(int kind, int id, int head, int list, int index, int value, int delta) {
        ByteBuffer r = record(kind, id);
        put(kind, id, LmdbRecords.editList(r, head, list, index, value, delta, out(r.limit() + 4)));
    }

    // ------------------------------------------------------------------------------------- factory

    private ByteBuffer designHead(String type, int buildDate, int a, int b, int lists) {
        ByteBuffer o = out(DESIGN_HEAD + 4 * lists);
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
        putNew(MODULE, id, designHead(type, buildDate, 0, 0, 1));
        return new LmdbModule(this, id);
    }

    @Override
    public Manual createManual(int id, String title, CharSequence text, Module mod, Object near) {
        putNew(MANUAL, id, textRecord(id(mod), title, text));
        return new LmdbManual(this, id);
    }

    private ByteBuffer textRecord(int ref, String title, CharSequence text) {
        int textAt = 4 + LmdbRecords.stringSize(title);
        ByteBuffer o = out(textAt + LmdbRecords.textSize(text));
        o.putInt(0, ref);
        LmdbRecords.putString(o, 4, title);
        LmdbRecords.putText(o, textAt, text);
        return o;
    }

    @Override
    public ComplexAssembly createComplexAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        putNew(COMPLEX, id, designHead(type, buildDate, id(superAssembly), id(module), 1));
        return new LmdbComplexAssembly(this, id);
    }

    @Override
    public BaseAssembly createBaseAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        putNew(BASE, id, designHead(type, buildDate, id(superAssembly), id(module), 2));
        return new LmdbBaseAssembly(this, id);
    }

    @Override
    public CompositePart createCompositePart(int id, String type, int buildDate, Object near) {
        putNew(COMPOSITE, id, designHead(type, buildDate, 0, 0, 3));
        return new LmdbCompositePart(this, id);
    }

    @Override
    public Document createDocument(int id, String title, CharSequence text, CompositePart part, Object near) {
        if (title.length() > Document.TITLE_LENGTH) {
            throw new IllegalArgumentException("title '" + title + "' longer than " + Document.TITLE_LENGTH);
        }
        ByteBuffer tk = titleKey(title);
        if (!dbis[BY_TITLE].put(txn(), tk, intValue(id), PutFlags.MDB_NOOVERWRITE)) {
            throw new IllegalArgumentException("a document titled '" + title + "' exists already");
        }
        putNew(DOCUMENT, id, textRecord(id(part), title, text));
        return new LmdbDocument(this, id);
    }

    private ByteBuffer titleKey(String title) {
        byte[] bytes = title.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0 || bytes.length > titleKey.capacity()) {
            throw new IllegalArgumentException("title of " + bytes.length + " bytes cannot be an LMDB key");
        }
        titleKey.clear();
        titleKey.put(bytes).flip();
        return titleKey;
    }

    @Override
    public AtomicPart createAtomicPart(
            int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf, Object near) {
        ByteBuffer o = out(ATOMIC_HEAD + 8);
        LmdbRecords.putType(o, type);
        o.putInt(BUILD_DATE, buildDate)
                .putInt(LmdbRecords.X, x)
                .putInt(LmdbRecords.Y, y)
                .putInt(LmdbRecords.DOC_ID, docId)
                .putInt(LmdbRecords.PART_OF, id(partOf))
                .putInt(ATOMIC_HEAD, 0)
                .putInt(ATOMIC_HEAD + 4, 0);
        putNew(ATOMIC, id, o);
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
        ByteBuffer v = intValue(id);
        if (add) {
            dbis[BY_BUILD_DATE].put(txn(), dk, v, PutFlags.MDB_NODUPDATA);
        } else if (!dbis[BY_BUILD_DATE].delete(txn(), dk, v)) {
            throw new IllegalStateException("build-date index has no entry (" + date + ", " + id + ")");
        }
        epoch++;
    }

    @Override
    public Connection createConnection(String type, int length, AtomicPart from, AtomicPart to, Object near) {
        int id = nextConnection++;
        nextConnectionDirty = true;
        ByteBuffer o = out(CONNECTION_SIZE);
        LmdbRecords.putType(o, type);
        o.putInt(LmdbRecords.LENGTH, length).putInt(LmdbRecords.FROM, id(from)).putInt(LmdbRecords.TO, id(to));
        putNew(CONNECTION, id, o);
        return new LmdbConnection(this, id);
    }

    // ------------------------------------------------------------------------------------ deletion

    @Override
    public void deleteConnection(Connection connection) {
        delete(CONNECTION, id(connection));
    }

    @Override
    public void deleteAtomicPart(AtomicPart part) {
        int date = part.buildDate();
        delete(ATOMIC, id(part));
        indexBuildDate(id(part), date, false);
    }

    @Override
    public void deleteDocument(Document document) {
        String title = document.title();
        delete(DOCUMENT, id(document));
        if (!dbis[BY_TITLE].delete(txn(), titleKey(title))) {
            throw new IllegalStateException("title index has no '" + title + "'");
        }
        epoch++;
    }

    @Override
    public void deleteCompositePart(CompositePart part) {
        delete(COMPOSITE, id(part));
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
        return find(MODULE, id) == null ? null : new LmdbModule(this, id);
    }

    @Override
    public AtomicPart atomicPartById(int id) {
        ByteBuffer r = find(ATOMIC, id);
        return r == null ? null : new LmdbAtomicPart(this, id).preset(r, epoch);
    }

    @Override
    public void scanAtomicPartsByBuildDate(int lo, int hi, Consumer<? super AtomicPart> action) {
        if (lo > hi) {
            return;
        }
        // collect first: the action may write, which would invalidate the cursor's position
        int[] ids = new int[64];
        int n = 0;
        try (Cursor<ByteBuffer> c = dbis[BY_BUILD_DATE].openCursor(txn())) {
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
        setInt(ATOMIC, id, BUILD_DATE, buildDate);
    }

    @Override
    public void forEachAtomicPart(Consumer<? super AtomicPart> action) {
        forEach(ATOMIC, id -> new LmdbAtomicPart(this, id), o -> action.accept((AtomicPart) o));
    }

    @Override
    public CompositePart compositePartById(int id) {
        ByteBuffer r = find(COMPOSITE, id);
        return r == null ? null : new LmdbCompositePart(this, id).preset(r, epoch);
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
        try (Cursor<ByteBuffer> c = dbis[kind].openCursor(txn())) {
            boolean ok = c.first();
            while (ok) {
                int id = c.key().getInt(0);
                long before = epoch;
                LmdbObject object = make.apply(id);
                object.preset(c.val().duplicate(), before);
                action.accept(object);
                ok = epoch == before ? c.next() : c.get(intKey(seekKey, id + 1), GetOp.MDB_SET_RANGE);
            }
        }
    }

    @Override
    public Document documentByTitle(String title) {
        ByteBuffer id = dbis[BY_TITLE].get(txn(), titleKey(title));
        return id == null ? null : new LmdbDocument(this, id.getInt(0));
    }

    @Override
    public Document documentById(int id) {
        ByteBuffer r = find(DOCUMENT, id);
        return r == null ? null : new LmdbDocument(this, id).preset(r, epoch);
    }

    @Override
    public BaseAssembly baseAssemblyById(int id) {
        ByteBuffer r = find(BASE, id);
        return r == null ? null : new LmdbBaseAssembly(this, id).preset(r, epoch);
    }

    // -------------------------------------------------------------------------------- transactions

    @Override
    public void begin() {
        if (closed) {
            throw new IllegalStateException("LMDB store " + dir + " is closed");
        }
        if (txn != null) {
            throw new IllegalStateException("transaction already active");
        }
        txn = env.txnWrite();
        epoch++;
    }

    @Override
    public void commit() {
        Txn<ByteBuffer> t = txn();
        try {
            if (nextConnectionDirty) {
                dbis[META].put(t, metaKey(NEXT_CONNECTION_KEY), intValue(nextConnection));
            }
            t.commit(); // writes and fdatasyncs the data file when the transaction changed anything
            nextConnectionDirty = false;
            commits++;
        } finally {
            t.close();
            txn = null;
            epoch++;
        }
    }

    @Override
    public void abort() {
        Txn<ByteBuffer> t = txn();
        try {
            t.abort();
            aborts++;
        } finally {
            t.close();
            txn = null;
            epoch++;
        }
        if (nextConnectionDirty) {
            try (Txn<ByteBuffer> r = env.txnRead()) {
                nextConnection = dbis[META].get(r, metaKey(NEXT_CONNECTION_KEY)).getInt(0);
            }
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
        if (txn != null) {
            throw new IllegalStateException("makeCold() inside a transaction");
        }
        if (closed) {
            throw new IllegalStateException("LMDB store " + dir + " is closed");
        }
        env.close();
        epoch++;
        PageCacheEviction.evict(dataFile());
        openEnv();
    }

    /** {@code commits}, {@code aborts}, and {@code dbPages}: the pages in use in LMDB's file. */
    @Override
    public Map<String, Long> counters() {
        Map<String, Long> c = new LinkedHashMap<>();
        c.put("commits", commits);
        c.put("aborts", aborts);
        c.put("dbPages", closed ? 0 : env.info().lastPageNumber + 1);
        return c;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            if (txn != null) {
                txn.abort();
                txn.close();
                txn = null;
            }
        } finally {
            closed = true;
            epoch++;
            env.close();
        }
    }
}
