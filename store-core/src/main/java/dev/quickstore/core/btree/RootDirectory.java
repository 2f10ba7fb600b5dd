package dev.quickstore.core.btree;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.space.ExtentAllocator;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Named roots, and the catalog of named indexes: two unique {@link BPlusTree}s keyed by names of up to
 * {@value #NAME_BYTES} UTF-8 bytes, whose meta pages are recorded in the volume header
 * ({@link VolumeHeader#rootsMetaPage()}, {@link VolumeHeader#indexesMetaPage()}). Roots map a name to an
 * object reference; the index catalog maps a name to the meta page of the index's B+tree. Both are
 * created by the first transaction that needs them, so they are logged and recovered like any page.
 */
public final class RootDirectory {
    static final int NAME_BYTES = 64;
    private final BufferPool pool;
    private final ExtentAllocator extents;
    /**
     * Trees of committed catalog entries opened before ({@link #index}): the catalog lookup and the meta page's read
     * once per name. A {@link BPlusTree} holds only what its meta page fixed at creation (key type, key length,
     * uniqueness), scratch of one descent and what it keeps under the pool's stamps (its root, its lookups' answers),
     * used under the store's latch, so one object serves every transaction.
     */
    private final Map<String, BPlusTree> trees = new ConcurrentHashMap<>();

    public RootDirectory(BufferPool pool, ExtentAllocator extents) {
        this.pool = pool;
        this.extents = extents;
    }

    private BPlusTree tree(int headerOffset, boolean create) throws IOException {
        long meta = pool.fix(0).get(PageHeader.LONG, headerOffset);
        if (meta == 0) {
            if (!create) {
                return null;
            }
            BPlusTree t = BPlusTree.create(pool, extents, KeyType.STRING, NAME_BYTES, true, 2);
            MemorySegment h = pool.fixForStoreWrite(0);
            h.set(PageHeader.LONG, headerOffset, t.metaPage);
            return t;
        }
        return BPlusTree.open(pool, extents, meta);
    }

    public BPlusTree roots(boolean create) throws IOException {
        return tree(VolumeHeader.ROOTS_META_OFFSET, create);
    }

    public BPlusTree indexCatalog(boolean create) throws IOException {
        return tree(VolumeHeader.INDEXES_META_OFFSET, create);
    }

    public void setRoot(String name, long ref) throws IOException {
        BPlusTree t = roots(true);
        long[] old = t.lookup(name);
        if (old.length > 0) {
            t.delete(name, old[0]);
        }
        t.insert(name, ref);
    }

    public long root(String name) throws IOException {
        BPlusTree t = roots(false);
        if (t == null) {
            return 0;
        }
        long[] v = t.lookup(name);
        return v.length == 0 ? 0 : v[0];
    }

    public boolean removeRoot(String name) throws IOException {
        BPlusTree t = roots(false);
        if (t == null) {
            return false;
        }
        long[] v = t.lookup(name);
        return v.length > 0 && t.delete(name, v[0]);
    }

    public Map<String, Long> roots() throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        BPlusTree t = roots(false);
        if (t != null) {
            t.scan(null, null, (k, v) -> {
                out.put((String) k, v);
                return true;
            });
        }
        return out;
    }

    public BPlusTree createIndex(String name, KeyType type, int keyLength, boolean unique) throws IOException {
        BPlusTree cat = indexCatalog(true);
        if (cat.lookup(name).length > 0) {
            throw new DuplicateKeyException("an index named \"" + name + "\" already exists");
        }
        BPlusTree t = BPlusTree.create(pool, extents, type, keyLength, unique, 0);
        cat.insert(name, t.metaPage);
        return t;
    }

    /**
     * The index named {@code name}. Its meta page is looked up in the catalog and its tree opened once, and the tree
     * is then remembered, if {@code remember} (the caller's transaction created no index, so the entry is committed:
     * an entry the running transaction created disappears if it aborts). Invariant: the catalog only grows (there is
     * no dropping an index), a committed entry's meta page never changes (a tree's root moves inside its meta page)
     * and neither do the key type, key length and uniqueness written there at creation, so a remembered tree stays
     * right for the life of this directory, that is, of the open store (which runs one transaction at a time, so no
     * other transaction's uncommitted entry is seen); a page server's client sees other clients' committed pages
     * only, and they can only add names.
     *
     * @throws StoreException if there is no such index
     */
    public BPlusTree index(String name, boolean remember) throws IOException {
        BPlusTree known = remembered(name);
        if (known != null) {
            return known;
        }
        BPlusTree cat = indexCatalog(false);
        long[] meta = cat == null ? new long[0] : cat.lookup(name);
        if (meta.length == 0) {
            throw new StoreException("no index named \"" + name + "\"");
        }
        BPlusTree t = BPlusTree.open(pool, extents, meta[0]);
        if (remember) {
            trees.put(name, t);
        }
        return t;
    }

    /**
     * The tree of index {@code name} if {@link #index} remembered it, else null: one lookup in a concurrent map, safe
     * without the store's latch (a remembered tree stays right for the life of the open store, see there).
     */
    public BPlusTree remembered(String name) {
        return trees.get(name);
    }

    public Map<String, Long> indexes() throws IOException {
        Map<String, Long> out = new LinkedHashMap<>();
        BPlusTree t = indexCatalog(false);
        if (t != null) {
            t.scan(null, null, (k, v) -> {
                out.put((String) k, v);
                return true;
            });
        }
        return out;
    }
}
