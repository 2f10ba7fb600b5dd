package dev.quickstore.lab.swizzle;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Moss's copy swizzling, eager (ECS) or lazy (LCS) (Moss 1992, sections 3.1-3.3, Figure 4 (b)): each object used is
 * copied out of the object manager's buffers into a {@link MemoryObject} whose slots are Java references, found by oid
 * in a resident object table ({@link OidTable}); the buffers stay in disk format. Eager: every page is read and the
 * collection copied recursively from the root before work starts. Lazy, node marking (Figure 5): a copied object's
 * reference to an object not copied yet is a fault block (an unfilled {@link MemoryObject} holding the oid, whose page
 * is made resident), filled at its first visit (the residency check). Saving copies back only the modified objects
 * (slots mapped to oids, bytes copied), found by iterating the table, not by traversal: Moss's projected LCSP/ECSP
 * (section 6.3), which skips unmodified objects; then the dirty pages are written back.
 */
public final class CopySwizzling extends SwizzleSession {
    private final boolean lazy;
    private final OidTable table;
    private MemoryObject root;

    CopySwizzling(PageBuffers buffers, Workload work, Tally tally, boolean lazy) {
        super(buffers, work, tally);
        this.lazy = lazy;
        this.table = new OidTable(buffers.descriptor().objects());
    }

    @Override
    public void load() {
        long oid = buffers.descriptor().rootOid();
        if (lazy) {
            root = faultBlock(oid);
        } else {
            buffers.loadAll();
            root = copy(oid);
        }
    }

    /** Figure 4 (b): EagerCopy. */
    private MemoryObject copy(long oid) {
        MemoryObject p = table.get(oid);
        if (p != null) {
            return p;
        }
        long a = buffers.lookup(oid);
        p = new MemoryObject(oid);
        table.put(oid, p);
        fill(p, a);
        return p;
    }

    private MemoryObject faultBlock(long oid) {
        MemoryObject p = table.get(oid);
        if (p == null) {
            buffers.lookup(oid); // resident, not swizzled (Moss's third rule)
            p = new MemoryObject(oid);
            table.put(oid, p);
        }
        return p;
    }

    private void fill(MemoryObject p, long a) {
        int s = ObjectWork.slots(m, a);
        int b = ObjectWork.bytes(m, a);
        p.node = CollectionFile.node(m, a);
        byte[] bytes = new byte[b];
        MemorySegment.copy(
                m,
                ValueLayout.JAVA_BYTE,
                a + CollectionFile.HEADER_BYTES + (long) s * TreeShape.SLOT_BYTES,
                bytes,
                0,
                b);
        p.bytes = bytes;
        MemoryObject[] r = new MemoryObject[s];
        p.slots = r;
        int init = 0;
        for (int k = 0; k < s; k++) {
            long x = ObjectWork.slot(m, a, k);
            if (x != 0) {
                init++;
                r[k] = lazy ? faultBlock(x) : copy(x);
            }
        }
        p.initialized = init;
        tally.object(s, init, b);
    }

    @Override
    public void traverse(int pass) {
        if (lazy) {
            visitLazy(root, pass == 0, 0);
        } else {
            visit(root, pass == 0, 0);
        }
    }

    private void visit(MemoryObject p, boolean first, int depth) {
        if (first && work.updates(p.node)) {
            ObjectWork.update(p, tally);
        }
        ObjectWork.visit(p, work, tally);
        if (p.node < leafFrom) {
            visit(p.slots[0], first, depth + 1);
            if (depth >= skip) {
                visit(p.slots[1], first, depth + 1);
            }
        }
    }

    private void visitLazy(MemoryObject p, boolean first, int depth) {
        if (!p.filled()) {
            fill(p, buffers.lookup(p.oid));
        }
        if (first && work.updates(p.node)) {
            ObjectWork.update(p, tally);
        }
        ObjectWork.visit(p, work, tally);
        if (p.node < leafFrom) {
            visitLazy(p.slots[0], first, depth + 1);
            if (depth >= skip) {
                visitLazy(p.slots[1], first, depth + 1);
            }
        }
    }

    @Override
    public void save() {
        table.forEach(p -> {
            if (p.modified) {
                copyBack(p);
            }
        });
        buffers.writeBack();
    }

    private void copyBack(MemoryObject p) {
        long a = buffers.lookup(p.oid);
        MemoryObject[] r = p.slots;
        for (int k = 0; k < r.length; k++) {
            ObjectWork.setSlot(m, a, k, r[k] == null ? 0 : r[k].oid);
        }
        MemorySegment.copy(
                p.bytes,
                0,
                m,
                ValueLayout.JAVA_BYTE,
                a + CollectionFile.HEADER_BYTES + (long) r.length * TreeShape.SLOT_BYTES,
                p.bytes.length);
        buffers.markDirty(a);
        p.modified = false;
    }
}
