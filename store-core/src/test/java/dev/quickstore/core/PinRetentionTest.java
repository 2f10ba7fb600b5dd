package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code BufferPool.endOperation} (issue #20): inside a running transaction an operation that pinned at most four
 * pages leaves them pinned for the next one (at most four stay pinned after any operation); one that pinned more, any operation outside a transaction and
 * the transaction's end (commit or abort) release every pin. With a pool of 16 frames and more pages than frames the
 * retained pins must not keep eviction from making room, and the data must come back intact after a reopen.
 */
class PinRetentionTest {
    @TempDir
    Path dir;

    @Test
    void smallOperationsKeepTheirPinsUntilTheTransactionEnds() throws Exception {
        try (Store store = Store.create(dir.resolve("db"), 8192, new StoreOptions(64, 1 << 20, 1L << 30))) {
            try (Transaction tx = store.begin()) {
                long prev = 0;
                int kept = 0;
                for (int i = 0; i < 2_000; i++) {
                    prev = tx.allocate(24, prev);
                    int pinned = store.pool.pinnedCount();
                    assertTrue(pinned <= 4, "pins kept after create " + i + ": " + pinned);
                    kept += pinned > 0 ? 1 : 0;
                }
                // about 250 objects of 24 bytes and their slots fit a page of 8 KiB; only the creates
                // that allocate a page (page 0, the space map, the new page and the hint's) pin more than four
                assertTrue(kept >= 1_900, "creates that kept their pins: " + kept);
                assertTrue(kept < 2_000, "a create that allocated a page kept more than four pins");
                long big = tx.allocateLarge(20 * 8192, 0); // operations over 20 pages, unpinned as they go
                tx.writeLarge(big, 0, new byte[20 * 8192], 0, 20 * 8192);
                assertTrue(store.pool.pinnedCount() <= 4);
                tx.allocate(24, prev);
                assertTrue(store.pool.pinnedCount() > 0);
                tx.commit();
            }
            assertEquals(0, store.pool.pinnedCount(), "commit releases every pin");
            try (Transaction tx = store.begin()) {
                tx.allocate(24, 0);
                assertTrue(store.pool.pinnedCount() > 0);
                tx.abort();
            }
            assertEquals(0, store.pool.pinnedCount(), "abort releases every pin");
            store.pageCount(); // an operation outside any transaction
            assertEquals(0, store.pool.pinnedCount());
        }
    }

    @Test
    void retainedPinsDoNotStarveASmallPool() throws Exception {
        StoreOptions opts = new StoreOptions(16, 1 << 20, 1L << 30);
        Path db = dir.resolve("small");
        List<Long> refs = new ArrayList<>();
        try (Store store = Store.create(db, 8192, opts)) {
            for (int t = 0; t < 3; t++) {
                try (Transaction tx = store.begin()) {
                    for (int i = 0; i < 40; i++) { // 40 objects of 5,000 bytes: one page each, over 16 frames
                        long o = tx.allocate(5_000, 0);
                        tx.write(o, 0, new byte[] {(byte) t, (byte) i, 1, 2, 3});
                        refs.add(o);
                        assertTrue(store.pool.pinnedCount() <= 4);
                    }
                    tx.commit();
                }
            }
        }
        try (Store store = Store.open(db, opts);
                Transaction tx = store.begin()) {
            for (int j = 0; j < refs.size(); j++) {
                byte[] got = new byte[5];
                tx.read(refs.get(j), 0, got, 0, 5);
                assertArrayEquals(new byte[] {(byte) (j / 40), (byte) (j % 40), 1, 2, 3}, got, "object " + j);
            }
            tx.commit();
        }
    }
}
