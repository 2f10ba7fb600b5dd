package dev.quickstore.core.space;

import java.util.Arrays;

/**
 * A map from page numbers (or extents' first pages) to values, for the allocator's per-transaction hints
 * ({@link ObjectAllocator}'s no-fit sizes and dense tails): open addressing with linear probing over a {@code long[]}
 * of keys, so a lookup or removal boxes nothing. A {@code HashMap<Long, ...>} boxed the page number for every
 * {@code get} and {@code remove} (a page above 127 is a new {@code Long}); an object's delete removed it from three
 * such maps and an allocation looked it up in two (docs/results.md, "The allocator's hints without boxing").
 *
 * <p>Layout: {@code keys[i]} is a page number {@code >= 0} or {@link #EMPTY}; {@code values[i]} is non-null exactly
 * where {@code keys[i]} is not empty. Capacity is a power of two, at most half full (it doubles when a put would
 * pass that). Removal shifts the following entries of the probe run back (no tombstones), so a lookup stops at the
 * first empty slot. Invariants: {@code size} counts the non-empty slots, and every key is reachable from its home
 * slot without crossing an empty slot (asserted for the key put; a removed key is asserted not found).
 *
 * @param <V> the value kept per page
 */
final class PageTable<V> {
    /** An empty slot's key (page numbers are not negative). */
    static final long EMPTY = -1L;

    private long[] keys;
    private Object[] values;
    private int mask;
    private int size;

    PageTable() {
        keys = new long[16];
        Arrays.fill(keys, EMPTY);
        values = new Object[16];
        mask = 15;
    }

    int size() {
        return size;
    }

    /** The value kept for {@code page}, null if none. */
    @SuppressWarnings("unchecked")
    V get(long page) {
        long[] k = keys;
        for (int i = home(page); ; i = (i + 1) & mask) {
            long key = k[i];
            if (key == page) {
                return (V) values[i];
            }
            if (key == EMPTY) {
                return null;
            }
        }
    }

    /** Keeps {@code value} (non-null) for {@code page}, replacing any value it had. */
    void put(long page, V value) {
        assert page >= 0 && value != null : "page " + page + ", value " + value;
        int i = home(page);
        while (keys[i] != EMPTY) {
            if (keys[i] == page) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = page;
        values[i] = value;
        if (++size > (mask + 1) / 2) {
            grow();
        }
        assert reachable(page);
    }

    /** Forgets {@code page}'s value, if it has one. */
    void remove(long page) {
        if (size == 0) {
            return;
        }
        int i = home(page);
        while (keys[i] != page) {
            if (keys[i] == EMPTY) {
                return;
            }
            i = (i + 1) & mask;
        }
        // shift back every later entry of the run whose home slot is not after the hole (cyclically)
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int h = home(keys[j]);
            if (((j - h) & mask) >= ((j - hole) & mask)) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = EMPTY;
        values[hole] = null;
        size--;
        assert size >= 0 && get(page) == null : "page " + page + " still found after its removal";
    }

    /** Forgets every page (nothing to do when empty: a transaction that kept no hint pays nothing). */
    void clear() {
        if (size == 0) {
            return;
        }
        Arrays.fill(keys, EMPTY);
        Arrays.fill(values, null);
        size = 0;
    }

    private int home(long page) {
        long h = page * 0x9E3779B97F4A7C15L; // Fibonacci hashing: adjacent pages spread over the table
        return (int) (h >>> 40) & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        Arrays.fill(keys, EMPTY);
        values = new Object[oldKeys.length * 2];
        mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                int j = home(oldKeys[i]);
                while (keys[j] != EMPTY) {
                    j = (j + 1) & mask;
                }
                keys[j] = oldKeys[i];
                values[j] = oldValues[i];
            }
        }
    }

    /** Whether a lookup of {@code page} from its home slot finds it (the probe-run invariant, for asserts). */
    private boolean reachable(long page) {
        for (int i = home(page); keys[i] != EMPTY; i = (i + 1) & mask) {
            if (keys[i] == page) {
                return true;
            }
        }
        return false;
    }
}
