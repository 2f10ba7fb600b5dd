package dev.quickstore.lab.oo1;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Index;
import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.oo7.mapped.ColdRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * OO1 on the mapped store (QuickStore's coarse-grained address translation: stored references are virtual
 * addresses, pages come in by protection faults; or, with {@code Relocation.TEXAS}, Texas's: stored references are
 * persistent pointers swizzled when their page is faulted in, frames reserved one step ahead, docs/texas-mode.md): generated {@code Oo1Part$Impl}/{@code Oo1Connection$Impl}
 * objects, each part's connections allocated near it, and an index on part ids: a unique B+tree ({@value #ID_INDEX};
 * {@link IdIndex#BTREE}, whose values Texas mode converts on use: the paper's "smart index") or a persistent array
 * of raw references ({@link IdIndex#PART_ARRAY}, {@link PartArrayIndex}: the paper's "all-raw" index, swizzled
 * with its page).
 * {@link #makeCold} closes and reopens the store (an empty arena; with {@code dropOsCache} the operating system's
 * page cache is emptied too where the process may).
 */
public final class MappedOo1Database implements Oo1Database {
    /** The index of parts by id. */
    public static final String ID_INDEX = "oo1.part.id";

    private static final Class<?>[] TYPES = {Oo1Part.class, Oo1Connection.class, Oo1PartArray.class};

    /** How parts are found by id (Kakkad and Wilson 1999 section 5: smart vs raw index references). */
    public enum IdIndex {
        /**
         * A unique B+tree of ids ({@value #ID_INDEX}); its values are addresses in the store's disk form, converted
         * on each lookup (in Texas mode a smart reference: a leaf reserves no frames for the parts it lists).
         */
        BTREE,
        /**
         * A persistent array of part references ({@link Oo1PartArray}); in Texas mode a leaf of the array is
         * swizzled when its page is faulted in and reserves frames for every part it refers to (all-raw).
         */
        PART_ARRAY
    }

    private final Path dir;
    private final StoreOptions options;
    private final boolean dropOsCache;
    private final IdIndex idIndex;
    private PersistentStore db;
    private ObjectTransaction tx;
    private Index ids;
    private List<Oo1Part> partArray;
    private long carriedPages;
    private long carriedFaults;

    private MappedOo1Database(
            Path dir, StoreOptions options, boolean dropOsCache, IdIndex idIndex, PersistentStore db) {
        this.dir = dir;
        this.options = options;
        this.dropOsCache = dropOsCache;
        this.idIndex = idIndex;
        this.db = db;
    }

    /** Creates an empty OO1 store in {@code dir} (which must not hold a store) with the B+tree index of ids. */
    public static MappedOo1Database create(Path dir, StoreOptions options, boolean dropOsCache) throws IOException {
        return create(dir, options, dropOsCache, IdIndex.BTREE);
    }

    /** Creates an empty OO1 store in {@code dir} (which must not hold a store) with the given index of ids. */
    public static MappedOo1Database create(Path dir, StoreOptions options, boolean dropOsCache, IdIndex idIndex)
            throws IOException {
        PersistentStore db = PersistentStore.create(dir, options, TYPES);
        try (ObjectTransaction t = db.begin()) {
            if (idIndex == IdIndex.BTREE) {
                t.storeTransaction().createIndex(ID_INDEX, KeyType.INT, 0, true);
            } else {
                PartArrayIndex.create(t);
            }
            t.commit();
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return new MappedOo1Database(dir, options, dropOsCache, idIndex, db);
    }

    /** Opens an OO1 store made by {@link #create} with the B+tree index (recovering it if needed). */
    public static MappedOo1Database open(Path dir, StoreOptions options, boolean dropOsCache) throws IOException {
        return open(dir, options, dropOsCache, IdIndex.BTREE);
    }

    /** Opens an OO1 store made by {@link #create} with {@code idIndex} (recovering it if needed). */
    public static MappedOo1Database open(Path dir, StoreOptions options, boolean dropOsCache, IdIndex idIndex)
            throws IOException {
        return new MappedOo1Database(dir, options, dropOsCache, idIndex, PersistentStore.open(dir, options, TYPES));
    }

    /**
     * {@code texas} for a Texas store ({@code Relocation.TEXAS}: swizzling at fault time), else {@code qs}; with
     * {@code -raw} appended for the part array index ({@link IdIndex#PART_ARRAY}: Texas's "all-raw").
     */
    @Override
    public String name() {
        String system = options.relocation() == dev.quickstore.core.options.Relocation.TEXAS ? "texas" : "qs";
        return idIndex == IdIndex.PART_ARRAY ? system + "-raw" : system;
    }

    @Override
    public long framesReserved() {
        var t = db.storageManager().texasCounters();
        return t != null ? t.framesReserved() : db.storageManager().pageCount();
    }

    /** Texas mode's counters of the current session (null for {@code qs}). */
    public dev.quickstore.mmu.TexasCounters texasCounters() {
        return db.storageManager().texasCounters();
    }

    @Override
    public void begin() {
        if (tx != null) {
            throw new IllegalStateException("a transaction is already running");
        }
        tx = db.begin();
        if (idIndex == IdIndex.BTREE) {
            ids = tx.storeTransaction().index(ID_INDEX);
        } else {
            partArray = PartArrayIndex.parts(tx);
        }
    }

    @Override
    public void commit() {
        ObjectTransaction t = tx();
        tx = null;
        ids = null;
        partArray = null;
        t.commit();
    }

    private ObjectTransaction tx() {
        if (tx == null) {
            throw new IllegalStateException("no transaction: call begin() first");
        }
        return tx;
    }

    @Override
    public Oo1Part partById(int id) {
        tx();
        if (partArray != null) {
            return PartArrayIndex.get(partArray, id);
        }
        long[] a = ids.lookup(id);
        return a.length == 0 ? null : tx.get(a[0], Oo1Part.class);
    }

    @Override
    public Oo1Part createPart(int id, String type, int x, int y, long build) {
        Oo1Part$Impl p = (Oo1Part$Impl) tx().create(Oo1Part.class);
        p.id(id);
        p.type(type);
        p.x(x);
        p.y(y);
        p.build(build);
        if (partArray != null) {
            PartArrayIndex.add(partArray, id, p);
            return p;
        }
        try {
            ids.insert(id, tx.addressOf(p));
        } catch (DuplicateKeyException e) {
            throw new IllegalArgumentException("duplicate part id " + id, e);
        }
        return p;
    }

    @Override
    public Oo1Connection connect(Oo1Part from, Oo1Part to, String type, int length) {
        Oo1Connection$Impl c = (Oo1Connection$Impl) tx().create(Oo1Connection.class, from);
        c.type(type);
        c.length(length);
        c.from(from);
        if (to != null) {
            c.to(to);
        }
        from.to().add(c);
        return c;
    }

    @Override
    public void retarget(Oo1Connection c, Oo1Part to) {
        tx();
        ((Oo1Connection$Impl) c).to(to);
    }

    @Override
    public void makeCold() {
        if (tx != null) {
            throw new IllegalStateException("makeCold() inside a transaction");
        }
        carriedPages = pagesRead();
        carriedFaults = faults();
        try {
            db.close();
            db = null;
            if (dropOsCache) {
                ColdRun.dropOsCache();
            }
            db = PersistentStore.open(dir, options, TYPES);
        } catch (IOException e) {
            throw new UncheckedIOException("reopening the OO1 store in " + dir, e);
        }
    }

    @Override
    public long pagesRead() {
        // the data plane's reads (faults, in C) and the control plane's (buffer-pool fixes, in Java) are disjoint
        var f = db.storageManager().faultCounters();
        long faulted = f == null ? 0 : f.bytesRead() / db.storageManager().pageSize();
        return carriedPages + faulted + db.storageManager().stats().pageReads();
    }

    @Override
    public long faults() {
        var f = db.storageManager().faultCounters();
        return carriedFaults + (f == null ? 0 : f.readFaults() + f.writeFaults() + f.referenceFaults());
    }

    /** Pages of the store's volume (the database's size, with the store's own pages). */
    public long pageCount() {
        return db.storageManager().pageCount();
    }

    @Override
    public void close() {
        try {
            if (tx != null) {
                tx.abort();
                tx = null;
                ids = null;
                partArray = null;
            }
            if (db != null) {
                db.close();
                db = null;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("closing the OO1 store in " + dir, e);
        }
    }
}
