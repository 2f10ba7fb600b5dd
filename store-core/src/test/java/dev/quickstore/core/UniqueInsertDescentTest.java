package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unique check of {@code BPlusTree.insertNumeric} made on the insert's own descent (issue #20): another value of
 * a present key must be refused wherever the new entry would land - inside a leaf, at a leaf's start (the key's entry
 * is the last of a previous leaf) or at its end (the first of a later leaf), across a run of leaves removed by deletes -
 * and the entry count on the meta page must stay exact through refusals, an abort (undo), a commit and a reopen.
 * Every key is probed with its value - 1 and + 1, so each leaf boundary is crossed both ways; 4 KiB pages give
 * the 5,000 LONG entries a few hundred leaves of 170.
 */
class UniqueInsertDescentTest {
    private static final int KEYS = 5_000;

    @TempDir
    Path dir;

    private static long value(long key) {
        return 1_000 + key * 16; // distinct, with room for value - 1 and value + 1 that belong to no other key
    }

    @Test
    void anotherValueOfAPresentKeyIsRefusedAtEveryLeafBoundary() throws Exception {
        Path db = dir.resolve("db");
        StoreOptions opts = new StoreOptions(64, 1 << 20, 1 << 21);
        try (Store store = Store.create(db, 4096, opts)) {
            try (Transaction tx = store.begin()) {
                Index ix = tx.createIndex("id", KeyType.LONG, 0, true);
                for (long k = 0; k < KEYS; k++) { // ascending: every insert lands at the end of the last leaf
                    assertTrue(ix.insertNumeric(k * 3, value(k)));
                }
                tx.commit();
            }
            try (Transaction tx = store.begin()) {
                Index ix = tx.index("id");
                assertEquals(KEYS, ix.size());
                for (long k = 0; k < KEYS; k++) {
                    long key = k * 3;
                    long v = value(k);
                    assertFalse(ix.insertNumeric(key, v), "the same entry again");
                    assertThrows(DuplicateKeyException.class, () -> ix.insertNumeric(key, v - 1), "below, key " + key);
                    assertThrows(DuplicateKeyException.class, () -> ix.insertNumeric(key, v + 1), "above, key " + key);
                }
                assertEquals(KEYS, ix.size(), "refusals changed the count");
                // empty a run of leaves in the middle: keys 1,000..2,999 go, and their leaves with them (NodeRemovals)
                for (long k = 1_000; k < 3_000; k++) {
                    assertTrue(ix.deleteNumeric(k * 3, value(k)));
                }
                for (long k : new long[] {999, 3_000}) { // the keys on either side of the removed leaves
                    long key = k * 3;
                    long v = value(k);
                    assertThrows(DuplicateKeyException.class, () -> ix.insertNumeric(key, v - 1), "below " + key);
                    assertThrows(DuplicateKeyException.class, () -> ix.insertNumeric(key, v + 1), "above " + key);
                    assertThrows(DuplicateKeyException.class, () -> ix.insertNumeric(key, 1), "smallest " + key);
                    assertThrows(
                            DuplicateKeyException.class, () -> ix.insertNumeric(key, Long.MAX_VALUE), "largest " + key);
                }
                // keys between the present ones, and the deleted ones, are free (any value)
                assertTrue(ix.insertNumeric(1, 7));
                assertTrue(ix.insertNumeric(2_000 * 3, 7));
                assertTrue(ix.insertNumeric(-5, value(0) - 1));
                assertEquals(KEYS - 2_000 + 3, ix.size());
                tx.abort();
            }
            try (Transaction tx = store.begin()) {
                Index ix = tx.index("id");
                assertEquals(KEYS, ix.size(), "the abort restored the count");
                for (long k = 0; k < KEYS; k += 7) {
                    assertEquals(value(k), ix.lookupFirst(k * 3));
                }
                for (long k = 0; k < KEYS; k += 2) { // delete every other key, then insert new keys between
                    assertTrue(ix.deleteNumeric(k * 3, value(k)));
                }
                for (long k = 0; k < KEYS; k++) {
                    assertTrue(ix.insertNumeric(k * 3 + 1, value(k) + 2));
                }
                tx.commit();
            }
            assertTrue(store.verify().ok(), () -> store.verify().toString());
        }
        try (Store store = Store.open(db, opts)) {
            try (Transaction tx = store.begin()) {
                Index ix = tx.index("id");
                assertEquals(KEYS / 2 + KEYS, ix.size(), "count after reopen");
                long absent = ix.lookupFirst(-1_000);
                for (long k = 0; k < KEYS; k++) {
                    long key = k * 3 + 1;
                    long v = value(k) + 2;
                    assertThrows(DuplicateKeyException.class, () -> ix.insertNumeric(key, v - 1));
                    assertThrows(DuplicateKeyException.class, () -> ix.insertNumeric(key, v + 1));
                    assertEquals(k % 2 == 1 ? value(k) : absent, ix.lookupFirst(k * 3));
                }
                tx.commit();
            }
            assertTrue(store.verify().ok(), () -> store.verify().toString());
        }
    }
}
