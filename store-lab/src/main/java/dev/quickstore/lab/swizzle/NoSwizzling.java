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

    @Override
    public void save() {
        buffers.writeBack();
    }

    @Override
    public void census() {
        count(root, 0);
    }

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
