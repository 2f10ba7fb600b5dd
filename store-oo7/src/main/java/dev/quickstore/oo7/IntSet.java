package dev.quickstore.oo7;

/**
 * A small open-addressing set of ints with O(1) {@link #clear()}, used as the visited set of the atomic-part
 * depth-first searches. OO7 keeps a set of visited part ids (White and DeWitt 1994, section 5.3); keying it by
 * id instead of object identity keeps it correct for stores that hand out fresh view objects.
 */
final class IntSet {
    private int[] keys;
    private int[] stamps;
    private int stamp = 1;
    private int size;
    private int mask;

    IntSet(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new int[cap];
        stamps = new int[cap];
        mask = cap - 1;
    }

    /** Adds {@code key}; returns whether it was absent. */
    boolean add(int key) {
        int i = mix(key) & mask;
        while (stamps[i] == stamp) {
            if (keys[i] == key) {
                return false;
            }
            i = (i + 1) & mask;
        }
        stamps[i] = stamp;
        keys[i] = key;
        if (++size * 2 > keys.length) {
            grow();
        }
        return true;
    }

    boolean contains(int key) {
        int i = mix(key) & mask;
        while (stamps[i] == stamp) {
            if (keys[i] == key) {
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    int size() {
        return size;
    }

    void clear() {
        size = 0;
        if (++stamp == 0) { // wrapped: really clear once every 2^32 clears
            java.util.Arrays.fill(stamps, 0);
            stamp = 1;
        }
    }

    private void grow() {
        int[] oldKeys = keys;
        int[] oldStamps = stamps;
        int oldStamp = stamp;
        keys = new int[oldKeys.length * 2];
        stamps = new int[oldKeys.length * 2];
        mask = keys.length - 1;
        stamp = 1;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldStamps[i] == oldStamp) {
                add(oldKeys[i]);
            }
        }
    }

    private static int mix(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
