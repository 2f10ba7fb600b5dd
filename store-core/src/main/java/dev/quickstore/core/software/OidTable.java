package dev.quickstore.core.software;

/**
 * The OID hash table of software persistence (E / EPVM 3.0; White and DeWitt 1994, section 4.5.1: "The
 * interpreter maintains a hash table that contains an entry for each page of objects that is currently in
 * memory"): maps the {@link Oid} of a resident object to its location (its offset in the frame region,
 * {@link SwizzlingFrames}). Here the table has one entry per resident <em>object</em> (the design: an
 * unswizzled reference is resolved with one probe, not a page probe plus a slot-table read).
 *
 * <p>Open addressing with linear probing over one {@code long[]} of interleaved key/value pairs (a probe reads
 * one cache line for the key and its value), capacity a power of two, at most half full, deletion by backward
 * shift (no tombstones, so lookups of absent keys stay short however many removals happened). No boxing.
 * Key 0 marks an empty slot and cannot be stored; an {@link Oid} is never 0 (its bit 0 is set). The hash is
 * the 64-bit finalizer of MurmurHash3 (fmix64), which spreads OIDs that differ only in their slot bits.
 *
 * <p>Not thread-safe: like the buffer pool it is used by one thread at a time (the store latch).
 */
public final class OidTable {
    private static final int MIN_CAPACITY = 16;

    private long[] pairs; // [2i] key, [2i + 1] value; key 0 = empty
    private int mask; // capacity - 1 (capacity in pairs)
    private int size;
    private final long missing;

    /**
     * @param expected entries expected (the table grows past it)
     * @param missing what {@link #get} answers for an absent key
     */
    public OidTable(int expected, long missing) {
        if (expected < 0) {
            throw new IllegalArgumentException("expected entries " + expected + " < 0");
        }
        this.missing = missing;
        int cap = MIN_CAPACITY;
        while (cap < 2L * expected) {
            cap <<= 1;
        }
        allocate(cap);
    }

    private void allocate(int capacity) {
        pairs = new long[2 * capacity];
        mask = capacity - 1;
    }

    static int hash(long key) {
        long h = key;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h;
    }

    /** Entries stored. */
    public int size() {
        return size;
    }

    /** Slots (key/value pairs) of the table now; a power of two, at least twice {@link #size()}. */
    public int capacity() {
        return mask + 1;
    }

    /** The value of {@code key}, or the table's {@code missing} value. */
    public long get(long key) {
        long[] p = pairs;
        int m = mask;
        for (int i = hash(key) & m; ; i = (i + 1) & m) {
            long k = p[2 * i];
            if (k == key) {
                return key == 0 ? missing : p[2 * i + 1];
            }
            if (k == 0) {
                return missing;
            }
        }
    }

    public boolean containsKey(long key) {
        if (key == 0) {
            return false;
        }
        long[] p = pairs;
        int m = mask;
        for (int i = hash(key) & m; ; i = (i + 1) & m) {
            long k = p[2 * i];
            if (k == key) {
                return true;
            }
            if (k == 0) {
                return false;
            }
        }
    }

    /** Maps {@code key} (not 0) to {@code value}; returns the previous value or the table's missing value. */
    public long put(long key, long value) {
        if (key == 0) {
            throw new IllegalArgumentException("key 0 is the empty-slot marker and cannot be stored");
        }
        long[] p = pairs;
        int m = mask;
        int i = hash(key) & m;
        for (; ; i = (i + 1) & m) {
            long k = p[2 * i];
            if (k == key) {
                long old = p[2 * i + 1];
                p[2 * i + 1] = value;
                return old;
            }
            if (k == 0) {
                break;
            }
        }
        p[2 * i] = key;
        p[2 * i + 1] = value;
        if (++size > (mask + 1) >>> 1) {
            grow();
        }
        return missing;
    }

    /** Removes {@code key}; returns its value or the table's missing value. */
    public long remove(long key) {
        if (key == 0) {
            return missing;
        }
        long[] p = pairs;
        int m = mask;
        int i = hash(key) & m;
        for (; ; i = (i + 1) & m) {
            long k = p[2 * i];
            if (k == key) {
                break;
            }
            if (k == 0) {
                return missing;
            }
        }
        long old = p[2 * i + 1];
        // backward shift: move later members of the probe run into the hole when their home allows it
        int hole = i;
        for (int j = (hole + 1) & m; ; j = (j + 1) & m) {
            long k = p[2 * j];
            if (k == 0) {
                break;
            }
            int home = hash(k) & m;
            // k may move to the hole if the hole lies cyclically in [home, j)
            if (((j - home) & m) >= ((j - hole) & m)) {
                p[2 * hole] = k;
                p[2 * hole + 1] = p[2 * j + 1];
                hole = j;
            }
        }
        p[2 * hole] = 0;
        p[2 * hole + 1] = 0;
        size--;
        return old;
    }

    /** Removes every entry; keeps the capacity. */
    public void clear() {
        java.util.Arrays.fill(pairs, 0L);
        size = 0;
    }

    private void grow() {
        long[] old = pairs;
        allocate((mask + 1) << 1);
        long[] p = pairs;
        int m = mask;
        for (int j = 0; j < old.length; j += 2) {
            long k = old[j];
            if (k != 0) {
                int i = hash(k) & m;
                while (p[2 * i] != 0) {
                    i = (i + 1) & m;
                }
                p[2 * i] = k;
                p[2 * i + 1] = old[j + 1];
            }
        }
    }
}
