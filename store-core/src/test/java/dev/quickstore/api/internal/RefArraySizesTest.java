package dev.quickstore.api.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.api.Holder;
import dev.quickstore.api.Leaf;
import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reference lists and bags of 0..100,000 elements against {@code java.util} models through commit, abort and
 * reopen, while {@link FirstNodeSizing} changes the first node's capacity between lists (issue #20): the
 * contents never depend on it. Then the sizing itself: after lists of 20 a new list's root leaf has 32 entries
 * and no node is freed while it fills; short lists keep 4.
 */
class RefArraySizesTest {
    private static final int[] SIZES = {0, 1, 3, 4, 5, 8, 9, 20, 33, 128, 129, 511, 512, 513, 1_000, 4_097, 100_000};
    private static final int LEAVES = 1_000;

    @TempDir
    Path dir;

    private static List<Integer> contents(List<Leaf> l) {
        List<Integer> out = new ArrayList<>(l.size());
        for (Leaf x : l) {
            out.add(x == null ? -1 : x.v());
        }
        return out;
    }

    private static Map<Integer, Integer> counts(Iterable<Leaf> bag) {
        Map<Integer, Integer> m = new HashMap<>();
        for (Leaf x : bag) {
            m.merge(x.v(), 1, Integer::sum);
        }
        return m;
    }

    private static Map<Integer, Integer> counts(List<Integer> ids) {
        Map<Integer, Integer> m = new HashMap<>();
        for (int v : ids) {
            m.merge(v, 1, Integer::sum);
        }
        return m;
    }

    private void check(PersistentStore s, String when, List<List<Integer>> lists, List<List<Integer>> bags) {
        try (ObjectTransaction tx = s.begin()) {
            for (int k = 0; k < lists.size(); k++) {
                Holder h = tx.root("h" + k, Holder.class);
                assertEquals(lists.get(k), contents(h.list()), when + ": list " + k);
                assertEquals(bags.get(k).size(), h.bag().size(), when + ": bag " + k);
                assertEquals(counts(bags.get(k)), counts(h.bag()), when + ": bag " + k);
            }
        }
    }

    @Test
    void listsAndBagsOfEverySizeAgreeWithJavaUtilThroughCommitAbortReopen() throws Exception {
        Path db = dir.resolve("db");
        Random rnd = new Random(20);
        List<List<Integer>> lists = new ArrayList<>();
        List<List<Integer>> bags = new ArrayList<>();
        PersistentStore s = PersistentStore.create(db, Holder.class, Leaf.class);
        try {
            try (ObjectTransaction tx = s.begin()) {
                Holder pool = tx.create(Holder.class);
                for (int i = 0; i < LEAVES; i++) {
                    Leaf l = tx.create(Leaf.class, pool);
                    l.v(i);
                    pool.list().add(l);
                }
                tx.root("pool", pool);
                tx.commit();
            }
            for (int k = 0; k < SIZES.length; k++) {
                int n = SIZES[k];
                List<Integer> list = new ArrayList<>();
                List<Integer> bag = new ArrayList<>();
                try (ObjectTransaction tx = s.begin()) {
                    List<Leaf> pool = tx.root("pool", Holder.class).list();
                    Holder h = tx.create(Holder.class);
                    tx.root("h" + k, h);
                    for (int i = 0; i < n; i++) {
                        int v = rnd.nextInt(LEAVES);
                        h.list().add(pool.get(v));
                        list.add(v);
                        int w = rnd.nextInt(LEAVES);
                        h.bag().add(pool.get(w));
                        bag.add(w);
                    }
                    tx.commit();
                }
                lists.add(list);
                bags.add(bag);
                // an aborted transaction grows, inserts in the middle and shrinks; nothing of it stays
                try (ObjectTransaction tx = s.begin()) {
                    List<Leaf> pool = tx.root("pool", Holder.class).list();
                    Holder h = tx.root("h" + k, Holder.class);
                    for (int i = 0; i < 1 + n / 2; i++) {
                        h.list().add(pool.get(rnd.nextInt(LEAVES)));
                        h.bag().add(pool.get(rnd.nextInt(LEAVES)));
                    }
                    h.list().add(h.list().size() / 2, null);
                    for (int i = 0; i < n / 3; i++) {
                        h.list().remove(h.list().size() - 1);
                    }
                    h.bag().clear();
                    tx.abort();
                }
                check(s, "after list " + k + " (" + n + ") and an abort", lists, bags);
            }
            s.close();
            s = PersistentStore.open(db, Holder.class, Leaf.class);
            assertTrue(s.storageManager().verify().ok());
            check(s, "reopened", lists, bags);
            // committed shrinking: every list loses its last two thirds (root leaves halve, trees lose levels)
            try (ObjectTransaction tx = s.begin()) {
                for (int k = 0; k < SIZES.length; k++) {
                    Holder h = tx.root("h" + k, Holder.class);
                    List<Integer> list = lists.get(k);
                    while (list.size() > SIZES[k] / 3) {
                        h.list().remove(h.list().size() - 1);
                        list.remove(list.size() - 1);
                    }
                    if (!list.isEmpty()) {
                        h.list().remove(0);
                        list.remove(0);
                    }
                }
                tx.commit();
            }
            s.close();
            s = PersistentStore.open(db, Holder.class, Leaf.class);
            assertTrue(s.storageManager().verify().ok());
            check(s, "shrunk and reopened", lists, bags);
        } finally {
            s.close();
        }
    }

    private static int rootCapacity(List<Leaf> l) {
        return RefArray.capacity(RefArray.root(((RefList<?>) l).field()));
    }

    @Test
    void aListStartsWithTheCapacityTheRecentListsOfItsElementTypeNeeded() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Holder first = tx.create(Holder.class);
                for (int i = 0; i < 20; i++) {
                    first.list().add(tx.create(Leaf.class, first));
                }
                assertEquals(32, rootCapacity(first.list()), "grew 4, 8, 16, 32");
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) { // a later transaction of the same store
                Holder h = tx.create(Holder.class);
                h.list().add(tx.create(Leaf.class, h));
                long root = RefArray.root(((RefList<?>) h.list()).field());
                assertEquals(32, RefArray.capacity(root), "learned from the list of 20");
                for (int i = 1; i < 20; i++) {
                    h.list().add(tx.create(Leaf.class, h));
                }
                assertEquals(root, RefArray.root(((RefList<?>) h.list()).field()), "filled without growing");
                assertEquals(20, h.list().size());
                tx.commit();
            }
        }
        try (PersistentStore s = PersistentStore.create(dir.resolve("db2"), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            for (int k = 0; k < 10; k++) {
                Holder h = tx.create(Holder.class);
                for (int i = 0; i < 3; i++) {
                    h.list().add(tx.create(Leaf.class, h));
                }
                assertEquals(4, rootCapacity(h.list()), "lists of 3 keep 4 entries");
            }
        }
    }
}
