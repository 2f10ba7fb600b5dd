package dev.quickstore.peers.lmdb;

import dev.quickstore.peers.PageCacheEviction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

/**
 * The LMDB side of {@link LmdbOo7Store} (issue 17): the environment in one directory with one DBI per OO7 class
 * keyed by id, the two secondary-index DBIs and the {@code meta} DBI (the format version of {@link LmdbRecords} and
 * the connection id counter), the current write transaction, and record access by (DBI, id) through reusable direct
 * key and value buffers. Every write, transaction boundary and reopening bumps the {@link #epoch()}: a buffer read
 * before is stale (LMDB returns pointers into its memory map, valid until the next write or the transaction's end).
 *
 * <p>Durability: LMDB's default, without {@code MDB_NOSYNC}/{@code MDB_NOMETASYNC}/{@code MDB_MAPASYNC}: a commit
 * that changed something writes its pages and {@code fdatasync}s the data file before returning. The map size
 * ({@value #MAP_SIZE_GIB} GiB of address space; the file grows only as data is written) holds the medium database
 * with room for copy-on-write. A cold reopening ({@link #reopenCold()}) drops the data file from the OS page cache
 * with {@link PageCacheEviction} in between.
 */
final class LmdbEnvironment {
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
    private static final String FORMAT_KEY = "format";
    static final String NEXT_CONNECTION_KEY = "nextConnection";

    private final Path dir;
    private Env<ByteBuffer> env;

    @SuppressWarnings({"unchecked", "rawtypes"})
    private final Dbi<ByteBuffer>[] dbis = new Dbi[DBI_NAMES.length];

    private Txn<ByteBuffer> txn;
    private long epoch;
    private boolean closed;

    private final ByteBuffer key = ByteBuffer.allocateDirect(4);
    private final ByteBuffer seekKey = ByteBuffer.allocateDirect(4);
    private final ByteBuffer idValue = ByteBuffer.allocateDirect(4);
    private final ByteBuffer titleKey = ByteBuffer.allocateDirect(511); // LMDB's default maximum key size
    private ByteBuffer out = ByteBuffer.allocateDirect(4096);

    private LmdbEnvironment(Path dir) {
        this.dir = dir;
    }

    /** Opens the environment in {@code dir} (creating the directory and an empty database if needed). */
    static LmdbEnvironment open(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("creating the LMDB directory " + dir, e);
        }
        LmdbEnvironment e = new LmdbEnvironment(dir);
        e.openEnv();
        return e;
    }

    Path dir() {
        return dir;
    }

    /** LMDB's data file in the environment directory. */
    Path dataFile() {
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
            } else {
                int version = format.getInt(0);
                if (version != LmdbRecords.FORMAT_VERSION) {
                    throw new IllegalStateException("LMDB OO7 database " + dataFile() + " has format version " + version
                            + ", expected " + LmdbRecords.FORMAT_VERSION);
                }
            }
            t.commit();
        } catch (RuntimeException e) {
            env.close();
            throw e;
        }
        epoch++;
    }

    /** The {@code meta} entry {@code name} as committed (read in a read transaction of its own). */
    int committedMeta(String name) {
        try (Txn<ByteBuffer> r = env.txnRead()) {
            return dbis[META].get(r, metaKey(name)).getInt(0);
        }
    }

    /** Sets a {@code meta} entry in the current transaction. */
    void setMeta(String name, int value) {
        dbis[META].put(txn(), metaKey(name), intValue(value));
        epoch++;
    }

    private ByteBuffer metaKey(String name) {
        titleKey.clear();
        titleKey.put(name.getBytes(StandardCharsets.US_ASCII)).flip();
        return titleKey;
    }

    /** {@code v} in the reusable 4-byte value buffer. */
    ByteBuffer intValue(int v) {
        idValue.clear();
        idValue.putInt(0, v);
        return idValue;
    }

    /** {@code bytes} in the reusable key buffer of LMDB's maximum key size (the title index's keys). */
    ByteBuffer titleKey(byte[] bytes) {
        if (bytes.length == 0 || bytes.length > titleKey.capacity()) {
            throw new IllegalArgumentException("title of " + bytes.length + " bytes cannot be an LMDB key");
        }
        titleKey.clear();
        titleKey.put(bytes).flip();
        return titleKey;
    }

    /** {@code id} in the reusable seek key buffer (a cursor's repositioning). */
    ByteBuffer seekKey(int id) {
        return intKey(seekKey, id);
    }

    /** Bumped by every write, transaction boundary and reopening: buffers read before are stale. */
    long epoch() {
        return epoch;
    }

    /** A write that did not go through this class (an index DBI's): buffers read before are stale. */
    void wrote() {
        epoch++;
    }

    /** DBI {@code kind}. */
    Dbi<ByteBuffer> dbi(int kind) {
        return dbis[kind];
    }

    /** The current write transaction. */
    Txn<ByteBuffer> txn() {
        if (txn == null) {
            throw new IllegalStateException(closed ? "LMDB store " + dir + " is closed" : "no active transaction");
        }
        return txn;
    }

    private static ByteBuffer intKey(ByteBuffer buffer, int id) {
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

    void putNew(int kind, int id, ByteBuffer value) {
        if (!dbis[kind].put(txn(), intKey(key, id), value, PutFlags.MDB_NOOVERWRITE)) {
            throw new IllegalArgumentException(DBI_NAMES[kind] + " " + id + " exists already in " + dataFile());
        }
        epoch++;
    }

    void delete(int kind, int id) {
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

    /** Starts the write transaction ({@code env.txnWrite()}). */
    void begin() {
        if (closed) {
            throw new IllegalStateException("LMDB store " + dir + " is closed");
        }
        if (txn != null) {
            throw new IllegalStateException("transaction already active");
        }
        txn = env.txnWrite();
        epoch++;
    }

    /**
     * Commits the write transaction: writes and fdatasyncs the data file when the transaction changed anything.
     * {@code beforeCommit} runs first, in the transaction (its last writes).
     */
    void commit(Runnable beforeCommit) {
        Txn<ByteBuffer> t = txn();
        try {
            beforeCommit.run();
            t.commit();
        } finally {
            t.close();
            txn = null;
            epoch++;
        }
    }

    void abort() {
        Txn<ByteBuffer> t = txn();
        try {
            t.abort();
        } finally {
            t.close();
            txn = null;
            epoch++;
        }
    }

    /** Closes the environment, drops the data file from the OS page cache and reopens the environment. */
    void reopenCold() {
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

    /** The pages in use in LMDB's file (0 once closed). */
    long pagesInUse() {
        return closed ? 0 : env.info().lastPageNumber + 1;
    }

    void close() {
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
