package dev.quickstore.lab.cricket;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentObject;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.SlottedPage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The benchmark tree in a mapped store (Shekita and Zwilling 1990, section 6.2), and the traversals over it: the
 * same code as {@link HeapTree} over {@link TreeNode} proxies, with the same digests.
 *
 * <p><b>Layout: twelve nodes per page.</b> The paper padded its nodes "so that data pages ... contained the same
 * number of nodes, namely 12"; so does this class, with the object API's {@link ObjectPadding}: every node gets
 * enough extra bytes after its fields (a 104-byte {@link TreeNode}) that exactly {@link TreeShape#nodesPerPage()}
 * of them fill a slotted page, {@code ((pageSize - dataStart) / 12 - slot) & ~7} = 664 bytes a node with 8 KiB
 * pages (13 would need at most 608). The nodes are created in preorder in one transaction without a placement
 * hint: the allocator then fills the page of the previous allocation and takes a fresh page when it is full
 * ({@code ObjectAllocator}; the first allocation of a transaction starts a fresh page), so every page holds twelve
 * consecutive nodes of a depth-first pass and the paper's tree spans 1,343 pages of its own. (With Cricket's near
 * hint, the previous node, the allocator would first fill the other pages of the hint's extent that have room,
 * and in a 259-node test tree the schema catalog's page took ten nodes.) {@link
 * #treePages()} counts the distinct pages the nodes landed on.
 *
 * <p><b>Cold and hot.</b> {@link #reopen} closes the store and opens it again: the new arena has no page resident,
 * so the next traversal faults in every page it touches, from the operating system's page cache as it is (the
 * paper's Table 4 runs had the whole tree in Mach's kernel memory and paid a fault and an exception per page).
 * Traversals in the same opening afterwards are hot: no fault.
 */
public final class MappedTree implements AutoCloseable {
    /** The named root holding the tree's root node. */
    public static final String ROOT = "cricket.tree";

    private final Path dir;
    private final TreeShape shape;
    private final int treePages;
    private PersistentStore db;

    private MappedTree(Path dir, TreeShape shape, int treePages, PersistentStore db) {
        this.dir = dir;
        this.shape = shape;
        this.treePages = treePages;
        this.db = db;
    }

    /**
     * Creates a store in {@code dir} (which must not hold one) and builds the complete tree of {@code shape} in one
     * transaction, keys in preorder, nodes padded to {@code shape.nodesPerPage()} a page.
     */
    public static MappedTree create(Path dir, TreeShape shape, StoreOptions options) throws IOException {
        PersistentStore db = PersistentStore.create(dir, options, TreeNode.class);
        boolean ok = false;
        try {
            db.objectPadding(padding(db, shape));
            Set<Long> pages = new HashSet<>();
            try (ObjectTransaction tx = db.begin()) {
                TreeNode root = build(
                        tx, shape, 0, new int[] {0}, pages, db.storageManager().pageSize());
                tx.root(ROOT, root);
                tx.commit();
            }
            ok = true;
            return new MappedTree(dir, shape, pages.size(), db);
        } finally {
            if (!ok) {
                db.close();
            }
        }
    }

    /** The padding that makes {@code shape.nodesPerPage()} nodes fill a slotted page of this store. */
    static ObjectPadding padding(PersistentStore db, TreeShape shape) {
        int pageSize = db.storageManager().pageSize();
        int natural = db.schema().get(TreeNode.class.getName()).size();
        int perNode =
                ((pageSize - SlottedPage.dataStart(pageSize)) / shape.nodesPerPage() - SlottedPage.SLOT_SIZE) & ~7;
        if (perNode < natural) {
            throw new IllegalArgumentException(
                    shape.nodesPerPage() + " nodes of " + natural + " bytes do not fit a " + pageSize + "-byte page");
        }
        return new ObjectPadding(perNode - natural, 0);
    }

    private static TreeNode build(
            ObjectTransaction tx, TreeShape shape, int level, int[] next, Set<Long> pages, int ps) {
        TreeNode n = tx.create(TreeNode.class); // no hint: the previous allocation's page, then a fresh one
        n.key(next[0]++);
        pages.add(PersistentObject.addressOf(n) / ps);
        if (level < shape.depth()) {
            for (int i = 0; i < shape.fanout(); i++) {
                TreeNode.child(n, i, build(tx, shape, level + 1, next, pages, ps));
            }
        }
        return n;
    }

    /**
     * Opens the store again: a fresh arena with no page resident (the next traversal is cold). {@code options}
     * may differ from the previous opening's (e.g. the commit logging mode).
     */
    public void reopen(StoreOptions options) {
        try {
            db.close();
            db = null;
            db = PersistentStore.open(dir, options, TreeNode.class);
        } catch (IOException e) {
            throw new UncheckedIOException("reopening the tree store in " + dir, e);
        }
    }

    /** The tree's shape. */
    public TreeShape shape() {
        return shape;
    }

    /** Distinct pages the nodes were placed on at build time (the paper's 1,343 for its tree). */
    public int treePages() {
        return treePages;
    }

    /** The store's directory. */
    public Path dir() {
        return dir;
    }

    /** The storage manager of the current opening (counters, page size). */
    public Store storageManager() {
        return db.storageManager();
    }

    /** Starts a transaction of the current opening. */
    public ObjectTransaction begin() {
        return db.begin();
    }

    /** The root node, as seen by {@code tx}. */
    public static TreeNode root(ObjectTransaction tx) {
        TreeNode r = tx.root(ROOT, TreeNode.class);
        if (r == null) {
            throw new IllegalStateException("no tree under root '" + ROOT + "'");
        }
        return r;
    }

    /** One depth-first pass from {@code root}, following every child edge; the digest of {@link HeapTree#pass}. */
    public static long pass(TreeNode root) {
        return pass(root, 17);
    }

    private static long pass(TreeNode n, long h) {
        h = 31 * h + n.key();
        for (int i = 0; i < TreeNode.MAX_FANOUT; i++) {
            TreeNode c = TreeNode.child(n, i);
            if (c == null) {
                break;
            }
            h = pass(c, h);
        }
        return h;
    }

    /** Searches {@code from} to {@code to} of {@code paths}; the digest of {@link HeapTree#search}. */
    public static long search(TreeNode root, SearchPaths paths, int from, int to) {
        long h = 17;
        for (int s = from; s < to; s++) {
            TreeNode n = root;
            h = 31 * h + n.key();
            for (int l = 0; l < paths.depth(); l++) {
                n = TreeNode.child(n, paths.choice(s, l));
                h = 31 * h + n.key();
            }
        }
        return h;
    }

    /** {@link #search} counting a visit at each leaf; the digest of {@link HeapTree#update}. */
    public static long update(TreeNode root, SearchPaths paths, int from, int to) {
        long h = 17;
        for (int s = from; s < to; s++) {
            TreeNode n = root;
            h = 31 * h + n.key();
            for (int l = 0; l < paths.depth(); l++) {
                n = TreeNode.child(n, paths.choice(s, l));
                h = 31 * h + n.key();
            }
            n.visits(n.visits() + 1);
        }
        return h;
    }

    /** The digest of the visit counters, as {@link HeapTree#visitsDigest}. */
    public static long visitsDigest(TreeNode root) {
        return visitsDigest(root, 17);
    }

    private static long visitsDigest(TreeNode n, long h) {
        h = 31 * h + n.key() * n.visits();
        for (int i = 0; i < TreeNode.MAX_FANOUT; i++) {
            TreeNode c = TreeNode.child(n, i);
            if (c == null) {
                break;
            }
            h = visitsDigest(c, h);
        }
        return h;
    }

    /** Closes the store. */
    @Override
    public void close() throws IOException {
        if (db != null) {
            db.close();
            db = null;
        }
    }
}
