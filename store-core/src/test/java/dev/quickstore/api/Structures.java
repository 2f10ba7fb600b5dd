package dev.quickstore.api;

import java.nio.file.Path;

/** Builds and traverses a linked list and a balanced binary search tree of persistent nodes. */
final class Structures {
    private Structures() {}

    static int count() {
        return Boolean.getBoolean("qs.long") ? 1_000_000 : 100_000;
    }

    /** List of n nodes with value(i) = i * 7919 mod 1,000,003, each created near its predecessor. */
    static ListNode buildList(ObjectTransaction tx, int n) {
        ListNode head = tx.create(ListNode.class);
        head.value(0);
        ListNode prev = head;
        for (int i = 1; i < n; i++) {
            ListNode node = tx.create(ListNode.class, prev);
            node.value((int) ((long) i * 7919 % 1_000_003));
            prev.next(node);
            prev = node;
        }
        return head;
    }

    /** Balanced tree over keys 1, 3, 5, ..., 2n-1 (built by midpoints: depth = ceil(log2(n+1))). */
    static TreeNode buildTree(ObjectTransaction tx, int lo, int hi, TreeNode near) {
        if (lo > hi) {
            return null;
        }
        int mid = (lo + hi) >>> 1;
        TreeNode t = tx.create(TreeNode.class, near);
        t.key(2 * mid + 1);
        t.left(buildTree(tx, lo, mid - 1, t));
        t.right(buildTree(tx, mid + 1, hi, t));
        return t;
    }

    /** "count sum hash" of the list in order. */
    static String walkList(ListNode head) {
        long count = 0;
        long sum = 0;
        long hash = 17;
        for (ListNode n = head; n != null; n = n.next()) {
            count++;
            sum += n.value();
            hash = hash * 31 + n.value();
        }
        return "list " + count + " " + sum + " " + hash;
    }

    /** "count sum hash depth sorted" of an in-order walk (explicit stack: no recursion limits). */
    static String walkTree(TreeNode root) {
        long count = 0;
        long sum = 0;
        long hash = 17;
        int maxDepth = 0;
        boolean sorted = true;
        int last = Integer.MIN_VALUE;
        TreeNode[] stack = new TreeNode[64];
        int[] depth = new int[64];
        int sp = 0;
        TreeNode cur = root;
        int d = 1;
        while (cur != null || sp > 0) {
            while (cur != null) {
                stack[sp] = cur;
                depth[sp++] = d++;
                cur = cur.left();
            }
            TreeNode t = stack[--sp];
            d = depth[sp];
            maxDepth = Math.max(maxDepth, d);
            count++;
            sum += t.key();
            hash = hash * 31 + t.key();
            sorted &= t.key() > last;
            last = t.key();
            cur = t.right();
            d++;
        }
        return "tree " + count + " " + sum + " " + hash + " depth " + maxDepth + " sorted " + sorted;
    }

    /** Child JVM: prints both walks of the store in args[0]. */
    public static void main(String[] args) throws Exception {
        try (PersistentStore s = PersistentStore.open(Path.of(args[0]), ListNode.class, TreeNode.class);
                ObjectTransaction tx = s.begin()) {
            System.out.println(walkList(tx.root("list", ListNode.class)));
            System.out.println(walkTree(tx.root("tree", TreeNode.class)));
        }
    }
}
