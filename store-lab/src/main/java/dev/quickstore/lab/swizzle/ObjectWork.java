package dev.quickstore.lab.swizzle;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Moss's per-visit activities (section 5.2) and the update, on the two object representations: an object in the page
 * buffers at an address (no swizzling, in-place swizzling) and a {@link MemoryObject} (copy swizzling, heap model).
 * Both compute the same numbers for the same object.
 */
final class ObjectWork {
    private ObjectWork() {}

    static int slots(MemorySegment m, long a) {
        return Short.toUnsignedInt(m.get(CollectionFile.SHORT, a));
    }

    static int bytes(MemorySegment m, long a) {
        return Short.toUnsignedInt(m.get(CollectionFile.SHORT, a + 2));
    }

    static long slot(MemorySegment m, long a, int k) {
        return m.get(CollectionFile.LONG, a + CollectionFile.HEADER_BYTES + (long) k * TreeShape.SLOT_BYTES);
    }

    static void setSlot(MemorySegment m, long a, int k, long v) {
        m.set(CollectionFile.LONG, a + CollectionFile.HEADER_BYTES + (long) k * TreeShape.SLOT_BYTES, v);
    }

    static byte state(MemorySegment m, long a) {
        return m.get(ValueLayout.JAVA_BYTE, a + CollectionFile.STATE);
    }

    static void setState(MemorySegment m, long a, byte s) {
        m.set(ValueLayout.JAVA_BYTE, a + CollectionFile.STATE, s);
    }

    static void visit(MemorySegment m, long a, Workload w, Tally t) {
        t.visits++;
        t.nodeSum += CollectionFile.node(m, a);
        switch (w.work()) {
            case NONE -> {}
            case READ_SLOTS -> {
                int k = Math.min(w.items(), slots(m, a));
                for (int j = 0; j < k; j++) {
                    if (slot(m, a, j) == 0) {
                        t.nullSlots++;
                    }
                }
            }
            case READ_BYTES -> {
                long base = a + CollectionFile.HEADER_BYTES + (long) slots(m, a) * TreeShape.SLOT_BYTES;
                int k = Math.min(w.items(), bytes(m, a));
                long s = 0;
                for (int j = 0; j < k; j++) {
                    s += m.get(ValueLayout.JAVA_BYTE, base + j);
                }
                t.sum += s;
            }
            case READ_INTS -> {
                long base = a + CollectionFile.HEADER_BYTES + (long) slots(m, a) * TreeShape.SLOT_BYTES;
                int k = Math.min(w.items(), bytes(m, a) / 4);
                long s = 0;
                for (int j = 0; j < k; j++) {
                    s += m.get(CollectionFile.INT, base + 4L * j);
                }
                t.sum += s;
            }
        }
    }

    /** Moss's slot update (swap even-odd pairs) and byte update (negate each byte). */
    static void update(MemorySegment m, long a, Tally t) {
        int s = slots(m, a);
        for (int k = 0; k + 1 < s; k += 2) {
            long x = slot(m, a, k);
            setSlot(m, a, k, slot(m, a, k + 1));
            setSlot(m, a, k + 1, x);
        }
        long base = a + CollectionFile.HEADER_BYTES + (long) s * TreeShape.SLOT_BYTES;
        int b = bytes(m, a);
        for (int j = 0; j < b; j++) {
            m.set(ValueLayout.JAVA_BYTE, base + j, (byte) -m.get(ValueLayout.JAVA_BYTE, base + j));
        }
        t.updated++;
    }

    static void visit(MemoryObject o, Workload w, Tally t) {
        t.visits++;
        t.nodeSum += o.node;
        switch (w.work()) {
            case NONE -> {}
            case READ_SLOTS -> {
                int k = Math.min(w.items(), o.slots.length);
                for (int j = 0; j < k; j++) {
                    if (o.slots[j] == null) {
                        t.nullSlots++;
                    }
                }
            }
            case READ_BYTES -> {
                byte[] b = o.bytes;
                int k = Math.min(w.items(), b.length);
                long s = 0;
                for (int j = 0; j < k; j++) {
                    s += b[j];
                }
                t.sum += s;
            }
            case READ_INTS -> {
                byte[] b = o.bytes;
                int k = Math.min(w.items(), b.length / 4);
                long s = 0;
                for (int j = 0; j < k; j++) {
                    int p = 4 * j;
                    s += (b[p] & 0xff) | (b[p + 1] & 0xff) << 8 | (b[p + 2] & 0xff) << 16 | b[p + 3] << 24;
                }
                t.sum += s;
            }
        }
    }

    static void update(MemoryObject o, Tally t) {
        MemoryObject[] s = o.slots;
        for (int k = 0; k + 1 < s.length; k += 2) {
            MemoryObject x = s[k];
            s[k] = s[k + 1];
            s[k + 1] = x;
        }
        byte[] b = o.bytes;
        for (int j = 0; j < b.length; j++) {
            b[j] = (byte) -b[j];
        }
        o.modified = true;
        t.updated++;
    }
}
