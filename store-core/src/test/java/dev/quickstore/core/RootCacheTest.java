package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.core.index.KeyType;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A B+tree keeps its root and height between descents ({@code BPlusTree.readRoot}) while the pool's root stamp
 * holds: no root moved and no transaction ended since. Two handles on one tree in one transaction see each other's
 * root splits; a remembered tree whose root moved in an aborted transaction descends from the restored root after
 * the abort; lookups through STRING and numeric paths agree with what was inserted. With assertions on (the test
 * JVM), every kept root is also compared with the meta page's.
 */
class RootCacheTest {
    @TempDir
    Path dir;

    @Test
    void twoHandlesOfOneTreeSeeEachOthersRootSplits() throws Exception {
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                Index y = tx.createIndex("y", KeyType.LONG, 0, true);
                y.insertNumeric(1, 11);
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                tx.createIndex("other", KeyType.INT, 0, true); // so "y" is opened anew by each call
                Index reader = tx.index("y");
                Index writer = tx.index("y");
                assertEquals(11, reader.lookupFirst(1), "the reader keeps the one-leaf root");
                for (long k = 2; k <= 3_000; k++) { // several splits of the root
                    writer.insertNumeric(k, 10 * k);
                }
                for (long k = 1; k <= 3_000; k += 7) {
                    assertEquals(k == 1 ? 11 : 10 * k, reader.lookupFirst(k), "key " + k + " through the reader");
                }
                tx.commit();
            }
        }
    }

    @Test
    void aRootMovedByAnAbortedTransactionIsReadAgain() throws Exception {
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                Index x = tx.createIndex("x", KeyType.STRING, 24, true);
                Index n = tx.createIndex("n", KeyType.INT, 0, true);
                for (int k = 0; k < 50; k++) {
                    x.insert("key " + k, k);
                    n.insertNumeric(k, k);
                }
                tx.commit();
            }
            for (int round = 0; round < 3; round++) {
                try (Transaction tx = s.begin()) {
                    Index x = tx.index("x");
                    Index n = tx.index("n");
                    assertEquals(7, x.lookup("key 7")[0]);
                    assertEquals(7, n.lookupFirst(7));
                    for (int k = 50; k < 4_000; k++) { // the roots split in this transaction
                        x.insert("key " + k, k);
                        n.insertNumeric(k, k);
                    }
                    assertEquals(3_999, x.lookup("key 3999")[0]);
                    assertEquals(3_999, n.lookupFirst(3_999));
                    tx.abort();
                }
                try (Transaction tx = s.begin()) {
                    Index x = tx.index("x");
                    Index n = tx.index("n");
                    assertEquals(49, x.lookup("key 49")[0], "round " + round);
                    assertEquals(49, n.lookupFirst(49), "round " + round);
                    assertArrayEquals(new long[0], x.lookup("key 3999"), "round " + round);
                    assertArrayEquals(new long[0], n.lookup(3_999), "round " + round);
                    for (int k = 0; k < 50; k++) {
                        assertEquals(k, n.lookupFirst(k));
                    }
                    tx.commit();
                }
            }
        }
    }
}
