package dev.quickstore.core.btree;

/**
 * The answers of one B+tree's numeric point lookups ({@link BPlusTree#lookupFirst}), kept in the heap under the
 * buffer pool's {@link dev.quickstore.core.buffer.PoolStamps#entryStamp}: while the stamp is unchanged no entry of
 * any tree changed, so a key looked up before has the same first value (or is still absent) and the descent -
 * fixes, residency checks, a search per node - is skipped. This is an adaptive hash index in the sense of InnoDB's
 * (a hash table built in memory from the lookups a B-tree serves, dropped when the tree changes); issue 13's
 * profile of OO7 Q8 (an index-nested-loops join) put the descent at a third of the query.
 *
 * <p>Format (heap only, never on disk): open addressing with linear probing over {@code keys}, {@code values} and
 * {@code stamps}, a power-of-two number of slots. A slot belongs to the memo's current contents iff its stamp is
 * {@code +stamp} (the key's first value is {@code values[i]}) or {@code -stamp} (the key is absent); any other
 * stamp is an empty slot, so a new stamp empties the memo without clearing it. Stamps are positive and only grow.
 *
 * <p>Invariants: {@code size} counts the current slots and is at most half the slots; the slots are allocated by the
 * first {@link #put} and grow from {@value #MIN_SLOTS} up to {@value #MAX_SLOTS} (at most {@value #MAX_SLOTS} x 24
 * bytes per tree, 384 KiB), and a full memo of the largest size takes no new key (those keys descend the tree, as
 * before). Used under the store's latch, like the tree.
 */
final class LookupMemo {
    static final int MIN_SLOTS = 64;
    static final int MAX_SLOTS = 1 << 14;

    // allocated by the first put: a tree opened for one call (the roots, the catalog) never pays for them
    private long[] keys;
    private long[] values;
    private long[] stamps;
    /** The stamp of the current contents (0: none yet). */
    private long stamp;

    private int size;
    /** Whether the last {@link #find} hit an absent key (then its result is meaningless). */
    private boolean absent;

    /**
     * The slot holding {@code bits} under {@code current}, or -1. On a hit, {@link #absentHit} tells whether the key
     * was absent, else {@link #value} is its first value.
     */
    int find(long bits, long current) {
        if (current != stamp) {
            return -1; // also before the first put: stamp 0 is never current
        }
        int mask = keys.length - 1;
        for (int i = hash(bits) & mask; ; i = (i + 1) & mask) {
            long s = stamps[i];
            if (s != current && s != -current) {
                return -1; // an empty slot ends the probe
            }
            if (keys[i] == bits) {
                absent = s < 0;
                return i;
            }
        }
    }

    boolean absentHit() {
        return absent;
    }

    long value(int slot) {
        return values[slot];
    }

    /**
     * Remembers that {@code bits} has the first value {@code value} (or none, {@code present} false) under {@code
     * current}, a stamp not lower than any given before; a new stamp drops the earlier contents. The key must not be
     * in the memo under {@code current} ({@link #find} missed it).
     */
    void put(long bits, boolean present, long value, long current) {
        assert current > 0 && current >= stamp : "stamp " + current + " after " + stamp;
        if (current != stamp) {
            stamp = current;
            size = 0;
        }
        if (keys == null) {
            keys = new long[MIN_SLOTS];
            values = new long[MIN_SLOTS];
            stamps = new long[MIN_SLOTS];
        }
        if (2 * (size + 1) > keys.length) {
            if (keys.length == MAX_SLOTS) {
                return;
            }
            grow();
        }
        int mask = keys.length - 1;
        int i = hash(bits) & mask;
        while (stamps[i] == stamp || stamps[i] == -stamp) {
            assert keys[i] != bits : "key bits " + bits + " put twice";
            i = (i + 1) & mask;
        }
        keys[i] = bits;
        values[i] = value;
        stamps[i] = present ? stamp : -stamp;
        size++;
    }

    /** Number of keys remembered under the current stamp (tests). */
    int size(long current) {
        return current == stamp ? size : 0;
    }

    private void grow() {
        long[] k = keys;
        long[] v = values;
        long[] s = stamps;
        keys = new long[k.length * 2];
        values = new long[k.length * 2];
        stamps = new long[k.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < k.length; j++) {
            if (s[j] == stamp || s[j] == -stamp) {
                int i = hash(k[j]) & mask;
                while (stamps[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = k[j];
                values[i] = v[j];
                stamps[i] = s[j];
            }
        }
    }

    private static int hash(long bits) {
        long h = bits * 0x9E37_79B9_7F4A_7C15L; // Fibonacci hashing: the high bits mix every bit of the key
        return (int) (h >>> 40);
    }
}
