package dev.quickstore.core;

import static dev.quickstore.core.KeptLeafFixture.treePages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.KeptLeafFixture.CutStore;
import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A numeric insert of a key above every key in the tree goes straight to the end of the tree's rightmost leaf, kept
 * from the insert before ({@code btree.NumericKeys}' rightmost-leaf memo): checked against a model and the tree's
 * structural check when ascending inserts interleave with random ones and with another tree's, at the unique check's
 * edge (the last key again), after an abort (the kept leaf was a page of the aborted transaction) and after the kept
 * leaf was emptied, freed and taken by another tree. Every such append is also checked against a descent by an
 * assertion (tests run with {@code -ea}); {@link dev.quickstore.core.btree.BPlusTree#rightmostAppends} shows the
 * memo was used.
 */
@ExtendWith(SeedExtension.class)
class RightmostLeafAppendTest {
    @TempDir
    Path dir;

    private static final StoreOptions OPTS = new StoreOptions(64, 1 << 20, 1 << 21);

    private static long appends(Store s, String name) {
        return s.run(() -> s.roots.index(name, false).rightmostAppends());
    }

    private static Map<Long, Long> scan(Transaction tx, String name) {
        Map<Long, Long> out = new TreeMap<>();
        List<Long> order = new ArrayList<>();
        tx.index(name).scanNumeric(Long.MIN_VALUE, Long.MAX_VALUE, (k, v) -> {
            order.add(k);
            out.merge(k, v, (a, b) -> {
                throw new AssertionError("key " + k + " twice in a unique index");
            });
            return true;
        });
        for (int i = 1; i < order.size(); i++) {
            assertTrue(
                    order.get(i - 1) < order.get(i),
                    "scan order at " + i + ": " + order.get(i - 1) + ", " + order.get(i));
        }
        return out;
    }

    @Test
    void ascendingInsertsBesideRandomOnesAndAnotherTree(Seed seed) throws Exception {
        SplittableRandom rnd = seed.splittable();
        Map<Long, Long> ids = new TreeMap<>();
        Map<Long, Long> dates = new TreeMap<>();
        try (Store s = Store.create(dir.resolve("db"), 4096, OPTS)) {
            try (Transaction tx = s.begin()) {
                tx.createIndex("ids", KeyType.LONG, 0, true);
                tx.createIndex("dates", KeyType.INT, 0, true);
                tx.commit();
            }
            long next = -5_000;
            for (int t = 0; t < 4; t++) {
                try (Transaction tx = s.begin()) {
                    Index idx = tx.index("ids");
                    Index byDate = tx.index("dates");
                    for (int i = 0; i < 3_000; i++) {
                        long key =
                                rnd.nextInt(20) == 0 ? rnd.nextLong(-10_000, next) : next++; // now and then one below
                        if (ids.putIfAbsent(key, 8 * (key & 0xffff) + 8) == null) {
                            assertTrue(idx.insertNumeric(key, 8 * (key & 0xffff) + 8), "key " + key);
                        }
                        int d = rnd.nextInt();
                        if (dates.putIfAbsent((long) d, 16L) == null) {
                            byDate.insertNumeric(d, 16);
                        }
                    }
                    tx.commit();
                }
                treePages(s, "ids");
                treePages(s, "dates");
            }
            try (Transaction tx = s.begin()) {
                assertEquals(ids, scan(tx, "ids"));
                assertEquals(dates, scan(tx, "dates"));
                for (long k : new long[] {-5_000, 0, next - 1}) {
                    assertEquals(ids.get(k), tx.index("ids").lookupFirst(k), "key " + k);
                }
                tx.commit();
            }
            long appended = appends(s, "ids");
            assertTrue(appended > 10_000, "ascending inserts that appended without a descent: " + appended);
            assertTrue(s.verify().ok());
        }
    }

    @Test
    void theLastKeyAgainTakesTheUniqueCheck() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 4096, OPTS)) {
            try (Transaction tx = s.begin()) {
                tx.createIndex("u", KeyType.INT, 0, true);
                tx.createIndex("m", KeyType.INT, 0, false);
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                Index u = tx.index("u");
                Index m = tx.index("m");
                for (int k = 1; k <= 100; k++) {
                    u.insertNumeric(k, 8L * k);
                    m.insertNumeric(k, 8L * k);
                }
                assertFalse(u.insertNumeric(100, 800), "the same entry again");
                assertThrows(DuplicateKeyException.class, () -> u.insertNumeric(100, 808));
                assertTrue(m.insertNumeric(100, 808), "a non-unique index takes a larger value of its last key");
                assertTrue(m.insertNumeric(100, 792), "and a smaller one, before it");
                assertTrue(m.insertNumeric(101, 8));
                List<Long> values = new ArrayList<>();
                m.scanNumeric(100, 101, (k, v) -> values.add(v));
                assertEquals(List.of(792L, 800L, 808L, 8L), values);
                tx.commit();
            }
            assertTrue(appends(s, "u") > 90 && appends(s, "m") > 90, appends(s, "u") + " / " + appends(s, "m"));
            treePages(s, "u");
            treePages(s, "m");
        }
    }

    /** The kept leaf was allocated by a transaction that aborted: the next transaction must not append to it. */
    @Test
    void aLeafOfAnAbortedTransactionIsNotKept() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 4096, OPTS)) {
            try (Transaction tx = s.begin()) {
                Index x = tx.createIndex("x", KeyType.LONG, 0, true);
                for (long k = 0; k < 100; k++) {
                    x.insertNumeric(k, 8 * k + 8);
                }
                tx.commit();
            }
            Set<Long> before = treePages(s, "x");
            try (Transaction tx = s.begin()) {
                Index x = tx.index("x");
                for (long k = 100; k < 2_000; k++) { // several new leaves, the kept one among them
                    x.insertNumeric(k, 8 * k + 8);
                }
                tx.abort();
            }
            assertEquals(before, treePages(s, "x"));
            try (Transaction tx = s.begin()) {
                Index x = tx.index("x");
                for (long k = 100; k < 400; k++) {
                    x.insertNumeric(k, 8 * k + 8);
                }
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                Map<Long, Long> found = scan(tx, "x");
                assertEquals(400, found.size());
                for (long k = 0; k < 400; k++) {
                    assertEquals(8 * k + 8, found.get(k), "key " + k);
                }
                tx.commit();
            }
            assertTrue(s.verify().ok());
        }
    }

    /**
     * The leaf kept by one transaction's inserts is made dirty again by the next transaction before it appends to
     * it: what each transaction appended is in the log, and a power cut after the commits ({@link
     * FaultInjectingFileIO}: no checkpoint, no write-back) loses none of it. (Appended through the segment kept from
     * the transaction before, the entries would be in memory and, after a clean close, in the volume, but not in the
     * log.)
     */
    @Test
    void theKeptLeafIsMadeDirtyAgainInTheNextTransaction(Seed seed) throws Exception {
        CutStore cut = CutStore.create(OPTS);
        Store s = cut.store();
        try (Transaction tx = s.begin()) {
            tx.createIndex("x", KeyType.LONG, 0, true);
            tx.commit();
        }
        for (long t = 0; t < 3; t++) {
            try (Transaction tx = s.begin()) {
                Index x = tx.index("x");
                for (long k = 100 * t; k < 100 * t + 100; k++) {
                    x.insertNumeric(k, 8 * k + 8);
                }
                tx.commit();
            }
        }
        assertTrue(appends(s, "x") > 250, "appends " + appends(s, "x"));
        cut.afterPowerCut(seed.splittable(), r -> {
            try (Transaction tx = r.begin()) {
                Map<Long, Long> found = scan(tx, "x");
                for (long k = 0; k < 300; k++) {
                    assertEquals(8 * k + 8, found.get(k), "key " + k + " after recovery");
                }
                assertEquals(300, found.size());
                tx.commit();
            }
        });
    }

    /**
     * The kept leaf is emptied by deletes and freed; another tree grows onto free pages, its own rightmost leaf
     * among them. The next ascending insert of the first tree must reach the first tree.
     */
    @Test
    void aFreedLeafTakenByAnotherTreeIsNotAppendedTo() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 4096, OPTS)) {
            try (Transaction tx = s.begin()) {
                tx.createIndex("a", KeyType.LONG, 0, true);
                tx.createIndex("b", KeyType.LONG, 0, true);
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                Index a = tx.index("a");
                Index b = tx.index("b");
                for (long k = 0; k < 1_000; k++) {
                    a.insertNumeric(k, 8 * k + 8);
                }
                Set<Long> full = treePages(s, "a");
                long k = 999;
                Set<Long> freed = new HashSet<>();
                while (freed.isEmpty()) { // delete from the top until the rightmost leaf is freed
                    assertTrue(a.deleteNumeric(k, 8 * k + 8));
                    k--;
                    freed.addAll(full);
                    freed.removeAll(treePages(s, "a"));
                }
                long top = k; // a holds 0..top
                // b grows by keys below all of a's until its newest leaf - its rightmost - is one of a's freed pages
                long bKey = -100_000;
                Set<Long> taken = new HashSet<>();
                while (taken.isEmpty() && bKey < -95_000) {
                    for (int i = 0; i < 10; i++, bKey++) {
                        b.insertNumeric(bKey, 8);
                    }
                    taken.addAll(treePages(s, "b"));
                    taken.retainAll(freed);
                }
                assertFalse(taken.isEmpty(), "b took none of a's freed pages " + freed + "; the test needs one");
                for (long j = top + 1; j < top + 50; j++) {
                    a.insertNumeric(j, 8 * j + 8);
                }
                Map<Long, Long> inA = scan(tx, "a");
                Map<Long, Long> inB = scan(tx, "b");
                assertEquals(top + 50, inA.size());
                assertEquals(bKey + 100_000, inB.size());
                for (long j = 0; j < top + 50; j++) {
                    assertEquals(8 * j + 8, inA.get(j), "a's key " + j);
                }
                for (long j = -100_000; j < bKey; j++) {
                    assertEquals(8, inB.get(j), "b's key " + j);
                }
                tx.commit();
            }
            treePages(s, "a");
            treePages(s, "b");
            assertTrue(s.verify().ok());
        }
    }
}
