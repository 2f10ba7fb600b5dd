package dev.quickstore.lab.swizzle;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A digest of a collection's graph, the same for the heap model and for a collection file when both hold the same
 * objects: a preorder walk along the tree's edges mixing, per object, its node number, its state (every object on disk
 * must be back to unswizzled after a save), its slots as the node numbers of their targets (0 for null) and its bytes.
 * A pointer left swizzled on disk, or unswizzled to the wrong oid, changes the digest.
 */
public final class GraphDigest {
    private long h = 0x243F6A8885A308D3L;

    private GraphDigest() {}

    private void mix(long v) {
        h = (h ^ v) * 0x100000001B3L;
        h ^= h >>> 29;
    }

    /** The digest of the heap model's graph. */
    public static long of(HeapModel model) {
        GraphDigest d = new GraphDigest();
        d.walk(model.root(), model.leafFrom());
        return d.h;
    }

    private void walk(MemoryObject o, long leafFrom) {
        mix(o.node);
        mix(CollectionFile.UNSWIZZLED);
        mix(o.slots.length);
        for (MemoryObject s : o.slots) {
            mix(s == null ? 0 : s.node);
        }
        for (byte b : o.bytes) {
            mix(b);
        }
        if (o.node < leafFrom) {
            walk(o.slots[0], leafFrom);
            walk(o.slots[1], leafFrom);
        }
    }

    /** The digest of the collection in {@code file}, read afresh. */
    public static long of(Path file, int pageSize) throws IOException {
        try (PageBuffers b = PageBuffers.open(file, pageSize)) {
            GraphDigest d = new GraphDigest();
            long leafFrom = 1L << (b.descriptor().shape().height() - 1);
            d.walk(b, b.lookup(b.descriptor().rootOid()), leafFrom);
            return d.h;
        }
    }

    private void walk(PageBuffers b, long a, long leafFrom) {
        var m = b.memory();
        int node = CollectionFile.node(m, a);
        mix(node);
        mix(ObjectWork.state(m, a));
        int s = ObjectWork.slots(m, a);
        mix(s);
        long[] targets = new long[s];
        for (int k = 0; k < s; k++) {
            long x = ObjectWork.slot(m, a, k);
            targets[k] = x == 0 ? 0 : b.lookup(x);
            mix(x == 0 ? 0 : CollectionFile.node(m, targets[k]));
        }
        int bytes = ObjectWork.bytes(m, a);
        long base = a + CollectionFile.HEADER_BYTES + (long) s * TreeShape.SLOT_BYTES;
        for (int j = 0; j < bytes; j++) {
            mix(m.get(java.lang.foreign.ValueLayout.JAVA_BYTE, base + j));
        }
        if (node < leafFrom) {
            walk(b, targets[0], leafFrom);
            walk(b, targets[1], leafFrom);
        }
    }
}
