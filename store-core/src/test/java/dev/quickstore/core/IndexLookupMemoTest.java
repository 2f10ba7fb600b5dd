package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.index.KeyType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tree's point lookups are answered from its lookup memos ({@code btree.LookupMemo}, {@code btree.KeyedLookupMemo})
 * while the pool's entry stamp
 * holds, so every way entries change must step the stamp: a change through another handle on the same tree, a
 * change of another tree, an aborted transaction's undo. The cases look a key up first (so it is remembered), change
 * it, and look it up again. With assertions on (the test JVM) every answer from the memo is also compared with a
 * descent of the tree, so a stale answer fails either by that assertion or by the value.
 */
class IndexLookupMemoTest {
    @TempDir
    Path dir;

    @Test
    void anotherHandlesChangesAreSeen() throws Exception {
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                tx.createIndex("y", KeyType.INT, 0, true).insertNumeric(1, 11);
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                tx.createIndex("other", KeyType.INT, 0, true); // so "y" is opened anew by each call
                Index reader = tx.index("y");
                Index writer = tx.index("y");
                assertEquals(11, reader.lookupFirst(1));
                assertEquals(0, reader.lookupFirst(2), "absent, and remembered as absent");
                writer.insertNumeric(2, 22);
                assertEquals(22, reader.lookupFirst(2), "inserted through the other handle");
                assertEquals(11, reader.lookupFirst(1), "remembered since the last change");
                writer.deleteNumeric(1, 11);
                assertEquals(0, reader.lookupFirst(1), "deleted through the other handle");
                assertEquals(0, reader.lookupFirst(3), "absent since the last change");
                writer.insert(3, 33L); // the Object-keyed paths
                assertEquals(33, reader.lookupFirst(3), "inserted through the other handle's Object-keyed path");
                assertEquals(22, reader.lookupFirst(2), "remembered since the last change");
                writer.delete(2, 22L);
                assertEquals(0, reader.lookupFirst(2), "deleted through the other handle's Object-keyed path");
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                Index y = tx.index("y");
                assertEquals(0, y.lookupFirst(1));
                assertEquals(0, y.lookupFirst(2));
                assertEquals(33, y.lookupFirst(3));
                tx.commit();
            }
        }
    }

    @Test
    void anAbortedTransactionsChangesAreForgotten() throws Exception {
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                Index n = tx.createIndex("n", KeyType.LONG, 0, true);
                for (long k = 0; k < 100; k++) {
                    n.insertNumeric(k, 1_000 + k);
                }
                tx.commit();
            }
            for (int round = 0; round < 3; round++) {
                try (Transaction tx = s.begin()) {
                    Index n = tx.index("n"); // the remembered tree: its memo lives across transactions
                    assertEquals(1_005, n.lookupFirst(5), "round " + round);
                    assertEquals(0, n.lookupFirst(500), "round " + round);
                    n.deleteNumeric(5, 1_005);
                    n.insertNumeric(500, 5_000);
                    assertEquals(0, n.lookupFirst(5), "round " + round + ", deleted in this transaction");
                    assertEquals(5_000, n.lookupFirst(500), "round " + round + ", inserted in this transaction");
                    tx.abort();
                }
                try (Transaction tx = s.begin()) {
                    Index n = tx.index("n");
                    assertEquals(1_005, n.lookupFirst(5), "round " + round + ", the delete was undone");
                    assertEquals(0, n.lookupFirst(500), "round " + round + ", the insert was undone");
                    tx.commit();
                }
            }
        }
    }

    @Test
    void keyedLookupsSeeChangesAndForgetAborts() throws Exception {
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                Index t = tx.createIndex("t", KeyType.STRING, 16, false);
                t.insert("a", 0x10L);
                t.insert("b", 0x20L);
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                tx.createIndex("other", KeyType.INT, 0, true); // so "t" is opened anew by each call
                Index reader = tx.index("t");
                Index writer = tx.index("t");
                assertArrayEquals(new long[] {0x10}, reader.lookup("a"));
                long[] mine = reader.lookup("a");
                mine[0] = 99; // a caller's array is its own
                assertArrayEquals(new long[] {0x10}, reader.lookup("a"), "the memo's answer is not the caller's array");
                assertArrayEquals(new long[0], reader.lookup("c"), "absent, and remembered as absent");
                writer.insert("c", 0x30L);
                assertArrayEquals(new long[] {0x30}, reader.lookup("c"), "inserted through the other handle");
                assertArrayEquals(new long[] {0x10}, reader.lookup("a"), "remembered since the last change");
                writer.insert("a", 0x11L); // a second value of a key
                assertArrayEquals(new long[] {0x10, 0x11}, reader.lookup("a"));
                writer.delete("a", 0x10L);
                assertArrayEquals(new long[] {0x11}, reader.lookup("a"), "deleted through the other handle");
                tx.commit();
            }
            for (int round = 0; round < 2; round++) {
                try (Transaction tx = s.begin()) {
                    Index t = tx.index("t");
                    assertArrayEquals(new long[] {0x20}, t.lookup("b"), "round " + round);
                    assertArrayEquals(new long[0], t.lookup("d"), "round " + round);
                    t.delete("b", 0x20L);
                    t.insert("d", 0x40L);
                    assertArrayEquals(new long[0], t.lookup("b"), "round " + round);
                    assertArrayEquals(new long[] {0x40}, t.lookup("d"), "round " + round);
                    tx.abort();
                }
                try (Transaction tx = s.begin()) {
                    Index t = tx.index("t");
                    assertArrayEquals(new long[] {0x20}, t.lookup("b"), "round " + round + ", the delete was undone");
                    assertArrayEquals(new long[0], t.lookup("d"), "round " + round + ", the insert was undone");
                    tx.commit();
                }
            }
        }
    }

    /**
     * A point lookup made inside another operation (a scan's visitor: an index-nested-loops join) is answered from the
     * memo without an operation of its own: while the inner index is unchanged it pins nothing (its answers, checked
     * against a descent with assertions on, release that descent's pins), and it sees the inserts and deletes that the
     * visitor itself makes later (each steps the stamp). Every answer is compared with a model.
     */
    @Test
    void nestedLookupsAreAnsweredFromMemoryAndSeeTheVisitorsChanges() throws Exception {
        Map<Long, Long> docs = new HashMap<>();
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                Index parts = tx.createIndex("parts", KeyType.INT, 0, true);
                Index d = tx.createIndex("docs", KeyType.INT, 0, true);
                for (long k = 1; k <= 4_000; k++) {
                    parts.insertNumeric(k, 0x1000 + k);
                }
                for (long doc = 0; doc < 20_000; doc += 2) { // odd documents absent; a few dozen leaves
                    d.insertNumeric(doc, 0x90000 + doc);
                    docs.put(doc, 0x90000 + doc);
                }
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                Index parts = tx.index("parts");
                Index d = tx.index("docs");
                for (long k = 1; k <= 4_000; k++) { // remembered by top-level lookups
                    assertEquals(docs.getOrDefault(docOf(k), 0L), d.lookupFirst(docOf(k)));
                }
                long before = s.roots.remembered("docs").rememberedAnswers();
                int[] visits = {0};
                parts.scanNumeric(1, 4_000, (k, v) -> {
                    long doc = docOf(k);
                    long expected = docs.getOrDefault(doc, 0L);
                    int pinned = s.pool.pinnedCount();
                    assertEquals(expected, d.lookupFirst(doc), "document " + doc + " at part " + k);
                    assertEquals(expected, d.lookupFirst(doc), "document " + doc + " again at part " + k);
                    if (k <= 2_000) {
                        assertEquals(pinned, s.pool.pinnedCount(), "remembered lookups pin nothing, part " + k);
                    } else if (k % 50 == 0) { // the visitor changes the inner index: the next lookups must see it
                        long next = docOf(k + 1);
                        if (docs.containsKey(next)) {
                            d.deleteNumeric(next, docs.remove(next));
                        } else {
                            d.insertNumeric(next, 0x70000 + next);
                            docs.put(next, 0x70000 + next);
                        }
                    }
                    visits[0]++;
                    return true;
                });
                assertEquals(4_000, visits[0]);
                long answered = s.roots.remembered("docs").rememberedAnswers() - before;
                assertTrue(answered >= 4_000, "nested lookups answered from memory: " + answered);
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                Index d = tx.index("docs");
                for (long k = 1; k <= 4_001; k++) {
                    assertEquals(docs.getOrDefault(docOf(k), 0L), d.lookupFirst(docOf(k)), "part " + k + " after");
                }
                tx.commit();
            }
        }
    }

    /** The document a part joins in {@link #nestedLookupsAreAnsweredFromMemoryAndSeeTheVisitorsChanges}: spread. */
    private static long docOf(long part) {
        return part * 7 % 20_000;
    }

    /** Seeded random changes of two trees, committed or aborted, each lookup compared with a model. */
    @Test
    void lookupsAgreeWithAModel() throws Exception {
        Random rnd = new Random(7);
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                tx.createIndex("a", KeyType.INT, 0, true);
                tx.createIndex("b", KeyType.LONG, 0, false);
                tx.commit();
            }
            Map<Long, Long> a = new HashMap<>();
            Map<Long, Long> b = new HashMap<>();
            for (int t = 0; t < 60; t++) {
                Map<Long, Long> a2 = new HashMap<>(a);
                Map<Long, Long> b2 = new HashMap<>(b);
                boolean commit = rnd.nextInt(3) > 0;
                try (Transaction tx = s.begin()) {
                    Index ia = tx.index("a");
                    Index ib = tx.index("b");
                    for (int op = 0; op < 80; op++) {
                        long k = rnd.nextInt(60); // few keys: most are looked up between two changes of theirs
                        switch (rnd.nextInt(5)) {
                            case 0 -> {
                                if (!a2.containsKey(k)) {
                                    ia.insertNumeric(k, 7 * k + t);
                                    a2.put(k, 7 * k + t);
                                }
                            }
                            case 1 -> {
                                Long v = a2.remove(k);
                                if (v != null) {
                                    ia.deleteNumeric(k, v);
                                }
                            }
                            case 2 -> { // b holds at most one value per key here, so its first is that value
                                Long v = b2.remove(k);
                                if (v != null) {
                                    ib.deleteNumeric(k, v);
                                } else {
                                    ib.insertNumeric(k, 11 * k + t);
                                    b2.put(k, 11 * k + t);
                                }
                            }
                            default -> {
                                assertEquals(a2.getOrDefault(k, 0L), ia.lookupFirst(k), "a: key " + k + ", txn " + t);
                                assertEquals(b2.getOrDefault(k, 0L), ib.lookupFirst(k), "b: key " + k + ", txn " + t);
                            }
                        }
                    }
                    if (commit) {
                        tx.commit();
                        a = a2;
                        b = b2;
                    } else {
                        tx.abort();
                    }
                }
                try (Transaction tx = s.begin()) {
                    Index ia = tx.index("a");
                    for (long k = 0; k < 60; k++) {
                        assertEquals(a.getOrDefault(k, 0L), ia.lookupFirst(k), "a: key " + k + " after txn " + t);
                    }
                    tx.commit();
                }
            }
        }
    }
}
