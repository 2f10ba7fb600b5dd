package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.inspect.StoreInspector;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.software.Swizzler;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Software-mode collections of any size ({@code SoftRefArray}, a radix tree of OID nodes): lists and sets of 0, 1,
 * 1,006 (the old one-node limit), 1,007, 5,000 and 100,000 elements, against a {@code java.util} model under
 * seeded random add/get/set/remove/contains/iterate, through a committed transaction, an aborted one, another
 * committed one and a reopen, with a buffer pool far smaller than the collection (so nodes are evicted and read
 * again: the test checks that pages were read by resolution and evicted).
 */
class SoftwareCollectionTest {
    static final int EXTRA = 300; // leaves beyond the initial elements, for additions
    static final int SMALL_POOL = 8;

    @TempDir
    Path dir;

    static StoreOptions software(int poolPages) {
        return StoreOptions.builder()
                .frames(FramesMode.SOFTWARE)
                .bufferPoolPages(poolPages)
                .build();
    }

    /** Creates {@code size + EXTRA} leaves (v = id) and a holder whose list (or set) holds leaves 0..size-1. */
    private long[] build(Path db, int size, boolean set) throws Exception {
        long[] oids = new long[size + EXTRA];
        try (PersistentStore s = PersistentStore.create(db, software(2048), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            Holder h = tx.create(Holder.class);
            for (int i = 0; i < oids.length; i++) {
                Leaf l = tx.create(Leaf.class, h);
                l.v(i);
                oids[i] = tx.addressOf(l);
                if (i < size) {
                    if (set) {
                        assertTrue(h.set().add(l));
                    } else {
                        h.list().add(l);
                    }
                }
            }
            tx.root("h", h);
            tx.commit();
        }
        return oids;
    }

    private static List<Integer> ids(Iterable<Leaf> c) {
        List<Integer> ids = new ArrayList<>();
        for (Leaf l : c) {
            ids.add(l.v());
        }
        return ids;
    }

    /** Seeded random list operations, each checked against the model as it goes. */
    private static void listOps(ObjectTransaction tx, long[] oids, List<Integer> model, Random rnd, int ops) {
        List<Leaf> list = tx.root("h", Holder.class).list();
        for (int k = 0; k < ops; k++) {
            int n = model.size();
            assertEquals(n, list.size());
            int op = n == 0 ? 0 : rnd.nextInt(7);
            int id = rnd.nextInt(oids.length);
            Leaf leaf = tx.get(oids[id], Leaf.class);
            switch (op) {
                case 0 -> { // insert anywhere
                    int at = rnd.nextInt(n + 1);
                    list.add(at, leaf);
                    model.add(at, id);
                }
                case 1 -> {
                    list.add(leaf);
                    model.add(id);
                }
                case 2 -> {
                    int at = rnd.nextInt(n);
                    assertEquals(model.get(at), list.get(at).v(), "get " + at);
                }
                case 3 -> {
                    int at = rnd.nextInt(n);
                    assertEquals(model.set(at, id), list.set(at, leaf).v(), "set " + at);
                }
                case 4 -> {
                    int at = rnd.nextInt(n);
                    assertEquals(model.remove(at), list.remove(at).v(), "remove " + at);
                }
                case 5 -> {
                    assertEquals(model.contains(id), list.contains(leaf), "contains " + id);
                    assertEquals(model.indexOf(id), list.indexOf(leaf), "indexOf " + id);
                }
                default -> { // the last element removed: shrinks the tree at node boundaries
                    assertEquals(model.remove(n - 1), list.remove(n - 1).v());
                }
            }
        }
        assertEquals(model, ids(list), "iteration");
    }

    private static void setOps(ObjectTransaction tx, long[] oids, Set<Integer> model, Random rnd, int ops) {
        Set<Leaf> set = tx.root("h", Holder.class).set();
        for (int k = 0; k < ops; k++) {
            assertEquals(model.size(), set.size());
            int id = rnd.nextInt(oids.length);
            Leaf leaf = tx.get(oids[id], Leaf.class);
            switch (rnd.nextInt(3)) {
                case 0 -> assertEquals(model.add(id), set.add(leaf), "add " + id);
                case 1 -> assertEquals(model.remove(id), set.remove(leaf), "remove " + id);
                default -> assertEquals(model.contains(id), set.contains(leaf), "contains " + id);
            }
        }
        List<Integer> ids = ids(set);
        assertEquals(model.size(), ids.size(), "no duplicates");
        assertEquals(model, new HashSet<>(ids), "iteration");
    }

    private static int opsFor(int size) {
        return size >= 100_000 ? 40 : 150;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1006, 1007, 5000, 100_000})
    void aListOfAnySizeMatchesTheModelAcrossCommitAbortAndReopen(int size) throws Exception {
        Path db = dir.resolve("db");
        long[] oids = build(db, size, false);
        List<Integer> model = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            model.add(i);
        }
        Random rnd = new Random(size * 31L + 1);
        int ops = opsFor(size);
        try (PersistentStore s = PersistentStore.open(db, software(SMALL_POOL), Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                assertEquals(model, ids(tx.root("h", Holder.class).list()), "as built");
                listOps(tx, oids, model, rnd, ops);
                tx.commit();
            }
            List<Integer> committed = new ArrayList<>(model);
            try (ObjectTransaction tx = s.begin()) {
                listOps(tx, oids, model, rnd, ops);
                tx.abort();
            }
            model = committed;
            try (ObjectTransaction tx = s.begin()) {
                assertEquals(model, ids(tx.root("h", Holder.class).list()), "after abort");
                listOps(tx, oids, model, rnd, ops);
                tx.commit();
            }
            if (size >= 5000) {
                Swizzler sw = s.storageManager().swizzler();
                assertTrue(sw.frames().evictions() > 0, "a pool of " + SMALL_POOL + " pages evicted");
                assertTrue(sw.pageReads() > SMALL_POOL, "pages read again by resolution: " + sw.pageReads());
            }
            assertTrue(s.storageManager().verify().ok(), "store verifies");
        }
        try (PersistentStore s = PersistentStore.open(db, software(SMALL_POOL), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            List<Leaf> list = tx.root("h", Holder.class).list();
            assertEquals(model.size(), list.size());
            assertEquals(model, ids(list), "after reopen");
            tx.commit();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 1006, 1007, 5000, 100_000})
    void aSetOfAnySizeMatchesTheModelAcrossCommitAbortAndReopen(int size) throws Exception {
        Path db = dir.resolve("db");
        long[] oids = build(db, size, true);
        Set<Integer> model = new HashSet<>();
        for (int i = 0; i < size; i++) {
            model.add(i);
        }
        Random rnd = new Random(size * 17L + 3);
        int ops = opsFor(size);
        try (PersistentStore s = PersistentStore.open(db, software(SMALL_POOL), Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                setOps(tx, oids, model, rnd, ops);
                tx.commit();
            }
            Set<Integer> committed = new HashSet<>(model);
            try (ObjectTransaction tx = s.begin()) {
                setOps(tx, oids, model, rnd, ops);
                tx.abort();
            }
            model = committed;
            try (ObjectTransaction tx = s.begin()) {
                assertEquals(model, new HashSet<>(ids(tx.root("h", Holder.class).set())), "after abort");
                setOps(tx, oids, model, rnd, ops);
                tx.commit();
            }
            assertTrue(s.storageManager().verify().ok(), "store verifies");
        }
        try (PersistentStore s = PersistentStore.open(db, software(SMALL_POOL), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            Set<Leaf> set = tx.root("h", Holder.class).set();
            List<Integer> ids = ids(set);
            assertEquals(model.size(), ids.size(), "no duplicates after reopen");
            assertEquals(model, new HashSet<>(ids), "after reopen");
            tx.commit();
        }
    }

    private static long liveObjects(Path db) throws Exception {
        try (StoreInspector in = StoreInspector.open(db)) {
            return in.space().liveObjects();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1007, 5000})
    void clearAndDeleteFreeEveryNode(int size) throws Exception {
        Path db = dir.resolve("db");
        long[] oids = build(db, size, false);
        long withList = liveObjects(db);
        try (PersistentStore s = PersistentStore.open(db, software(SMALL_POOL), Holder.class, Leaf.class);
                ObjectTransaction tx = s.begin()) {
            Holder h = tx.root("h", Holder.class);
            h.list().clear();
            assertTrue(h.list().isEmpty());
            for (int i = 0; i < size; i++) {
                h.bag().add(tx.get(oids[i % 7], Leaf.class)); // a bag keeps duplicates
            }
            assertEquals(size, h.bag().size());
            assertEquals(List.of(0, 1, 2), ids(h.bag()).subList(0, 3));
            tx.commit();
        }
        long nodes = 1 + (size + 511) / 512; // a root over 512-entry leaves (8 KiB pages)
        assertEquals(withList, liveObjects(db), "the cleared list freed as many nodes as the bag took");
        try (PersistentStore s = PersistentStore.open(db, software(SMALL_POOL), Holder.class, Leaf.class)) {
            try (ObjectTransaction tx = s.begin()) {
                tx.delete(tx.root("h", Holder.class)); // frees the bag's whole tree
                tx.commit();
            }
            assertTrue(s.storageManager().verify().ok(), "store verifies");
            try (ObjectTransaction tx = s.begin()) {
                assertEquals(5, tx.get(oids[5], Leaf.class).v(), "the elements outlive their collection");
                tx.commit();
            }
        }
        assertEquals(withList - 1 - nodes, liveObjects(db), "the holder and every node of its bag are free");
    }
}
