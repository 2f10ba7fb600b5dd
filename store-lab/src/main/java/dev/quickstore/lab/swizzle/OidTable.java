package dev.quickstore.lab.swizzle;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Copy swizzling's resident object table (Moss 1992, Figure 4 (b): CopyTableLookup / CopyTableEnter): oid to
 * in-memory copy, open addressing with linear probing over a power-of-two array, oid 0 marking an empty entry (no
 * object has oid 0). Grows at half full.
 */
final class OidTable {
    private long[] keys;
    private MemoryObject[] values;
    private int size;

    OidTable(long expected) {
        int cap = Integer.highestOneBit((int) Math.min(1 << 29, Math.max(16, expected * 2)) - 1) << 1;
        keys = new long[cap];
        values = new MemoryObject[cap];
    }

    private static int hash(long oid, int mask) {
        long h = oid * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    MemoryObject get(long oid) {
        int mask = keys.length - 1;
        for (int i = hash(oid, mask); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == oid) {
                return values[i];
            }
            if (k == 0) {
                return null;
            }
        }
    }

    void put(long oid, MemoryObject o) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = hash(oid, mask);
        while (keys[i] != 0 && keys[i] != oid) {
            i = (i + 1) & mask;
        }
        if (keys[i] == 0) {
            size++;
        }
        keys[i] = oid;
        values[i] = o;
    }

    private void grow() {
        long[] k = keys;
        MemoryObject[] v = values;
        keys = new long[k.length * 2];
        values = new MemoryObject[k.length * 2];
        size = 0;
        for (int i = 0; i < k.length; i++) {
            if (k[i] != 0) {
                put(k[i], v[i]);
            }
        }
    }

    int size() {
        return size;
    }

    void forEach(Consumer<MemoryObject> action) {
        for (MemoryObject o : values) {
            if (o != null) {
                action.accept(o);
            }
        }
    }

    @Override
    public String toString() {
        return "OidTable" + Arrays.toString(new int[] {size, keys.length});
    }
}
