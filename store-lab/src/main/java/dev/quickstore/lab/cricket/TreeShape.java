package dev.quickstore.lab.cricket;

/**
 * The benchmark tree's shape: a complete tree of {@code depth} levels below the root and {@code fanout} children
 * per inner node, {@code nodesPerPage} nodes to a page. {@link #PAPER} is Shekita and Zwilling's (1990, section
 * 6.2): "a tree with a depth of 4 and a node fanout of 11 (16,105 nodes total) ... the same number of nodes,
 * namely 12 ... the tree spanned 1,343 pages".
 *
 * @param depth levels below the root, 1..6
 * @param fanout children of each inner node, 1..{@value TreeNode#MAX_FANOUT}
 * @param nodesPerPage nodes sharing a page
 */
public record TreeShape(int depth, int fanout, int nodesPerPage) {
    /** The paper's tree: depth 4, fanout 11, 12 nodes per page (16,105 nodes on 1,343 pages). */
    public static final TreeShape PAPER = new TreeShape(4, 11, 12);

    public TreeShape {
        if (depth < 1 || depth > 6) {
            throw new IllegalArgumentException("tree depth " + depth + " outside 1..6");
        }
        if (fanout < 1 || fanout > TreeNode.MAX_FANOUT) {
            throw new IllegalArgumentException("tree fanout " + fanout + " outside 1.." + TreeNode.MAX_FANOUT);
        }
        if (nodesPerPage < 1) {
            throw new IllegalArgumentException("nodes per page " + nodesPerPage + " < 1");
        }
    }

    /** A tree of this depth and fanout with the paper's twelve nodes per page. */
    public static TreeShape of(int depth, int fanout) {
        return new TreeShape(depth, fanout, PAPER.nodesPerPage);
    }

    /** Nodes of the complete tree: 1 + f + f^2 + ... + f^depth. */
    public int nodes() {
        long n = 0;
        long level = 1;
        for (int d = 0; d <= depth; d++) {
            n += level;
            level *= fanout;
        }
        return Math.toIntExact(n);
    }

    /** Leaves: f^depth. */
    public int leaves() {
        long level = 1;
        for (int d = 0; d < depth; d++) {
            level *= fanout;
        }
        return Math.toIntExact(level);
    }

    /** Pages the nodes fill at {@link #nodesPerPage()} a page. */
    public int pages() {
        return (nodes() + nodesPerPage - 1) / nodesPerPage;
    }
}
