package dev.quickstore.api;

/** A binary search tree node. */
@Persistent
public interface TreeNode {
    int key();

    void key(int k);

    TreeNode left();

    void left(TreeNode n);

    TreeNode right();

    void right(TreeNode n);
}
