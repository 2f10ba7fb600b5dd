package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The allocation-free numeric index paths ({@link Index#lookupFirst}, {@link Index#scanNumeric}, {@link
 * Index#insertNumeric}, {@link Index#deleteNumeric}) against a {@code TreeMap} model, mixed with the boxed
 * {@code Object} paths on the same tree (both must see one encoding): seeded random keys from a narrow range
 * (hits, misses, duplicate keys with several values, deletes of present and absent entries), aborted
 * transactions, a reopen, 4 KiB pages so that the trees have many leaves.
 */
@ExtendWith(SeedExtension.class)
class IndexNumericKeysTest {
    @TempDir
    Path dir;

    @Test
    void intUniqueAgainstModel(Seed seed) throws Exception {
        run(seed.value(), KeyType.INT, true, 60_000);
    }

    @Test
    void intDuplicatesAgainstModel(Seed seed) throws Exception {
        run(seed.value(), KeyType.INT, false, 8_000);
    }

    @Test
    void longUniqueAgainstModel(Seed seed) throws Exception {
        run(seed.value(), KeyType.LONG, true, 60_000);
    }

    @Test
    void longDuplicatesAgainstModel(Seed seed) throws Exception {
        run(seed.value(), KeyType.LONG, false, 8_000);
    }

    /** Keys from [-range, range] plus the type's extremes, scaled for LONG so that the high bytes differ too. */
    private static long key(SplittableRandom rnd, KeyType type, int range) {
        int pick = rnd.nextInt(100);
        if (pick == 0) {
            return type == KeyType.INT ? Integer.MIN_VALUE : Long.MIN_VALUE;
        }
        if (pick == 1) {
            return type == KeyType.INT ? Integer.MAX_VALUE : Long.MAX_VALUE;
        }
        long k = rnd.nextLong(-range, range + 1);
        return type == KeyType.INT ? k : k * 0x1_0000_0001L;
    }

    private static Object boxed(KeyType type, long key) {
        return type == KeyType.INT ? (Object) (int) key : (Object) key;
    }

    private void run(long seed, KeyType type, boolean unique, int range) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        Path db = dir.resolve("db");
        StoreOptions opts = new StoreOptions(64, 1 << 20, 1 << 21);
        TreeMap<Long, TreeSet<Long>> model = new TreeMap<>();
        Store store = Store.create(db, 4096, opts);
        try {
            try (Transaction tx = store.begin()) {
                tx.createIndex("n", type, 0, unique);
                tx.createIndex("s", KeyType.STRING, 16, false);
                tx.commit();
            }
            for (int t = 0; t < 16; t++) {
                boolean abort = rnd.nextInt(5) == 0;
                TreeMap<Long, TreeSet<Long>> m = new TreeMap<>();
                model.forEach((k, v) -> m.put(k, new TreeSet<>(v)));
                try (Transaction tx = store.begin()) {
                    Index ix = tx.index("n");
                    for (int i = 0; i < 2_000; i++) {
                        long key = key(rnd, type, range);
                        boolean boxedPath = rnd.nextInt(4) == 0;
                        int op = rnd.nextInt(10);
                        if (op < 7) {
                            long v = unique ? rnd.nextLong(1, 1L << 40) : rnd.nextLong(1, 6);
                            TreeSet<Long> present = m.get(key);
                            if (unique && present != null && !present.contains(v)) {
                                assertThrows(
                                        DuplicateKeyException.class,
                                        () -> ix.insertNumeric(key, v),
                                        "second value for unique key " + key);
                                assertThrows(DuplicateKeyException.class, () -> ix.insert(boxed(type, key), v));
                                continue;
                            }
                            boolean added =
                                    m.computeIfAbsent(key, x -> new TreeSet<>()).add(v);
                            assertEquals(
                                    added,
                                    boxedPath ? ix.insert(boxed(type, key), v) : ix.insertNumeric(key, v),
                                    "insert " + key + " -> " + v);
                        } else if (op < 9 && !m.isEmpty()) {
                            Long k = m.ceilingKey(key) != null ? m.ceilingKey(key) : m.firstKey();
                            long v = m.get(k).last();
                            assertTrue(boxedPath ? ix.delete(boxed(type, k), v) : ix.deleteNumeric(k, v), "delete");
                            m.get(k).remove(v);
                            if (m.get(k).isEmpty()) {
                                m.remove(k);
                            }
                        } else {
                            long v = rnd.nextLong(1, 6);
                            boolean present = m.containsKey(key) && m.get(key).contains(v);
                            assertEquals(present, ix.deleteNumeric(key, v), "delete of a maybe absent entry");
                            if (present) {
                                m.get(key).remove(v);
                                if (m.get(key).isEmpty()) {
                                    m.remove(key);
                                }
                            }
                        }
                    }
                    probe(rnd, type, range, ix, m);
                    if (abort) {
                        tx.abort();
                    } else {
                        tx.commit();
                        model = m;
                    }
                }
                if (t == 7) {
                    store.close();
                    store = Store.open(db, opts);
                }
                VerifyReport r = store.verify();
                assertTrue(r.ok(), r.toString());
                try (Transaction tx = store.begin()) {
                    probe(rnd, type, range, tx.index("n"), model);
                }
            }
            try (Transaction tx = store.begin()) {
                Index ix = tx.index("n");
                long entries = model.values().stream().mapToLong(TreeSet::size).sum();
                assertEquals(entries, ix.size());
                List<String> all = new ArrayList<>();
                ix.scanNumeric(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> all.add(k + "=" + v));
                assertEquals(expected(model, Long.MIN_VALUE, Long.MAX_VALUE), all, "full scan");
                // 4 KiB pages: an INT leaf holds 337 entries, a LONG leaf 253: the unique trees have dozens of
                // leaves under an inner root (the splits of inner pages are BPlusTreeTest's, same code).
                assertTrue(entries > (unique ? 8_000 : 1_500), "enough entries for a multi-level tree: " + entries);
                Index s = tx.index("s");
                assertThrows(IllegalArgumentException.class, () -> s.lookupFirst(1));
                assertThrows(IllegalArgumentException.class, () -> s.insertNumeric(1, 1));
                if (type == KeyType.INT) {
                    assertEquals(0, ix.lookupFirst(1L << 40), "a long beyond the int range is no INT key");
                    assertThrows(IllegalArgumentException.class, () -> ix.insertNumeric(1L << 40, 7));
                    assertFalse(ix.deleteNumeric(-(1L << 40), 7));
                }
            }
        } finally {
            store.close();
        }
    }

    private static List<String> expected(TreeMap<Long, TreeSet<Long>> m, long lo, long hi) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<Long, TreeSet<Long>> e : m.subMap(lo, true, hi, true).entrySet()) {
            e.getValue().forEach(v -> out.add(e.getKey() + "=" + v));
        }
        return out;
    }

    private static void probe(SplittableRandom rnd, KeyType type, int range, Index ix, TreeMap<Long, TreeSet<Long>> m) {
        int hits = 0;
        for (int i = 0; i < 300; i++) {
            long key = key(rnd, type, range);
            if (rnd.nextBoolean() && !m.isEmpty()) { // a hit
                key = m.ceilingKey(key) != null ? m.ceilingKey(key) : m.lastKey();
            }
            TreeSet<Long> vs = m.get(key);
            long expect = vs == null ? 0 : vs.first();
            hits += vs == null ? 0 : 1;
            assertEquals(expect, ix.lookupFirst(key), "lookupFirst " + key);
            long[] all = ix.lookup(boxed(type, key));
            assertArrayEquals(
                    vs == null
                            ? new long[0]
                            : vs.stream().mapToLong(Long::longValue).toArray(),
                    all,
                    "lookup " + key);
        }
        assertTrue(m.isEmpty() || hits > 0, "the probes hit some keys");
        for (int i = 0; i < 20; i++) {
            long a = key(rnd, type, range);
            long b = a + rnd.nextLong(0, range / 4 + 1) * (type == KeyType.INT ? 1 : 0x1_0000_0001L);
            long lo = Math.min(a, b);
            long hi = Math.max(a, b) < a ? Long.MAX_VALUE : Math.max(a, b); // overflow at the extremes
            List<String> got = new ArrayList<>();
            ix.scanNumeric(lo, hi, (k, v) -> got.add(k + "=" + v));
            assertEquals(expected(m, lo, hi), got, "scan [" + lo + ", " + hi + "]");
            List<String> boxedScan = new ArrayList<>();
            if (type == KeyType.INT && (lo < Integer.MIN_VALUE || hi > Integer.MAX_VALUE)) {
                continue;
            }
            ix.scan(boxed(type, lo), boxed(type, hi), (k, v) -> boxedScan.add(k + "=" + v));
            assertEquals(got, boxedScan, "numeric and boxed scans agree");
            int[] seen = {0};
            ix.scanNumeric(lo, hi, (k, v) -> ++seen[0] < 3);
            assertEquals(Math.min(3, got.size()), seen[0], "the visitor stops the scan");
        }
    }
}
