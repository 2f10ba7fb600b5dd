package dev.quickstore.lab.swizzle;

/**
 * Moss's non-swizzling scheme NS (Moss 1992, sections 3.1-3.3): references stay oids; every visit presents the oid
 * to the object manager ({@link PageBuffers#lookup}: page table, slot array, reading the page on a miss) and works
 * on the object in the buffers through the address it returns (Moss's pointer interface, no release call). Loading
 * is therefore inherently lazy; saving writes back the pages holding updated objects, with nothing to unswizzle.
 */
public final class NoSwizzling extends SwizzleSession {
    private long root;

    NoSwizzling(PageBuffers buffers, Workload work, Tally tally) {
        super(buffers, work, tally);
    }

    @Override
    public void load() {
        root = buffers.descriptor().rootOid();
    }

    @Override
    public void traverse(int pass) {
        visit(root, pass == 0, 0);
    }

    private void visit(long oid, boolean first, int depth) {
        long a = buffers.lookup(oid);
        int node = CollectionFile.node(m, a);
        if (first && work.updates(node)) {
            ObjectWork.update(m, a, tally);
            buffers.markDirty(a);
        }
        ObjectWork.visit(m, a, work, tally);
        if (node < leafFrom) {
            visit(ObjectWork.slot(m, a, 0), first, depth + 1);
            if (depth >= skip) {
                visit(ObjectWork.slot(m, a, 1), first, depth + 1);
            }
        }
    }

    /**
     * Creation without swizzling: every object is a store object from the start, allocated in new pages (zero-filled,
     * as Mneme's were) and initialized there; a parent's slots get its children's oids once they exist.
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
        long a = buffers.allocate(CollectionFile.HEADER_BYTES + s * TreeShape.SLOT_BYTES + b, pointerWords(s));
        long oid = buffers.lastOid();
        header(m, a, s, b, CollectionFile.UNSWIZZLED, node, oid);
        long c0 = leaf ? 0 : createNode(2 * node);
        long c1 = leaf ? 0 : createNode(2 * node + 1);
        for (int k = 0; k < init; k++) {
            ObjectWork.setSlot(m, a, k, leaf || k >= 2 ? oid : k == 0 ? c0 : c1);
        }
        initBytes(m, a, s, node, b);
        tally.object(s, init, b);
        return oid;
    }

    /** Nothing to prepare: the objects are store objects already (Moss's Table 10 has no NS row). */
    @Override
    public void prepare() {}

    @Override
    public void census() {
        if (!created) {
            count(root, 0);
        }
    }

    private boolean created;

    private void count(long oid, int depth) {
        long a = buffers.lookup(oid);
        int s = ObjectWork.slots(m, a);
        int init = 0;
        for (int k = 0; k < s; k++) {
            if (ObjectWork.slot(m, a, k) != 0) {
                init++;
            }
        }
        tally.object(s, init, ObjectWork.bytes(m, a));
        if (CollectionFile.node(m, a) < leafFrom) {
            count(ObjectWork.slot(m, a, 0), depth + 1);
            if (depth >= skip) {
                count(ObjectWork.slot(m, a, 1), depth + 1);
            }
        }
    }
}
