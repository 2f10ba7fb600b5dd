package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.index.KeyType;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A B+tree updates its entry count in the meta page with every insert and delete ({@code BPlusTree.addSize}), and the
 * pool hands that page out again from the segment kept from the transaction's first update while its write stamp
 * holds ({@code KeptWriteSegments}). The stamp must end with the transaction: the next
 * transaction's first update finds the meta page clean (commit's clean point) or restored (abort), and a count written
 * through the old segment would have no pre-image and be in no log record. Checked in memory after an abort and after
 * a power cut: every committed transaction's count is there, the aborted one's is not. With the stamp left valid
 * across a transaction's end (or ignored) the aborted insert's count stays: the abort has no pre-image to restore.
 */
class IndexEntryCountTest {
    @Test
    void everyCommittedTransactionsCountIsLoggedAndAnAbortedOnesIsNot() throws Exception {
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Store store = HotPageStealTest.freshStore(fs);
        try (Transaction tx = store.begin()) {
            Index ids = tx.createIndex("ids", KeyType.INT, 0, true);
            for (int k = 1; k <= 3; k++) {
                ids.insertNumeric(k, 8L * k);
            }
            tx.commit();
        }
        try (Transaction tx = store.begin()) {
            tx.index("ids").insertNumeric(4, 32);
            tx.commit();
        }
        try (Transaction tx = store.begin()) {
            tx.index("ids").deleteNumeric(1, 8);
            tx.commit();
        }
        try (Transaction tx = store.begin()) {
            tx.index("ids").insertNumeric(5, 40);
            assertEquals(4, tx.index("ids").size(), "counted in the running transaction");
            tx.abort();
        }
        try (Transaction tx = store.begin()) {
            Index ids = tx.index("ids");
            assertEquals(3, ids.size(), "the abort restored the count");
            ids.insertNumeric(6, 48);
            tx.commit();
        }
        fs.crash(new SplittableRandom(5)); // never closed: only the log holds the commits
        try (Store s = Store.open(fs, HotPageStealTest.DIR, HotPageStealTest.OPTS)) {
            try (Transaction tx = s.begin()) {
                Index ids = tx.index("ids");
                assertEquals(4, ids.size(), "entries 2, 3, 4 and 6");
                for (int k : new int[] {2, 3, 4, 6}) {
                    assertTrue(ids.lookupFirst(k) != 0, "key " + k);
                }
                assertEquals(0, ids.lookupFirst(1), "deleted");
                assertEquals(0, ids.lookupFirst(5), "aborted");
                tx.commit();
            }
            assertTrue(s.verify().ok(), "verify after recovery: " + s.verify());
        }
        CommitCleanPointTest.closeCrashed(store);
    }
}
