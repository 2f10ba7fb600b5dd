package dev.quickstore.lab.cricket;

import dev.quickstore.api.Persistent;

/**
 * A node of Cricket's tree-search benchmark (Shekita and Zwilling 1990, section 6.2): a key, a visit counter for
 * the update variant, and eleven child references (the paper's fanout; a leaf's are null). Eleven fields rather
 * than a {@code List<TreeNode>} so that a node is one fixed-size object, as the paper's node with its inline
 * array of child pointers: a list would be a second object (a reference array) per node and change how many
 * nodes share a page. Nodes are padded to twelve per page by {@link MappedTree} (the paper's "nodes in the tree
 * were padded so that data pages ... contained the same number of nodes, namely 12").
 */
@Persistent
public interface TreeNode {
    /** The node's number in depth-first (preorder) order, 0 at the root. */
    int key();

    void key(int key);

    /** How many update searches ended at this node (leaves only). */
    long visits();

    void visits(long visits);

    TreeNode child0();

    void child0(TreeNode c);

    TreeNode child1();

    void child1(TreeNode c);

    TreeNode child2();

    void child2(TreeNode c);

    TreeNode child3();

    void child3(TreeNode c);

    TreeNode child4();

    void child4(TreeNode c);

    TreeNode child5();

    void child5(TreeNode c);

    TreeNode child6();

    void child6(TreeNode c);

    TreeNode child7();

    void child7(TreeNode c);

    TreeNode child8();

    void child8(TreeNode c);

    TreeNode child9();

    void child9(TreeNode c);

    TreeNode child10();

    void child10(TreeNode c);

    /** Child {@code i} (0..10), or null. */
    static TreeNode child(TreeNode n, int i) {
        return switch (i) {
            case 0 -> n.child0();
            case 1 -> n.child1();
            case 2 -> n.child2();
            case 3 -> n.child3();
            case 4 -> n.child4();
            case 5 -> n.child5();
            case 6 -> n.child6();
            case 7 -> n.child7();
            case 8 -> n.child8();
            case 9 -> n.child9();
            case 10 -> n.child10();
            default -> throw new IndexOutOfBoundsException("child " + i + " of a node with " + MAX_FANOUT);
        };
    }

    /** Sets child {@code i} (0..10). */
    static void child(TreeNode n, int i, TreeNode c) {
        switch (i) {
            case 0 -> n.child0(c);
            case 1 -> n.child1(c);
            case 2 -> n.child2(c);
            case 3 -> n.child3(c);
            case 4 -> n.child4(c);
            case 5 -> n.child5(c);
            case 6 -> n.child6(c);
            case 7 -> n.child7(c);
            case 8 -> n.child8(c);
            case 9 -> n.child9(c);
            case 10 -> n.child10(c);
            default -> throw new IndexOutOfBoundsException("child " + i + " of a node with " + MAX_FANOUT);
        }
    }

    /** The number of child fields, the paper's fanout. */
    int MAX_FANOUT = 11;
}
