package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A linked list and a binary tree of {@link Structures#count()} objects each (100,000; 1,000,000 with
 * -Dqs.long=true) are built, committed, reopened and traversed with identical results, in this JVM and in a
 * fresh one; the same walks over plain Java objects give the expected values.
 */
class StructuresTest {
    @TempDir
    Path dir;

    @Test
    void listAndTreeSurviveCommitReopenAndAFreshJvm() throws Exception {
        int n = Structures.count();
        Path db = dir.resolve("db");
        String list;
        String tree;
        try (PersistentStore s = PersistentStore.create(db, ListNode.class, TreeNode.class)) {
            try (ObjectTransaction tx = s.begin()) {
                ListNode head = Structures.buildList(tx, n);
                TreeNode root = Structures.buildTree(tx, 0, n - 1, null);
                tx.root("list", head);
                tx.root("tree", root);
                list = Structures.walkList(head);
                tree = Structures.walkTree(root);
                tx.commit();
            }
            assertTrue(s.storageManager().verify().ok());
        }
        assertEquals(expectedList(n), list);
        int depth = 32 - Integer.numberOfLeadingZeros(n); // ceil(log2(n + 1))
        assertEquals(
                "tree " + n + " " + (long) n * n + " " + expectedTreeHash(n) + " depth " + depth + " sorted true",
                tree);
        try (PersistentStore s = PersistentStore.open(db, ListNode.class, TreeNode.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(list, Structures.walkList(tx.root("list", ListNode.class)));
            assertEquals(tree, Structures.walkTree(tx.root("tree", TreeNode.class)));
        }
        ChildJvm.Result r = ChildJvm.main(Structures.class)
                .workDir(dir)
                .jvmArgs("-Xmx1g", "-Dqs.long=" + ChildJvm.longMode())
                .args(db.toString())
                .run();
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(list + "\n" + tree, r.stdout().strip());
    }

    private static String expectedList(int n) {
        long sum = 0;
        long hash = 17;
        for (int i = 0; i < n; i++) {
            int v = (int) ((long) i * 7919 % 1_000_003);
            sum += v;
            hash = hash * 31 + v;
        }
        return "list " + n + " " + sum + " " + hash;
    }

    private static long expectedTreeHash(int n) {
        long hash = 17;
        for (int i = 0; i < n; i++) {
            hash = hash * 31 + (2 * i + 1);
        }
        return hash;
    }
}
