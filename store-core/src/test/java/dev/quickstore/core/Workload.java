package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.verify.VerifyReport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A reproducible random workload and the in-memory model it is checked against. One transaction's
 * operations are a pure function of the model state and the random generator, so a parent process can
 * replay what a killed child did. State in the store: objects reachable through index "ids" (LONG,
 * unique: id -> ref), index "tags" (INT, duplicates: id % 17 -> ref), large objects through index
 * "large" (LONG, unique), and root "counter" -> object {committed transactions, next id}.
 */
final class Workload {
    static final int TAGS = 17;

    static final class Model {
        final TreeMap<Long, byte[]> small = new TreeMap<>();
        final TreeMap<Long, byte[]> large = new TreeMap<>();
        long nextId = 1;
        long committed;

        Model copy() {
            Model m = new Model();
            small.forEach((k, v) -> m.small.put(k, v.clone()));
            large.forEach((k, v) -> m.large.put(k, v.clone()));
            m.nextId = nextId;
            m.committed = committed;
            return m;
        }
    }

    private Workload() {}

    static void setup(Store store) {
        try (Transaction tx = store.begin()) {
            tx.createIndex("ids", KeyType.LONG, 0, true);
            tx.createIndex("tags", KeyType.INT, 0, false);
            tx.createIndex("large", KeyType.LONG, 0, true);
            long c = tx.allocate(16);
            tx.putLong(c, 8, 1);
            tx.setRoot("counter", c);
            tx.commit();
        }
    }

    static long pick(SplittableRandom rnd, TreeMap<Long, byte[]> m) {
        if (m.isEmpty()) {
            return -1;
        }
        Long k = m.ceilingKey(1 + rnd.nextLong(m.lastKey()));
        return k == null ? m.firstKey() : k;
    }

    /**
     * One transaction's operations applied to {@code m} and, if {@code tx} is not null, to the store.
     */
    static void operations(Transaction tx, Model m, SplittableRandom rnd, int ops, int maxLarge) {
        Index ids = tx == null ? null : tx.index("ids");
        Index tags = tx == null ? null : tx.index("tags");
        Index large = tx == null ? null : tx.index("large");
        for (int i = 0; i < ops; i++) {
            int op = rnd.nextInt(100);
            if (op < 40 || m.small.isEmpty()) {
                long id = m.nextId++;
                byte[] content = new byte[1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 3000 : 300)];
                rnd.nextBytes(content);
                long near = pick(rnd, m.small);
                m.small.put(id, content);
                if (tx != null) {
                    long hint = near < 0 ? 0 : ids.lookup(near)[0];
                    long ref = tx.allocate(content.length, hint);
                    tx.write(ref, 0, content);
                    ids.insert(id, ref);
                    tags.insert((int) (id % TAGS), ref);
                }
            } else if (op < 70 && op >= 62) {
                // an insertion or deletion inside an object: the rest of it shifts (logged as page-local moves)
                long id = pick(rnd, m.small);
                byte[] c = m.small.get(id);
                if (c.length > 16) {
                    int at = shiftInside(c, rnd);
                    if (tx != null) {
                        tx.write(ids.lookup(id)[0], at, c, at, c.length - at);
                    }
                }
            } else if (op < 70) {
                long id = pick(rnd, m.small);
                byte[] c = m.small.get(id);
                int at = rnd.nextInt(c.length);
                byte[] bytes = new byte[1 + rnd.nextInt(Math.min(64, c.length - at))];
                rnd.nextBytes(bytes);
                System.arraycopy(bytes, 0, c, at, bytes.length);
                if (tx != null) {
                    tx.write(ids.lookup(id)[0], at, bytes);
                }
            } else if (op < 85) {
                long id = pick(rnd, m.small);
                m.small.remove(id);
                if (tx != null) {
                    long ref = ids.lookup(id)[0];
                    assertTrue(ids.delete(id, ref));
                    assertTrue(tags.delete((int) (id % TAGS), ref));
                    tx.delete(ref);
                }
            } else if (op < 90 && maxLarge > 0) {
                long id = m.nextId++;
                byte[] content = new byte[rnd.nextInt(maxLarge)];
                rnd.nextBytes(content);
                m.large.put(id, content);
                if (tx != null) {
                    long ref = tx.allocateLarge(content.length, 0);
                    tx.writeLarge(ref, 0, content, 0, content.length);
                    large.insert(id, ref);
                }
            } else if (op < 92 && !m.large.isEmpty()) {
                long id = pick(rnd, m.large); // a large object's shift crosses its pages
                byte[] c = m.large.get(id);
                if (c.length > 16) {
                    int at = shiftInside(c, rnd);
                    if (tx != null) {
                        tx.writeLarge(large.lookup(id)[0], at, c, at, c.length - at);
                    }
                }
            } else if (op < 95 && !m.large.isEmpty()) {
                long id = pick(rnd, m.large);
                byte[] c = m.large.get(id);
                byte[] n = Arrays.copyOf(c, rnd.nextInt(maxLarge + 1));
                if (n.length > c.length && rnd.nextBoolean()) {
                    for (int b = c.length; b < n.length; b += 97) {
                        n[b] = (byte) rnd.nextInt();
                    }
                }
                m.large.put(id, n);
                if (tx != null) {
                    long ref = large.lookup(id)[0];
                    long nref = tx.resizeLarge(ref, n.length);
                    if (n.length > c.length) {
                        tx.writeLarge(nref, c.length, n, c.length, n.length - c.length);
                    }
                    if (nref != ref) {
                        large.delete(id, ref);
                        large.insert(id, nref);
                    }
                }
            } else if (!m.large.isEmpty() && op < 97) {
                long id = pick(rnd, m.large);
                m.large.remove(id);
                if (tx != null) {
                    long ref = large.lookup(id)[0];
                    large.delete(id, ref);
                    tx.deleteLarge(ref);
                }
            } else {
                // range scan of the ids index against the model (the transaction's own view)
                long lo = 1 + rnd.nextLong(m.nextId);
                long hi = lo + rnd.nextInt(50);
                if (tx == null) {
                    continue; // same random draws with and without a store, so replays stay in step
                }
                List<Long> got = new ArrayList<>();
                ids.scan(lo, hi, (k, v) -> got.add((Long) k));
                assertEquals(new ArrayList<>(m.small.subMap(lo, true, hi, true).keySet()), got);
            }
        }
    }

    /**
     * Inserts or deletes up to 300 random bytes inside {@code c} (at least 17 bytes long), keeping its length: the
     * bytes after the edit shift, the end falls off or new bytes come in. Returns the first changed index.
     */
    private static int shiftInside(byte[] c, SplittableRandom rnd) {
        int at = rnd.nextInt(c.length - 16);
        int k = 1 + rnd.nextInt(Math.min(rnd.nextBoolean() ? 8 : 300, c.length - at - 1));
        if (rnd.nextBoolean()) {
            System.arraycopy(c, at, c, at + k, c.length - at - k);
            for (int b = at; b < at + k; b++) {
                c[b] = (byte) rnd.nextInt();
            }
        } else {
            System.arraycopy(c, at + k, c, at, c.length - at - k);
            for (int b = c.length - k; b < c.length; b++) {
                c[b] = (byte) rnd.nextInt();
            }
        }
        return at;
    }

    /** A committed transaction of the torture / fault workloads: operations plus the counter update. */
    static void commitTxn(Store store, Model m, SplittableRandom rnd, int ops, int maxLarge) {
        try (Transaction tx = store.begin()) {
            operations(tx, m, rnd, ops, maxLarge);
            m.committed++;
            long c = tx.root("counter");
            tx.putLong(c, 0, m.committed);
            tx.putLong(c, 8, m.nextId);
            tx.commit();
        }
    }

    static void applyToModel(Model m, SplittableRandom rnd, int ops, int maxLarge) {
        operations(null, m, rnd, ops, maxLarge);
        m.committed++;
    }

    static long committedIn(Store store) {
        try (Transaction tx = store.begin()) {
            return tx.getLong(tx.root("counter"), 0);
        }
    }

    /** Rebuilds the model from the store's committed state. */
    static Model load(Store store) {
        Model m = new Model();
        try (Transaction tx = store.begin()) {
            long c = tx.root("counter");
            m.committed = tx.getLong(c, 0);
            m.nextId = tx.getLong(c, 8);
            tx.index("ids").scan(null, null, (k, ref) -> {
                m.small.put((Long) k, tx.read(ref));
                return true;
            });
            tx.index("large").scan(null, null, (k, ref) -> {
                byte[] b = new byte[(int) tx.largeSize(ref)];
                tx.readLarge(ref, 0, b, 0, b.length);
                m.large.put((Long) k, b);
                return true;
            });
        }
        return m;
    }

    /** Compares the whole store with the model and runs verify. */
    static void check(Store store, Model m, String context) {
        try (Transaction tx = store.begin()) {
            long c = tx.root("counter");
            assertEquals(m.committed, tx.getLong(c, 0), context);
            assertEquals(m.nextId, tx.getLong(c, 8), context);
            Index ids = tx.index("ids");
            Index tags = tx.index("tags");
            Index large = tx.index("large");
            assertEquals(m.small.size(), ids.size(), context);
            List<Long> keys = new ArrayList<>();
            Map<Integer, Set<Long>> byTag = new TreeMap<>();
            ids.scan(null, null, (k, ref) -> {
                keys.add((Long) k);
                byTag.computeIfAbsent((int) ((Long) k % TAGS), t -> new HashSet<>())
                        .add(ref);
                return true;
            });
            assertEquals(new ArrayList<>(m.small.keySet()), keys, context);
            for (Map.Entry<Long, byte[]> e : m.small.entrySet()) {
                assertArrayEquals(e.getValue(), tx.read(ids.lookup(e.getKey())[0]), context + " object " + e.getKey());
            }
            for (int t = 0; t < TAGS; t++) {
                Set<Long> got = new HashSet<>();
                for (long r : tags.lookup(t)) {
                    got.add(r);
                }
                assertEquals(byTag.getOrDefault(t, Set.of()), got, context + " tag " + t);
            }
            assertEquals(m.large.size(), large.size(), context);
            for (Map.Entry<Long, byte[]> e : m.large.entrySet()) {
                long ref = large.lookup(e.getKey())[0];
                assertEquals(e.getValue().length, tx.largeSize(ref), context);
                byte[] got = new byte[e.getValue().length];
                tx.readLarge(ref, 0, got, 0, got.length);
                assertArrayEquals(e.getValue(), got, context + " large " + e.getKey());
            }
        }
        VerifyReport r = store.verify();
        assertTrue(r.ok(), context + ": " + r);
    }
}
