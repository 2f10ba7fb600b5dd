package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A page freed, stolen and allocated again by one transaction that then aborts (found by {@link ModelBasedTest}, seed
 * -2691368054344105423). The steal logs the freeing as an UPDATE whose undo expects the page as the steal wrote it;
 * {@code BufferPool.fixNew} must then read the page, not install zeros, or the abort's undo applies the freeing's
 * before-image bytes (type and head) onto a zero page and leaves a large-object page whose page id field is 0.
 */
class StolenNewPageTest {
    @TempDir
    Path dir;

    /**
     * @param k objects on pages of their own, all dirtied after the free: 14 and 15 make one steal batch whose
     *     undo leaves the reallocated page resident (the case that failed before the fix); 30 makes the undo re-read it
     * @param commit commit (then reopen) instead of aborting
     */
    @ParameterizedTest
    @CsvSource({"14,false", "15,false", "30,false", "14,true", "30,true"})
    void freedStolenAndReallocatedPageEndsAsCommitted(int k, boolean commit) throws Exception {
        StoreOptions opts = new StoreOptions(16, 1 << 20, 1L << 30);
        byte[] big = new byte[12_000]; // two pages: the head and one more
        Arrays.fill(big, (byte) 7);
        long ref;
        try (Store store = Store.create(dir.resolve("db" + k), 8192, opts)) {
            List<Long> spread = new ArrayList<>();
            try (Transaction tx = store.begin()) {
                ref = tx.allocateLarge(big.length, 0);
                tx.writeLarge(ref, 0, big, 0, big.length);
                for (int i = 0; i < k; i++) { // one object per page: more pages than frames
                    long o = tx.allocate(6000, 0);
                    tx.write(o, 0, new byte[] {(byte) i});
                    spread.add(o);
                }
                tx.commit();
            }
            long steals0 = store.pool.steals();
            try (Transaction tx = store.begin()) {
                assertEquals(ref, tx.resizeLarge(ref, 100)); // frees the second page of the run
                for (long o : spread) { // dirties every page: the freed page is stolen (written, evicted)
                    tx.write(o, 1, new byte[] {1});
                }
                long freed = store.addresses.pageOf(ref) + 1;
                assertTrue(store.pool.steals() > steals0, "no steal happened: the test needs one");
                assertTrue(store.pool.frames().resident(freed) == null, "page " + freed + " still resident");
                assertEquals(ref, tx.resizeLarge(ref, big.length)); // claims the freed page again: fixNew
                if (commit) {
                    tx.writeLarge(ref, 0, big, 0, big.length);
                    tx.commit();
                } else {
                    tx.abort();
                }
            }
            assertTrue(
                    store.verify().ok(), "verify after the " + (commit ? "commit" : "abort") + ": " + store.verify());
        }
        try (Store store = Store.open(dir.resolve("db" + k), opts)) {
            assertTrue(store.verify().ok(), "verify after reopening: " + store.verify());
            try (Transaction tx = store.begin()) {
                byte[] got = new byte[big.length];
                tx.readLarge(ref, 0, got, 0, got.length);
                assertArrayEquals(big, got);
            }
        }
    }
}
