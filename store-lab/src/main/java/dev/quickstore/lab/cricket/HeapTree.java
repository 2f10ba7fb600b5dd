package dev.quickstore.lab.cricket;

/**
 * The benchmark tree as plain Java objects: the paper's "non-persistent tree" (Shekita and Zwilling 1990, Table 4),
 * the baseline of every ratio. The same traversal code as {@link MappedTree} over {@code Node} fields instead of
 * persistent proxies, and the same digests, so the two can be compared result for result.
 *
 * <p>Digests: a visit folds the node's key into a running hash, {@code h = 31 * h + key}, in visiting order; a
 * depth-first pass and a set of searches each return the hash of everything they visited.
 */
public final class HeapTree {
    /** A heap node: key, visit counter, children (null entries at the leaves, as the mapped tree's). */
    static final class Node {
        final int key;
        long visits;
        final Node[] children = new Node[TreeNode.MAX_FANOUT];

        Node(int key) {
            this.key = key;
        }
    }

    private final TreeShape shape;
    private final Node root;

    private HeapTree(TreeShape shape, Node root) {
        this.shape = shape;
        this.root = root;
    }

    /** Builds the complete tree of {@code shape}, keys in preorder. */
    public static HeapTree build(TreeShape shape) {
        int[] next = {0};
        return new HeapTree(shape, build(shape, 0, next));
    }

    private static Node build(TreeShape shape, int level, int[] next) {
        Node n = new Node(next[0]++);
        if (level < shape.depth()) {
            for (int i = 0; i < shape.fanout(); i++) {
                n.children[i] = build(shape, level + 1, next);
            }
        }
        return n;
    }

    public TreeShape shape() {
        return shape;
    }

    /** One depth-first pass over the whole tree, following every child edge; the digest of the visit. */
    public long pass() {
        return pass(root, 17);
    }

    private static long pass(Node n, long h) {
        h = 31 * h + n.key;
        for (Node c : n.children) {
            if (c == null) {
                break;
            }
            h = pass(c, h);
        }
        return h;
    }

    /** Searches {@code from} (inclusive) to {@code to} (exclusive) of {@code paths}, root to leaf; the digest. */
    public long search(SearchPaths paths, int from, int to) {
        long h = 17;
        for (int s = from; s < to; s++) {
            Node n = root;
            h = 31 * h + n.key;
            for (int l = 0; l < paths.depth(); l++) {
                n = n.children[paths.choice(s, l)];
                h = 31 * h + n.key;
            }
        }
        return h;
    }

    /** {@link #search} that also counts a visit at each search's leaf (the update variant). */
    public long update(SearchPaths paths, int from, int to) {
        long h = 17;
        for (int s = from; s < to; s++) {
            Node n = root;
            h = 31 * h + n.key;
            for (int l = 0; l < paths.depth(); l++) {
                n = n.children[paths.choice(s, l)];
                h = 31 * h + n.key;
            }
            n.visits++;
        }
        return h;
    }

    /** The digest of the visit counters: {@code h = 31 * h + key * visits} over the nodes in preorder. */
    public long visitsDigest() {
        return visitsDigest(root, 17);
    }

    private static long visitsDigest(Node n, long h) {
        h = 31 * h + n.key * n.visits;
        for (Node c : n.children) {
            if (c == null) {
                break;
            }
            h = visitsDigest(c, h);
        }
        return h;
    }
}
