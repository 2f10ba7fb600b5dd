package dev.quickstore.lab.swizzle;

import dev.quickstore.core.error.StoreFormatException;
import java.lang.foreign.MemorySegment;

/**
 * Moss's in-place swizzling, eager (EIS) or lazy (LIS) (Moss 1992, sections 3.1-3.3, Figure 4 (a)): an object's
 * slots are converted in the object manager's buffers from oids to addresses (byte offsets into the buffers), its
 * header state set to swizzled (Table 1). Eager: every page is read and the collection swizzled recursively from the
 * root before work starts. Lazy, following Moss's three rules for node marking: every slot of a swizzled object is an
 * address of a resident object (swizzled or not: its page is read when the slot is swizzled), every slot of an
 * unswizzled object is an oid, and a visit swizzles the object first if its state says it is not (the residency
 * check). Saving unswizzles every swizzled object, recursively from the root (Moss used recursion), mapping an address
 * back to an oid through the target's {@code self} header word, and writes back the pages of updated objects.
 */
public final class InPlaceSwizzling extends SwizzleSession {
    private final boolean lazy;
    private long root;

    InPlaceSwizzling(PageBuffers buffers, Workload work, Tally tally, boolean lazy) {
        super(buffers, work, tally);
        this.lazy = lazy;
    }

    @Override
    public void load() {
        if (lazy) {
            root = buffers.lookup(buffers.descriptor().rootOid());
        } else {
            buffers.loadAll();
            root = swizzle(buffers.descriptor().rootOid());
        }
    }

    /** Figure 4 (a): EagerInPlace. */
    private long swizzle(long oid) {
        long a = buffers.lookup(oid);
        if (ObjectWork.state(m, a) != CollectionFile.UNSWIZZLED) {
            return a;
        }
        ObjectWork.setState(m, a, CollectionFile.SWIZZLED);
        int s = ObjectWork.slots(m, a);
        int init = 0;
        for (int k = 0; k < s; k++) {
            long x = ObjectWork.slot(m, a, k);
            if (x != 0) {
                init++;
                ObjectWork.setSlot(m, a, k, swizzle(x));
            }
        }
        tally.object(s, init, ObjectWork.bytes(m, a));
        return a;
    }

    /** The lazy scheme's swizzle of one object: its targets become resident, not swizzled. */
    private void swizzleOne(long a) {
        ObjectWork.setState(m, a, CollectionFile.SWIZZLED);
        int s = ObjectWork.slots(m, a);
        int init = 0;
        for (int k = 0; k < s; k++) {
            long x = ObjectWork.slot(m, a, k);
            if (x != 0) {
                init++;
                ObjectWork.setSlot(m, a, k, buffers.lookup(x));
            }
        }
        tally.object(s, init, ObjectWork.bytes(m, a));
    }

    @Override
    public void traverse(int pass) {
        if (lazy) {
            visitLazy(root, pass == 0, 0);
        } else {
            visit(root, pass == 0, 0);
        }
    }

    private void visit(long a, boolean first, int depth) {
        int node = CollectionFile.node(m, a);
        if (first && work.updates(node)) {
            ObjectWork.update(m, a, tally);
            if (ObjectWork.state(m, a) != CollectionFile.NEW) {
                ObjectWork.setState(m, a, CollectionFile.SWIZZLED_MODIFIED);
            }
        }
        ObjectWork.visit(m, a, work, tally);
        if (node < leafFrom) {
            visit(ObjectWork.slot(m, a, 0), first, depth + 1);
            if (depth >= skip) {
                visit(ObjectWork.slot(m, a, 1), first, depth + 1);
            }
        }
    }

    private void visitLazy(long a, boolean first, int depth) {
        if (ObjectWork.state(m, a) == CollectionFile.UNSWIZZLED) {
            swizzleOne(a);
        }
        int node = CollectionFile.node(m, a);
        if (first && work.updates(node)) {
            ObjectWork.update(m, a, tally);
            if (ObjectWork.state(m, a) != CollectionFile.NEW) {
                ObjectWork.setState(m, a, CollectionFile.SWIZZLED_MODIFIED);
            }
        }
        ObjectWork.visit(m, a, work, tally);
        if (node < leafFrom) {
            visitLazy(ObjectWork.slot(m, a, 0), first, depth + 1);
            if (depth >= skip) {
                visitLazy(ObjectWork.slot(m, a, 1), first, depth + 1);
            }
        }
    }

    /**
     * Creation under in-place swizzling (Moss 1992, section 5.4.1): the objects are created in the application's
     * heap (here: the transient heap after the buffers' frames) in the buffer format, state new (Table 1: 00), slots
     * holding addresses; they become store objects only when prepared.
     */
    @Override
    public void create() {
        created = true;
        root = createNode(1);
    }

    private long createNode(long node) {
        TreeShape sh = buffers.descriptor().shape();
        boolean leaf = sh.isLeaf(node);
        int s = sh.slotsOf(node);
        int b = sh.bytesOf(node);
        int init = sh.initOf(node);
        long a = buffers.heapAllocate(CollectionFile.HEADER_BYTES + s * TreeShape.SLOT_BYTES + b);
        header(m, a, s, b, CollectionFile.NEW, node, 0);
        long c0 = leaf ? 0 : createNode(2 * node);
        long c1 = leaf ? 0 : createNode(2 * node + 1);
        for (int k = 0; k < init; k++) {
            ObjectWork.setSlot(m, a, k, leaf || k >= 2 ? a : k == 0 ? c0 : c1);
        }
        initBytes(m, a, s, node, b);
        tally.object(s, init, b);
        return a;
    }

    /** Bytes of the transient heap a create session of {@code shape} needs (objects 8-aligned). */
    static long heapBytes(TreeShape shape) {
        long inner = (CollectionFile.length(shape, 1) + 7) & ~7L;
        long leaf = (CollectionFile.length(shape, shape.objects()) + 7) & ~7L;
        return shape.inner() * inner + shape.leaves() * leaf;
    }

    @Override
    public void prepare() {
        if (created) {
            prepareNew();
        } else {
            unswizzle(root);
        }
    }

    /**
     * Moss's preparing of new objects under in-place swizzling: each transient object becomes a store object (by
     * iteration over the transient heap, in creation order, so that the pages are filled in preorder): first every
     * one is allocated and its oid kept in its {@code self} word, then each is copied, its slots unswizzled to the
     * targets' oids.
     */
    private void prepareNew() {
        long top = buffers.heapTop();
        for (long t = buffers.heapStart(); t < top; t = next(t)) {
            int s = ObjectWork.slots(m, t);
            buffers.allocate(
                    CollectionFile.HEADER_BYTES + s * TreeShape.SLOT_BYTES + ObjectWork.bytes(m, t), pointerWords(s));
            m.set(CollectionFile.LONG, t + CollectionFile.SELF, buffers.lastOid());
        }
        for (long t = buffers.heapStart(); t < top; t = next(t)) {
            long oid = m.get(CollectionFile.LONG, t + CollectionFile.SELF);
            long a = buffers.lookup(oid);
            int s = ObjectWork.slots(m, t);
            int b = ObjectWork.bytes(m, t);
            header(m, a, s, b, CollectionFile.UNSWIZZLED, CollectionFile.node(m, t), oid);
            for (int k = 0; k < s; k++) {
                long x = ObjectWork.slot(m, t, k);
                if (x != 0) {
                    ObjectWork.setSlot(m, a, k, m.get(CollectionFile.LONG, x + CollectionFile.SELF));
                }
            }
            long off = CollectionFile.HEADER_BYTES + (long) s * TreeShape.SLOT_BYTES;
            MemorySegment.copy(m, t + off, m, a + off, b);
        }
    }

    private long next(long t) {
        int length =
                CollectionFile.HEADER_BYTES + ObjectWork.slots(m, t) * TreeShape.SLOT_BYTES + ObjectWork.bytes(m, t);
        return t + ((length + 7) & ~7L);
    }

    private boolean created;

    private void unswizzle(long a) {
        byte state = ObjectWork.state(m, a);
        if (state == CollectionFile.UNSWIZZLED) {
            return;
        }
        if (state != CollectionFile.SWIZZLED && state != CollectionFile.SWIZZLED_MODIFIED) {
            throw new StoreFormatException(
                    buffers.descriptor().toString(), -1, a, "object state", "1, 2 or 3", String.valueOf(state));
        }
        ObjectWork.setState(m, a, CollectionFile.UNSWIZZLED);
        if (state == CollectionFile.SWIZZLED_MODIFIED) {
            buffers.markDirty(a);
        }
        int s = ObjectWork.slots(m, a);
        for (int k = 0; k < s; k++) {
            long x = ObjectWork.slot(m, a, k);
            if (x != 0) {
                ObjectWork.setSlot(m, a, k, m.get(CollectionFile.LONG, x + CollectionFile.SELF));
                unswizzle(x);
            }
        }
    }
}
