package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code BufferPool.endNestedOperation} (issue 13, OO7 Q8): the point lookups an index-scan visitor makes keep
 * their pins for the next visitor while the pool holds at most {@code nestedPinBound()} pins, and release them
 * beyond it; lookups of present and absent keys (first, last, between, outside) agree with the model, in a large
 * pool and in one of 16 frames with more index pages than frames.
 */
class NestedPinTest {
    @TempDir
    Path dir;

    private static final int KEYS = 20_000; // inner index: about 40 leaves of 4 KiB

    private static long value(long key) {
        return 0x1000 + key * 8;
    }

    private static Store build(Path db, int frames) throws Exception {
        Store store = Store.create(db, 4096, new StoreOptions(frames, 1 << 20, 1L << 30));
        try (Transaction tx = store.begin()) {
            tx.createIndex("outer", KeyType.INT, 0, true);
            tx.createIndex("inner", KeyType.INT, 0, true);
            Index outer = tx.index("outer");
            Index inner = tx.index("inner");
            for (int k = 0; k < KEYS; k++) {
                inner.insertNumeric(2L * k, value(2L * k)); // even keys only: odd ones are absent
            }
            for (int k = -2; k < 2 * KEYS + 2; k += 7) {
                outer.insertNumeric(k, 1);
            }
            tx.commit();
        }
        return store;
    }

    private static void lookUpFromAScan(Store store, int[] maxPinned, int[] retained) {
        try (Transaction tx = store.begin()) {
            Index outer = tx.index("outer");
            Index inner = tx.index("inner");
            int[] visited = {0};
            outer.scanNumeric(Long.MIN_VALUE, Long.MAX_VALUE, (key, ref) -> {
                int before = store.pool.pinnedCount();
                long got = inner.lookupFirst(key);
                long expected = key >= 0 && key < 2L * KEYS && key % 2 == 0 ? value(key) : 0;
                assertEquals(expected, got, "lookup of " + key);
                int after = store.pool.pinnedCount();
                maxPinned[0] = Math.max(maxPinned[0], after);
                if (after > before) {
                    retained[0]++;
                }
                visited[0]++;
                return true;
            });
            assertEquals((2 * KEYS + 4 + 6) / 7, visited[0]);
            assertEquals(value(0), inner.lookupFirst(0), "first key");
            assertEquals(value(2L * KEYS - 2), inner.lookupFirst(2L * KEYS - 2), "last key");
            assertEquals(0, inner.lookupFirst(2L * KEYS), "after the last key");
            assertEquals(0, inner.lookupFirst(Integer.MIN_VALUE), "before the first key");
            tx.commit();
        }
        assertEquals(0, store.pool.pinnedCount(), "commit releases every pin");
    }

    @Test
    void nestedLookupsKeepFewPinsAndReleaseBeyondTheBound() throws Exception {
        try (Store store = build(dir.resolve("db"), 1024)) {
            int[] maxPinned = {0};
            int[] retained = {0};
            lookUpFromAScan(store, maxPinned, retained);
            int bound = store.pool.nestedPinBound();
            assertEquals(16, bound);
            assertTrue(retained[0] > 0, "some nested lookups kept their pins");
            // the bound, plus one lookup's pins (meta, root, leaf) and the outer scan's (meta, root, leaf)
            assertTrue(maxPinned[0] <= bound + 6, "at most " + (bound + 6) + " pinned, saw " + maxPinned[0]);
        }
    }

    @Test
    void aSmallPoolIsNotStarvedByNestedLookups() throws Exception {
        Path db = dir.resolve("small");
        build(db, 16).close();
        try (Store store = Store.open(db, new StoreOptions(16, 1 << 20, 1L << 30))) {
            int[] maxPinned = {0};
            int[] retained = {0};
            lookUpFromAScan(store, maxPinned, retained);
            assertTrue(maxPinned[0] <= store.pool.nestedPinBound() + 6, "saw " + maxPinned[0]);
        }
    }
}
