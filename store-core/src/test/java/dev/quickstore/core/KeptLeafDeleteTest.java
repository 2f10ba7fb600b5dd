package dev.quickstore.core;

import static dev.quickstore.core.KeptLeafFixture.treePages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.KeptLeafFixture.CutStore;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A numeric delete of an entry between the first and last entries of the leaf the delete before took an entry from
 * is answered in that leaf ({@code btree.NumericKeys}' kept leaf of deletes): checked against a model through runs
 * of deletes in both directions, deletes of absent entries, a non-unique tree, deletes inside scans, aborts, a
 * power cut after deletes in the transaction after the one that kept the leaf, and a kept leaf emptied, freed and
 * taken by another tree. Every answer from the kept leaf is also checked against a descent by an assertion (tests
 * run with {@code -ea}); {@link dev.quickstore.core.btree.BPlusTree#keptLeafDeletes} shows the leaf was used.
 */
@ExtendWith(SeedExtension.class)
class KeptLeafDeleteTest {
    @TempDir
    Path dir;

    private static final StoreOptions OPTS = new StoreOptions(64, 1 << 20, 1 << 21);

    private static long keptDeletes(Store s, String name) {
        return s.run(() -> s.roots.index(name, false).keptLeafDeletes());
    }

    /** The entries of {@code name} as (key, value) pairs packed in a long[2] list, in scan order. */
    private static List<long[]> entries(Transaction tx, String name) {
        List<long[]> out = new ArrayList<>();
        tx.index(name).scanNumeric(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> out.add(new long[] {k, v}));
        return out;
    }

    private static void assertHolds(TreeSet<List<Long>> model, Transaction tx, String name, String when) {
        List<long[]> found = entries(tx, name);
        assertEquals(model.size(), found.size(), name + " " + when);
        int i = 0;
        for (List<Long> e : model) {
            assertEquals(e.get(0), found.get(i)[0], name + " key " + i + " " + when);
            assertEquals(e.get(1), found.get(i)[1], name + " value " + i + " " + when);
            i++;
        }
    }

    @Test
    void runsOfDeletesAgainstAModel(Seed seed) throws Exception {
        SplittableRandom rnd = seed.splittable();
        // (key, value) ordered as the tree orders them: by key, then by value (both non-negative here)
        TreeSet<List<Long>> ids = new TreeSet<>((a, b) ->
                a.get(0).equals(b.get(0)) ? Long.compare(a.get(1), b.get(1)) : Long.compare(a.get(0), b.get(0)));
        TreeSet<List<Long>> tags = new TreeSet<>(ids.comparator());
        try (Store s = Store.create(dir.resolve("db"), 4096, OPTS)) {
            try (Transaction tx = s.begin()) {
                Index x = tx.createIndex("ids", KeyType.LONG, 0, true);
                Index t = tx.createIndex("tags", KeyType.INT, 0, false);
                for (long k = 0; k < 6_000; k++) {
                    x.insertNumeric(k, 8 * k + 8);
                    ids.add(List.of(k, 8 * k + 8));
                    long tag = k % 97;
                    t.insertNumeric(tag, 8 * k + 8);
                    tags.add(List.of(tag, 8 * k + 8));
                }
                tx.commit();
            }
            for (int round = 0; round < 12; round++) {
                boolean abort = round % 4 == 3;
                TreeSet<List<Long>> idsBefore = new TreeSet<>(ids);
                TreeSet<List<Long>> tagsBefore = new TreeSet<>(tags);
                try (Transaction tx = s.begin()) {
                    Index x = tx.index("ids");
                    Index t = tx.index("tags");
                    for (int run = 0; run < 20; run++) {
                        long from = rnd.nextLong(6_000);
                        int len = 1 + rnd.nextInt(60);
                        boolean up = rnd.nextBoolean();
                        for (int i = 0; i < len; i++) {
                            long k = up ? from + i : from - i;
                            boolean had = ids.remove(List.of(k, 8 * k + 8));
                            assertEquals(had, x.deleteNumeric(k, 8 * k + 8), "ids key " + k);
                            long wrong = 8 * k + 16; // the key with another value: absent
                            assertFalse(x.deleteNumeric(k, wrong), "ids key " + k + " value " + wrong);
                        }
                        long tag = rnd.nextLong(97);
                        for (List<Long> e :
                                new ArrayList<>(tags.subSet(List.of(tag, 0L), List.of(tag, Long.MAX_VALUE)))) {
                            if (rnd.nextInt(3) == 0) {
                                tags.remove(e);
                                assertTrue(t.deleteNumeric(e.get(0), e.get(1)), "tags " + e);
                            }
                        }
                    }
                    if (round % 3 == 1) { // deletes from a scan's visitor: emptied leaves stay until the scan ends
                        long lo = rnd.nextLong(6_000);
                        x.scanNumeric(lo, lo + 300, (k, v) -> {
                            assertTrue(x.deleteNumeric(k, v), "ids key " + k + " in a scan");
                            ids.remove(List.of(k, v));
                            return true;
                        });
                    }
                    if (abort) {
                        tx.abort();
                        ids.clear();
                        ids.addAll(idsBefore);
                        tags.clear();
                        tags.addAll(tagsBefore);
                    } else {
                        tx.commit();
                    }
                }
                try (Transaction tx = s.begin()) {
                    assertHolds(ids, tx, "ids", "after round " + round);
                    assertHolds(tags, tx, "tags", "after round " + round);
                    tx.commit();
                }
                treePages(s, "ids");
                treePages(s, "tags");
            }
            long kept = keptDeletes(s, "ids");
            assertTrue(kept > 1_000, "deletes answered by the kept leaf: " + kept);
            assertTrue(s.verify().ok());
        }
    }

    /** Deletes answered by a leaf kept from the transaction before are logged: none comes back after a power cut. */
    @Test
    void theKeptLeafIsMadeDirtyAgainInTheNextTransaction(Seed seed) throws Exception {
        CutStore cut = CutStore.create(OPTS);
        Store s = cut.store();
        try (Transaction tx = s.begin()) {
            Index x = tx.createIndex("x", KeyType.LONG, 0, true);
            for (long k = 0; k < 200; k++) {
                x.insertNumeric(k, 8 * k + 8);
            }
            tx.commit();
        }
        for (long t = 0; t < 3; t++) {
            try (Transaction tx = s.begin()) {
                Index x = tx.index("x");
                for (long k = 50 * t; k < 50 * t + 50; k++) {
                    assertTrue(x.deleteNumeric(k, 8 * k + 8), "key " + k);
                }
                tx.commit();
            }
        }
        assertTrue(keptDeletes(s, "x") > 100, "kept-leaf deletes " + keptDeletes(s, "x"));
        cut.afterPowerCut(seed.splittable(), r -> {
            try (Transaction tx = r.begin()) {
                List<long[]> found = entries(tx, "x");
                assertEquals(50, found.size(), "entries after recovery");
                for (int i = 0; i < 50; i++) {
                    assertEquals(150 + i, found.get(i)[0]);
                }
                tx.commit();
            }
        });
    }

    /**
     * The kept leaf is emptied and freed, and another tree takes it with keys around one the first tree still
     * has: the first tree's delete of that key must find it in its own tree, and the other tree keeps its entry.
     */
    @Test
    void aFreedLeafTakenByAnotherTreeDoesNotAnswer() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 4096, OPTS)) {
            try (Transaction tx = s.begin()) {
                Index a = tx.createIndex("a", KeyType.LONG, 0, true);
                tx.createIndex("b", KeyType.LONG, 0, true);
                for (long k = 0; k < 2_000; k++) {
                    a.insertNumeric(k, 8 * k + 8);
                }
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                Index a = tx.index("a");
                Index b = tx.index("b");
                Set<Long> full = treePages(s, "a");
                Set<Long> freed = new HashSet<>();
                long k = 1_000;
                while (freed.isEmpty()) { // deletes up from 1,000 until the leaf that held 1,000 is freed
                    assertTrue(a.deleteNumeric(k, 8 * k + 8), "a's key " + k);
                    k++;
                    freed.addAll(full);
                    freed.removeAll(treePages(s, "a"));
                }
                long bKey = 0;
                Set<Long> taken = new HashSet<>();
                while (taken.isEmpty() && bKey < 990) { // b's newest leaf - the one with its latest keys - is a's
                    for (int i = 0; i < 10; i++, bKey++) {
                        b.insertNumeric(bKey, 1);
                    }
                    taken.addAll(treePages(s, "b"));
                    taken.retainAll(freed);
                }
                assertFalse(taken.isEmpty(), "b took none of a's freed pages " + freed + "; the test needs one");
                long key = bKey - 2; // in b's newest leaf, and a still has it (a's keys below 1,000 are all there)
                assertTrue(a.deleteNumeric(key, 8 * key + 8), "a's key " + key);
                assertFalse(a.deleteNumeric(key, 8 * key + 8), "a's key " + key + " again");
                assertEquals(1L, tx.index("b").lookupFirst(key), "b's key " + key);
                tx.commit();
            }
            treePages(s, "a");
            treePages(s, "b");
            assertTrue(s.verify().ok());
        }
    }
}
