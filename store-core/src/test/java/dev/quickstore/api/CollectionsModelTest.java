package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Model-based random test (seeded): random operations on a persistent list, set and bag are applied to
 * {@link ArrayList}, {@link LinkedHashSet} and a multiset on the heap as well; after every round the contents
 * agree. Rounds commit or abort (the model is rolled back with the store), and the store is closed and
 * reopened now and then. Bulk rounds push the list past one node (512 elements) so that inserts and removes
 * in the middle move elements across nodes, and shrink it again.
 */
@ExtendWith(SeedExtension.class)
@FixedSeed(0L)
class CollectionsModelTest {
    static final int POOL = 400;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void randomOperationsAgreeWithJavaUtil(long variant, Seed seed) throws Exception {
        Random rnd = new Random(seed.value() + variant); // 1, 2, 3 unless -Dqs.seed is given
        Path db = dir.resolve("db");
        List<Integer> list = new ArrayList<>();
        Set<Integer> set = new LinkedHashSet<>();
        Map<Integer, Integer> bag = new HashMap<>();
        int longest = 0;
        PersistentStore s = PersistentStore.create(db, Holder.class, Leaf.class);
        try {
            try (ObjectTransaction tx = s.begin()) {
                Holder pool = tx.create(Holder.class);
                for (int i = 0; i < POOL; i++) {
                    Leaf l = tx.create(Leaf.class, pool);
                    l.v(i);
                    pool.list().add(l);
                }
                tx.root("pool", pool);
                tx.root("h", tx.create(Holder.class));
                tx.commit();
            }
            for (int round = 0; round < 40; round++) {
                List<Integer> list0 = new ArrayList<>(list);
                Set<Integer> set0 = new LinkedHashSet<>(set);
                Map<Integer, Integer> bag0 = new HashMap<>(bag);
                boolean abort = rnd.nextInt(5) == 0;
                try (ObjectTransaction tx = s.begin()) {
                    List<Leaf> pool = tx.root("pool", Holder.class).list();
                    Holder h = tx.root("h", Holder.class);
                    int ops = round % 8 == 3 ? 3000 : 300;
                    int growBias = round % 16 < 8 ? 70 : 35; // grow, then shrink
                    for (int op = 0; op < ops; op++) {
                        step(rnd, growBias, pool, h, list, set, bag);
                    }
                    check("round " + round, h, list, set, bag);
                    longest = Math.max(longest, list.size());
                    if (abort) {
                        tx.abort();
                        list = list0;
                        set = set0;
                        bag = bag0;
                    } else {
                        tx.commit();
                    }
                }
                if (round % 10 == 9) {
                    s.close();
                    s = PersistentStore.open(db, Holder.class, Leaf.class);
                    assertTrue(s.storageManager().verify().ok());
                }
                try (ObjectTransaction tx = s.begin()) {
                    check(
                            "after round " + round + (abort ? " (aborted)" : ""),
                            tx.root("h", Holder.class),
                            list,
                            set,
                            bag);
                }
            }
        } finally {
            s.close();
        }
        assertTrue(longest > CollectionsTest.FANOUT, "the list outgrew one node: " + longest);
    }

    private static void step(
            Random rnd,
            int growBias,
            List<Leaf> pool,
            Holder h,
            List<Integer> list,
            Set<Integer> set,
            Map<Integer, Integer> bag) {
        int e = rnd.nextInt(POOL);
        Leaf leaf = pool.get(e);
        int k = rnd.nextInt(100);
        List<Leaf> pl = h.list();
        int n = list.size();
        switch (rnd.nextInt(3)) {
            case 0 -> { // list
                if (k < growBias) {
                    int at = rnd.nextInt(4) == 0 ? rnd.nextInt(n + 1) : n;
                    boolean nul = rnd.nextInt(20) == 0;
                    pl.add(at, nul ? null : leaf);
                    list.add(at, nul ? null : e);
                } else if (n > 0 && k < growBias + 10) {
                    int at = rnd.nextInt(n);
                    Leaf old = pl.set(at, leaf);
                    assertEquals(list.set(at, e), old == null ? null : old.v());
                } else if (n > 0 && k < 95) {
                    int at = rnd.nextInt(4) == 0 ? rnd.nextInt(n) : n - 1;
                    Leaf old = pl.remove(at);
                    assertEquals(list.remove(at), old == null ? null : old.v());
                } else {
                    assertEquals(list.remove((Integer) e), pl.remove(leaf));
                    assertEquals(list.indexOf(e), pl.indexOf(leaf));
                }
            }
            case 1 -> { // set
                Set<Leaf> ps = h.set();
                if (k < growBias) {
                    assertEquals(set.add(e), ps.add(leaf));
                } else if (k < 95) {
                    assertEquals(set.remove(e), ps.remove(leaf));
                } else {
                    assertEquals(set.contains(e), ps.contains(leaf));
                    for (Iterator<Leaf> it = ps.iterator(); it.hasNext(); ) {
                        int v = it.next().v();
                        if (v % 7 == e % 7) {
                            it.remove();
                            set.remove(v);
                        }
                    }
                }
            }
            default -> { // bag
                Collection<Leaf> pb = h.bag();
                if (k < growBias) {
                    pb.add(leaf);
                    bag.merge(e, 1, Integer::sum);
                } else {
                    boolean had = bag.containsKey(e);
                    assertEquals(had, pb.remove(leaf));
                    if (had) {
                        bag.computeIfPresent(e, (key, c) -> c == 1 ? null : c - 1);
                    }
                }
            }
        }
    }

    private static void check(String when, Holder h, List<Integer> list, Set<Integer> set, Map<Integer, Integer> bag) {
        assertEquals(
                list,
                CollectionsTest.values(h.list()).stream()
                        .map(v -> v < 0 ? null : v)
                        .toList(),
                when);
        assertEquals(set, new LinkedHashSet<>(CollectionsTest.values(h.set())), when);
        assertEquals(set.size(), h.set().size(), when);
        assertEquals(bag, CollectionsTest.counts(h.bag()), when);
    }
}
