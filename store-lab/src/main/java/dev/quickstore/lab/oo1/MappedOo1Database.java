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

/**
 * OO1 on the mapped store (QuickStore's coarse-grained address translation: stored references are virtual
 * addresses, pages come in by protection faults; or, with {@code Relocation.TEXAS}, Texas's: stored references are
 * persistent pointers swizzled when their page is faulted in, frames reserved one step ahead, docs/texas-mode.md): generated {@code Oo1Part$Impl}/{@code Oo1Connection$Impl}
 * objects, each part's connections allocated near it, and a unique B+tree index on part ids ({@value #ID_INDEX}).
 * {@link #makeCold} closes and reopens the store (an empty arena; with {@code dropOsCache} the operating system's
 * page cache is emptied too where the process may).
 */
public final class MappedOo1Database implements Oo1Database {
    /** The index of parts by id. */
    public static final String ID_INDEX = "oo1.part.id";

    private static final Class<?>[] TYPES = {Oo1Part.class, Oo1Connection.class};

    private final Path dir;
    private final StoreOptions options;
    private final boolean dropOsCache;
    private PersistentStore db;
    private ObjectTransaction tx;
    private Index ids;
    private long carriedPages;
    private long carriedFaults;

    private MappedOo1Database(Path dir, StoreOptions options, boolean dropOsCache, PersistentStore db) {
        this.dir = dir;
        this.options = options;
        this.dropOsCache = dropOsCache;
        this.db = db;
    }

    /** Creates an empty OO1 store in {@code dir} (which must not hold a store). */
    public static MappedOo1Database create(Path dir, StoreOptions options, boolean dropOsCache) throws IOException {
        PersistentStore db = PersistentStore.create(dir, options, TYPES);
        try (ObjectTransaction t = db.begin()) {
            t.storeTransaction().createIndex(ID_INDEX, KeyType.INT, 0, true);
            t.commit();
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return new MappedOo1Database(dir, options, dropOsCache, db);
    }

    /** Opens an OO1 store made by {@link #create} (recovering it if needed). */
    public static MappedOo1Database open(Path dir, StoreOptions options, boolean dropOsCache) throws IOException {
        return new MappedOo1Database(dir, options, dropOsCache, PersistentStore.open(dir, options, TYPES));
    }

    /** {@code texas} for a Texas store ({@code Relocation.TEXAS}: swizzling at fault time), else {@code qs}. */
    @Override
    public String name() {
        return options.relocation() == dev.quickstore.core.options.Relocation.TEXAS ? "texas" : "qs";
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
        ids = tx.storeTransaction().index(ID_INDEX);
    }

    @Override
    public void commit() {
        ObjectTransaction t = tx();
        tx = null;
        ids = null;
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
