package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/** Long string keys (small fanout, so inner nodes split and the tree grows several levels) against a TreeMap. */
@ExtendWith(SeedExtension.class)
class BPlusTreeTest {
    @TempDir
    Path dir;

    @Test
    void randomInsertDeleteScanAgainstModelWithAbortsAndReopen(Seed seed) throws Exception {
        run(seed.value());
    }

    private void run(long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        Path db = dir.resolve("db");
        StoreOptions opts = new StoreOptions(64, 1 << 20, 1 << 21);
        TreeMap<String, TreeSet<Long>> model = new TreeMap<>();
        Store store = Store.create(db, 8192, opts);
        try {
            try (Transaction tx = store.begin()) {
                tx.createIndex("s", KeyType.STRING, 200, false);
                tx.commit();
            }
            for (int t = 0; t < 30; t++) {
                boolean abort = rnd.nextInt(5) == 0;
                TreeMap<String, TreeSet<Long>> m = new TreeMap<>();
                model.forEach((k, v) -> m.put(k, new TreeSet<>(v)));
                try (Transaction tx = store.begin()) {
                    Index ix = tx.index("s");
                    for (int i = 0; i < 400; i++) {
                        String key = "k" + "x".repeat(rnd.nextInt(150)) + rnd.nextInt(3000);
                        if (rnd.nextInt(3) > 0 || m.isEmpty()) {
                            long v = rnd.nextLong(1, 1000);
                            boolean added =
                                    m.computeIfAbsent(key, x -> new TreeSet<>()).add(v);
                            assertEquals(added, ix.insert(key, v));
                        } else {
                            String k = m.ceilingKey(key) != null ? m.ceilingKey(key) : m.firstKey();
                            long v = m.get(k).first();
                            assertTrue(ix.delete(k, v));
                            m.get(k).remove(v);
                            if (m.get(k).isEmpty()) {
                                m.remove(k);
                            }
                        }
                    }
                    String lo = "k" + "x".repeat(rnd.nextInt(150));
                    String hi = lo + "x";
                    List<String> expect = new ArrayList<>();
                    for (Map.Entry<String, TreeSet<Long>> e :
                            m.subMap(lo, true, hi, true).entrySet()) {
                        e.getValue().forEach(v -> expect.add(e.getKey() + "=" + v));
                    }
                    List<String> got = new ArrayList<>();
                    ix.scan(lo, hi, (k, v) -> got.add(k + "=" + v));
                    assertEquals(expect, got, "range scan");
                    if (abort) {
                        tx.abort();
                    } else {
                        tx.commit();
                        model = m;
                    }
                }
                if (t % 10 == 9) {
                    store.close();
                    store = Store.open(db, opts);
                }
                VerifyReport r = store.verify();
                assertTrue(r.ok(), r.toString());
                try (Transaction tx = store.begin()) {
                    Index ix = tx.index("s");
                    long n = model.values().stream().mapToLong(TreeSet::size).sum();
                    assertEquals(n, ix.size());
                    for (int probe = 0; probe < 50 && !model.isEmpty(); probe++) {
                        String k = model.ceilingKey("k" + "x".repeat(rnd.nextInt(150)));
                        if (k != null) {
                            assertArrayEquals(
                                    model.get(k).stream()
                                            .mapToLong(Long::longValue)
                                            .toArray(),
                                    ix.lookup(k));
                        }
                    }
                }
            }
            long entries = model.values().stream().mapToLong(TreeSet::size).sum();
            // 200-byte keys: a leaf holds about 38, so 1,000 entries need several levels. The count varies
            // with the seed (random aborts and deletes); the threshold leaves a wide margin.
            assertTrue(entries > 1000, "enough entries for a multi-level tree: " + entries);
        } finally {
            store.close();
        }
    }
}
