package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.api.internal.FlatView;
import dev.quickstore.api.internal.View;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The generated cursors ({@code <Name>Cursor}, docs/object-api.md "Cursors") read what the proxies read: seeded
 * random graphs with null references and objects of a subtype whose layout differs, lists and trees, in the
 * mapped (default) and the software mode; they refuse use after their transaction ended and at null; writes
 * through them commit, abort and survive a reopen like a proxy's.
 */
class CursorTest {
    @TempDir
    Path dir;

    private static StoreOptions options(String mode) {
        return mode.equals("software")
                ? StoreOptions.builder()
                        .frames(FramesMode.SOFTWARE)
                        .bufferPoolPages(64)
                        .build()
                : StoreOptions.defaults();
    }

    /** {@code n} nodes, a third of them {@link HeavyCursorNode}s, random keys, labels and references (30 % null). */
    private static List<CursorNode> graph(ObjectTransaction tx, Random r, int n) {
        List<CursorNode> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            CursorNode c;
            if (r.nextInt(3) == 0) {
                HeavyCursorNode h = tx.create(HeavyCursorNode.class);
                h.weight(r.nextLong());
                c = h;
            } else {
                c = tx.create(CursorNode.class);
            }
            c.key(r.nextInt());
            c.extra(r.nextInt());
            c.label(r.nextInt(4) == 0 ? null : "n" + i);
            nodes.add(c);
        }
        for (CursorNode c : nodes) {
            c.left(r.nextInt(10) < 3 ? null : nodes.get(r.nextInt(n)));
            c.right(r.nextInt(10) < 3 ? null : nodes.get(r.nextInt(n)));
        }
        return nodes;
    }

    private static void same(CursorNode expected, Deque stack, CursorNodeCursor c, ObjectTransaction tx, String step) {
        assertEquals(stack.size(), c.depth(), step);
        if (expected == null) {
            assertTrue(c.isNull(), step);
            assertNull(c.object(), step);
            assertEquals(0, c.address(), step);
            return;
        }
        assertFalse(c.isNull(), step);
        assertEquals(tx.addressOf(expected), c.address(), step);
        assertEquals(expected, c.object(), step);
        assertEquals(expected.getClass(), c.object().getClass(), step);
        assertEquals(expected.key(), c.key(), step);
        assertEquals(expected.extra(), c.extra(), step);
        assertEquals(expected.label(), c.label(), step);
        assertEquals(expected.left(), c.left(), step);
        assertEquals(expected.right(), c.right(), step);
    }

    /** The proxies' positions pushed by down...(); null elements allowed (ArrayDeque refuses them). */
    private static final class Deque {
        private final ArrayList<CursorNode> items = new ArrayList<>();

        void push(CursorNode n) {
            items.add(n);
        }

        CursorNode pop() {
            return items.remove(items.size() - 1);
        }

        int size() {
            return items.size();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "software"})
    void randomMovesReadWhatTheProxiesReadOnSeededGraphs(String mode) throws Exception {
        for (int seed = 1; seed <= 4; seed++) {
            Random r = new Random(seed);
            Path db = dir.resolve(mode + seed);
            int n = 200 + r.nextInt(200);
            try (PersistentStore s =
                    PersistentStore.create(db, options(mode), CursorNode.class, HeavyCursorNode.class)) {
                try (ObjectTransaction tx = s.begin()) {
                    tx.root("g", graph(tx, r, n).get(0));
                    tx.commit();
                }
                try (ObjectTransaction tx = s.begin()) {
                    CursorNode root = tx.root("g", CursorNode.class);
                    List<CursorNode> all = reachable(root);
                    CursorNodeCursor c = CursorNodeCursor.at(root);
                    CursorNode cur = root;
                    Deque stack = new Deque();
                    int heavy = 0;
                    int nulls = 0;
                    for (int step = 0; step < 3000; step++) {
                        String what = "seed " + seed + " step " + step;
                        if (cur == null) {
                            cur = all.get(r.nextInt(all.size()));
                            c.moveTo(cur);
                            what += " moveTo";
                        } else {
                            switch (r.nextInt(5)) {
                                case 0 -> {
                                    assertEquals(cur.left() != null, c.toLeft(), what);
                                    cur = cur.left();
                                }
                                case 1 -> {
                                    assertEquals(cur.right() != null, c.toRight(), what);
                                    cur = cur.right();
                                }
                                case 2 -> {
                                    boolean down = cur.left() != null;
                                    assertEquals(down, c.downLeft(), what);
                                    if (down) {
                                        stack.push(cur);
                                        cur = cur.left();
                                    }
                                }
                                case 3 -> {
                                    boolean down = cur.right() != null;
                                    assertEquals(down, c.downRight(), what);
                                    if (down) {
                                        stack.push(cur);
                                        cur = cur.right();
                                    }
                                }
                                default -> {
                                    if (stack.size() > 0) {
                                        c.up();
                                        cur = stack.pop();
                                    } else {
                                        assertThrows(IllegalStateException.class, c::up, what);
                                    }
                                }
                            }
                        }
                        same(cur, stack, c, tx, what);
                        heavy += cur instanceof HeavyCursorNode ? 1 : 0;
                        nulls += cur == null ? 1 : 0;
                    }
                    assertTrue(
                            heavy > 100 && nulls > 100, "the walk visited subtypes and nulls: " + heavy + ", " + nulls);
                }
            }
        }
    }

    private static List<CursorNode> reachable(CursorNode root) {
        List<CursorNode> out = new ArrayList<>();
        java.util.Set<CursorNode> seen = new java.util.HashSet<>();
        ArrayDeque<CursorNode> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            CursorNode x = todo.poll();
            if (seen.add(x)) {
                out.add(x);
                for (CursorNode y : new CursorNode[] {x.left(), x.right()}) {
                    if (y != null) {
                        todo.add(y);
                    }
                }
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "software"})
    void listAndTreeWalksMatchTheProxyWalks(String mode) throws Exception {
        Random r = new Random(42);
        try (PersistentStore s =
                PersistentStore.create(dir.resolve("db"), options(mode), ListNode.class, TreeNode.class)) {
            try (ObjectTransaction tx = s.begin()) {
                ListNode head = tx.create(ListNode.class);
                ListNode prev = head;
                for (int i = 1; i < 1000; i++) {
                    ListNode x = tx.create(ListNode.class, prev);
                    x.value(r.nextInt());
                    prev.next(x);
                    prev = x;
                }
                tx.root("list", head);
                tx.root("tree", tree(tx, r, 12));
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                List<Integer> proxies = new ArrayList<>();
                for (ListNode p = tx.root("list", ListNode.class); p != null; p = p.next()) {
                    proxies.add(p.value());
                }
                List<Integer> cursor = new ArrayList<>();
                for (ListNodeCursor c = ListNodeCursor.at(tx.root("list", ListNode.class)); !c.isNull(); c.toNext()) {
                    cursor.add(c.value());
                }
                assertEquals(1000, cursor.size());
                assertEquals(proxies, cursor);
                TreeNode t = tx.root("tree", TreeNode.class);
                List<Integer> pre = new ArrayList<>();
                preorder(t, pre);
                List<Integer> viaCursor = new ArrayList<>();
                TreeNodeCursor c = TreeNodeCursor.at(t);
                preorder(c, viaCursor);
                assertEquals(pre, viaCursor);
                assertTrue(pre.size() > 50, "tree size " + pre.size());
                assertEquals(0, c.depth(), "every down was matched by an up");
                assertEquals(tx.addressOf(t), c.address(), "back at the root");
                List<Integer> walk = new ArrayList<>();
                TreeNodeCursor w = TreeNodeCursor.at(t);
                do {
                    walk.add(w.key());
                } while (w.toNextPreorder());
                assertEquals(pre, walk, "the pre-order walk");
                assertFalse(w.toNextPreorder(), "a complete walk stays complete");
            }
        }
    }

    /** A random tree of {@link CursorNode}s, a third of them {@link HeavyCursorNode}s. */
    private static CursorNode cursorTree(ObjectTransaction tx, Random r, int depth) {
        if (depth == 0 || r.nextInt(5) == 0) {
            return null;
        }
        CursorNode n = r.nextInt(3) == 0 ? tx.create(HeavyCursorNode.class) : tx.create(CursorNode.class);
        n.key(r.nextInt());
        n.extra(r.nextInt());
        n.left(cursorTree(tx, r, depth - 1));
        n.right(cursorTree(tx, r, depth - 1));
        return n;
    }

    private static void preorder(CursorNode t, List<Long> out) {
        if (t != null) {
            out.add(((long) t.key() << 32) ^ (t.extra() & 0xffffffffL));
            preorder(t.left(), out);
            preorder(t.right(), out);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "software"})
    void thePreorderWalkVisitsWhatTheRecursionVisitsWithSubtypesAndRestartsOnMoveTo(String mode) throws Exception {
        try (PersistentStore s =
                PersistentStore.create(dir.resolve("db"), options(mode), CursorNode.class, HeavyCursorNode.class)) {
            for (int seed = 1; seed <= 5; seed++) {
                Random r = new Random(seed);
                try (ObjectTransaction tx = s.begin()) {
                    CursorNode root = tx.create(CursorNode.class);
                    root.left(cursorTree(tx, r, 11));
                    root.right(cursorTree(tx, r, 11));
                    List<Long> expected = new ArrayList<>();
                    preorder(root, expected);
                    CursorNodeCursor c = CursorNodeCursor.at(root);
                    for (int i = 0; i < expected.size() / 2; i++) {
                        c.toNextPreorder(); // abandoned half way: moveTo starts afresh
                    }
                    c.moveTo(root);
                    List<Long> walk = new ArrayList<>();
                    do {
                        walk.add(((long) c.key() << 32) ^ (c.extra() & 0xffffffffL));
                    } while (c.toNextPreorder());
                    assertTrue(expected.size() > 100, "seed " + seed + ": " + expected.size());
                    assertEquals(expected, walk, "seed " + seed);
                }
            }
        }
    }

    private static TreeNode tree(ObjectTransaction tx, Random r, int depth) {
        if (depth == 0 || r.nextInt(6) == 0) {
            return null;
        }
        TreeNode n = tx.create(TreeNode.class);
        n.key(r.nextInt());
        n.left(tree(tx, r, depth - 1));
        n.right(tree(tx, r, depth - 1));
        return n;
    }

    /**
     * A comb 100 levels deep (each node's right child a leaf, its left the next level): the pre-order walk's pending
     * stack and the {@code downLeft()}/{@code up()} stack grow past their first 16 entries, on the fast path (only
     * {@code CursorNode}s) and while proxies are held (every third node a {@code HeavyCursorNode}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"mapped", "software"})
    void deepWalksGrowTheirStacksWithAndWithoutProxies(String mode) throws Exception {
        try (PersistentStore s =
                PersistentStore.create(dir.resolve("db"), options(mode), CursorNode.class, HeavyCursorNode.class)) {
            for (boolean subtypes : new boolean[] {false, true}) {
                try (ObjectTransaction tx = s.begin()) {
                    CursorNode root = null;
                    for (int i = 100; i > 0; i--) {
                        CursorNode n =
                                subtypes && i % 3 == 0 ? tx.create(HeavyCursorNode.class) : tx.create(CursorNode.class);
                        n.key(i);
                        n.extra(-i);
                        CursorNode leaf =
                                subtypes && i % 3 == 1 ? tx.create(HeavyCursorNode.class) : tx.create(CursorNode.class);
                        leaf.key(1000 + i);
                        n.left(root);
                        n.right(leaf);
                        root = n;
                    }
                    List<Long> expected = new ArrayList<>();
                    preorder(root, expected);
                    assertEquals(200, expected.size());
                    CursorNodeCursor c = CursorNodeCursor.at(root);
                    List<Long> walk = new ArrayList<>();
                    do {
                        walk.add(((long) c.key() << 32) ^ (c.extra() & 0xffffffffL));
                    } while (c.toNextPreorder());
                    assertEquals(expected, walk, "walk, subtypes " + subtypes);
                    CursorNodeCursor d = CursorNodeCursor.at(root);
                    int down = 0;
                    while (d.downLeft()) {
                        down++;
                    }
                    assertEquals(99, down);
                    assertEquals(99, d.depth());
                    assertEquals(100, d.key(), "at the deepest level");
                    for (int level = 99; level >= 1; level--) {
                        d.up();
                        assertEquals(level, d.key(), "up to level " + level + ", subtypes " + subtypes);
                    }
                    assertEquals(0, d.depth());
                    assertThrows(IllegalStateException.class, d::up);
                }
            }
        }
    }

    private static void preorder(TreeNode t, List<Integer> out) {
        if (t != null) {
            out.add(t.key());
            preorder(t.left(), out);
            preorder(t.right(), out);
        }
    }

    private static void preorder(TreeNodeCursor c, List<Integer> out) {
        out.add(c.key());
        if (c.downLeft()) {
            preorder(c, out);
            c.up();
        }
        if (c.downRight()) {
            preorder(c, out);
            c.up();
        }
    }

    /**
     * The cursor checks an object's whole layout on arrival and its fast paths load without a compare of their
     * own: a reference to an object that would cross the view's end, or to an address outside it, is refused by
     * the move (before anything is read there), and the cursor stays at the object it was at.
     */
    @Test
    void aWildReferenceIsRefusedOnArrivalAndTheCursorStaysPut() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), CursorNode.class, HeavyCursorNode.class)) {
            try (ObjectTransaction tx = s.begin()) {
                CursorNode a = tx.create(CursorNode.class);
                a.key(41);
                a.extra(42);
                long at = tx.addressOf(a);
                long end = View.base() + View.segment().byteSize();
                int size = CursorNode$Impl.TYPE.size();
                assertTrue(size > 8, "the layout reaches past its first two words");
                int refused = 0;
                for (long wild : new long[] {end - 8, end - size + 4, end, end + 4096, 8, View.base() - 8}) {
                    View.mark(at + CursorNode$Impl.OFF_LEFT);
                    FlatView.setLong(at + CursorNode$Impl.OFF_LEFT, wild);
                    CursorNodeCursor c = CursorNodeCursor.at(a);
                    String what = "left = 0x" + Long.toHexString(wild);
                    assertThrows(IndexOutOfBoundsException.class, c::toLeft, what);
                    assertEquals(at, c.address(), what);
                    assertEquals(41, c.key(), what);
                    assertEquals(42, c.extra(), what);
                    assertThrows(IndexOutOfBoundsException.class, c::downLeft, what);
                    assertEquals(42, c.extra(), what);
                    assertThrows(IndexOutOfBoundsException.class, c::toNextPreorder, what);
                    assertEquals(at, c.address(), what);
                    refused++;
                }
                assertEquals(6, refused);
                // inside the view but not an object of a known type: the proxy lookup refuses it after the cursor's
                // address was set, which must be undone
                CursorNode b = tx.create(CursorNode.class);
                long bogus = tx.addressOf(b);
                View.mark(bogus);
                FlatView.setInt(bogus, 0x0badf00d);
                View.mark(at + CursorNode$Impl.OFF_LEFT);
                FlatView.setLong(at + CursorNode$Impl.OFF_LEFT, bogus);
                CursorNodeCursor c = CursorNodeCursor.at(a);
                assertThrows(RuntimeException.class, c::toLeft, "a reference to an unknown type tag");
                assertEquals(at, c.address(), "the cursor stays where it was");
                assertEquals(41, c.key());
                assertEquals(42, c.extra());
                tx.abort();
            }
        }
    }

    @Test
    void useAfterTheTransactionEndedAndAtNullIsRefusedWithAClearError() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), CursorNode.class, HeavyCursorNode.class)) {
            CursorNodeCursor committed;
            CursorNode old;
            try (ObjectTransaction tx = s.begin()) {
                CursorNode a = tx.create(CursorNode.class);
                a.key(7);
                tx.root("a", a);
                committed = CursorNodeCursor.at(a);
                assertFalse(committed.toLeft());
                NullPointerException npe = assertThrows(NullPointerException.class, committed::key);
                assertTrue(npe.getMessage().contains("CursorNodeCursor is at null"), npe.getMessage());
                assertThrows(NullPointerException.class, committed::toRight);
                committed.moveTo(a);
                assertEquals(7, committed.key());
                IllegalArgumentException iae =
                        assertThrows(IllegalArgumentException.class, () -> CursorNodeCursor.at(null));
                assertTrue(iae.getMessage().contains("not at null"), iae.getMessage());
                old = a;
                tx.commit();
            }
            StoreException e = assertThrows(StoreException.class, committed::key);
            assertTrue(e.getMessage().contains("has committed"), e.getMessage());
            assertThrows(StoreException.class, committed::toLeft);
            assertThrows(StoreException.class, committed::downRight);
            assertThrows(StoreException.class, committed::object);
            assertThrows(StoreException.class, () -> committed.key(8));
            e = assertThrows(StoreException.class, () -> CursorNodeCursor.at(old));
            assertTrue(e.getMessage().contains("has committed"), e.getMessage());
            try (ObjectTransaction tx = s.begin()) {
                CursorNodeCursor c = CursorNodeCursor.at(tx.root("a", CursorNode.class));
                e = assertThrows(StoreException.class, () -> c.moveTo(old));
                assertTrue(e.getMessage().contains("belongs to transaction"), e.getMessage());
                tx.abort();
                e = assertThrows(StoreException.class, c::extra);
                assertTrue(e.getMessage().contains("aborted"), e.getMessage());
            }
            try (ObjectTransaction tx = s.begin()) {
                assertEquals(7, tx.root("a", CursorNode.class).key(), "nothing leaked");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"mapped", "software"})
    void writesThroughACursorCommitAbortAndSurviveAReopen(String mode) throws Exception {
        Path db = dir.resolve("db");
        StoreOptions o = options(mode);
        try (PersistentStore s = PersistentStore.create(db, o, CursorNode.class, HeavyCursorNode.class)) {
            try (ObjectTransaction tx = s.begin()) {
                CursorNode a = tx.create(CursorNode.class);
                HeavyCursorNode b = tx.create(HeavyCursorNode.class);
                a.left(b);
                tx.root("a", a);
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                CursorNodeCursor c = CursorNodeCursor.at(tx.root("a", CursorNode.class));
                c.key(11);
                c.extra(12);
                c.label("first");
                assertTrue(c.downLeft());
                c.key(21);
                c.extra(22); // a subtype: written through its proxy, at its own offset
                c.right(tx.root("a", CursorNode.class));
                c.up();
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                CursorNodeCursor c = CursorNodeCursor.at(tx.root("a", CursorNode.class));
                c.key(99);
                c.label("second");
                c.toLeft();
                c.extra(98);
                tx.abort();
            }
        }
        try (PersistentStore s = PersistentStore.open(db, o, CursorNode.class, HeavyCursorNode.class);
                ObjectTransaction tx = s.begin()) {
            CursorNode a = tx.root("a", CursorNode.class);
            assertEquals(11, a.key());
            assertEquals(12, a.extra());
            assertEquals("first", a.label());
            HeavyCursorNode b = (HeavyCursorNode) a.left();
            assertEquals(21, b.key());
            assertEquals(22, b.extra());
            assertEquals(0L, b.weight(), "extra was not written at the supertype's offset 32 (inside weight)");
            assertEquals(a, b.right());
        }
    }
}
