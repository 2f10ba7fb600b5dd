package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.index.KeyType;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index catalog's memo ({@code RootDirectory.index}): a name's meta page is looked up once and remembered for
 * the open store, except while the transaction that asks created an index itself, since its entry disappears if it
 * aborts. An index created and looked up in an aborted transaction is not found afterwards, and a new index of the
 * same name (another key type) is the one found; a remembered index keeps working while its tree grows (its root
 * moves inside its meta page) and after the store is reopened.
 */
class IndexCatalogMemoTest {
    @TempDir
    Path dir;

    @Test
    void anIndexOfAnAbortedTransactionIsNotRememberedAndANewOneOfItsNameIsFound() throws Exception {
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                tx.createIndex("x", KeyType.INT, 0, true).insertNumeric(1, 100);
                assertEquals(100, tx.index("x").lookupFirst(1), "found in the transaction that created it");
                tx.abort();
            }
            try (Transaction tx = s.begin()) {
                StoreException e = assertThrows(StoreException.class, () -> tx.index("x"));
                assertTrue(e.getMessage().contains("no index named \"x\""), e.getMessage());
            }
            try (Transaction tx = s.begin()) {
                Index x = tx.createIndex("x", KeyType.LONG, 0, true);
                for (long k = 0; k < 5_000; k++) {
                    x.insertNumeric(k << 20, 7 + k);
                }
                tx.commit();
            }
            for (int round = 0; round < 3; round++) {
                try (Transaction tx = s.begin()) {
                    Index x = tx.index("x");
                    assertEquals(7 + 4_999, x.lookupFirst(4_999L << 20), "round " + round);
                    for (long k = 0; k < 2_000; k++) { // the tree grows: its root moves inside the meta page
                        x.insertNumeric((5_000 + 2_000L * round + k) << 20, 1);
                    }
                    tx.commit();
                }
            }
        }
        try (Store s = Store.open(dir.resolve("db"));
                Transaction tx = s.begin()) {
            Index x = tx.index("x");
            assertEquals(12, x.lookupFirst(5L << 20));
            assertEquals(1, x.lookupFirst(10_999L << 20));
            assertArrayEquals(new long[0], x.lookup(11_000L << 20));
        }
    }

    /** A remembered index is handed out without the latch, but never by a transaction that ended. */
    @Test
    void aRememberedIndexIsNotHandedToAnEndedTransaction() throws Exception {
        try (Store s = Store.create(dir.resolve("db"))) {
            try (Transaction tx = s.begin()) {
                tx.createIndex("x", KeyType.INT, 0, true).insertNumeric(1, 100);
                tx.commit();
            }
            Index old;
            try (Transaction tx = s.begin()) {
                old = tx.index("x"); // remembered from here
                assertEquals(100, tx.index("x").lookupFirst(1));
                tx.commit();
                StoreException e = assertThrows(StoreException.class, () -> tx.index("x"));
                assertTrue(e.getMessage().contains("is committed"), e.getMessage());
            }
            StoreException e = assertThrows(StoreException.class, () -> old.lookupFirst(1));
            assertTrue(e.getMessage().contains("is committed"), e.getMessage());
            try (Transaction tx = s.begin()) {
                assertEquals(100, tx.index("x").lookupFirst(1), "the next transaction's handle works");
                tx.abort();
                assertThrows(StoreException.class, () -> tx.index("x"));
            }
        }
    }
}
