package dev.quickstore.core.buffer;

import java.util.Arrays;

/**
 * The remembered set of {@link RememberedSetBarrier}: the 8-byte-aligned word addresses stored to in a
 * transaction, without duplicates. The barrier appends to a sequential store buffer (an array and an index: the
 * cheap part of a store); when the buffer is full, and at commit, it is drained into an open-addressing hash set
 * of longs, which drops the repeats (Hosking and Moss, section 3, "Object-based schemes": "repeated updates to the
 * same object result in just one entry in the remembered set, but incur the repeated overhead of the filter and
 * hash"; here the hash is paid per buffered entry at drain time). Address 0 is never a word of the arena and marks
 * an empty slot.
 */
public final class RememberedSet {
    /** Entries of the sequential store buffer. */
    static final int SSB_ENTRIES = 4096;

    private static final int MIN_CAPACITY = 1024;

    private final long[] ssb = new long[SSB_ENTRIES];
    private int buffered;
    private long[] table = new long[MIN_CAPACITY];
    private int size;
    private long appended;
    private long drains;

    /** Records the word at {@code wordAddress} (a multiple of 8, not 0). */
    public void add(long wordAddress) {
        ssb[buffered++] = wordAddress;
        appended++;
        if (buffered == SSB_ENTRIES) {
            drain();
        }
    }

    /** Moves the buffered words into the hash set (duplicates dropped). */
    public void drain() {
        for (int i = 0; i < buffered; i++) {
            insert(ssb[i]);
        }
        buffered = 0;
        drains++;
    }

    private void insert(long w) {
        if (2 * (size + 1) > table.length) {
            grow();
        }
        int mask = table.length - 1;
        for (int i = hash(w) & mask; ; i = (i + 1) & mask) {
            long v = table[i];
            if (v == w) {
                return;
            }
            if (v == 0) {
                table[i] = w;
                size++;
                return;
            }
        }
    }

    private static int hash(long w) {
        long h = (w >>> 3) * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32);
    }

    private void grow() {
        long[] old = table;
        table = new long[old.length * 2];
        size = 0;
        for (long w : old) {
            if (w != 0) {
                insert(w);
            }
        }
    }

    /** Distinct words recorded (after a {@link #drain}). */
    public int size() {
        return size;
    }

    /** Words appended to the store buffer since created, duplicates included. */
    public long appended() {
        return appended;
    }

    /** Drains, then returns the distinct words ascending. */
    public long[] sorted() {
        drain();
        long[] out = new long[size];
        int n = 0;
        for (long w : table) {
            if (w != 0) {
                out[n++] = w;
            }
        }
        Arrays.sort(out);
        return out;
    }

    /** Forgets every word; a table grown far beyond the last transaction's needs is given back. */
    public void clear() {
        buffered = 0;
        if (table.length > MIN_CAPACITY && table.length > 8 * size) {
            table = new long[Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(1, size)) * 4)];
        } else {
            Arrays.fill(table, 0);
        }
        size = 0;
    }
}
