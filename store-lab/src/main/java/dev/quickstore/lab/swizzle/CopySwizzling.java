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

    /**
     * Creation under copy swizzling (Moss 1992, section 5.4.1): the objects are Java objects from the start (the
     * application's heap), kept in creation order for preparing; they have no oid until prepared.
     */
    @Override
    public void create() {
        TreeShape sh = buffers.descriptor().shape();
        created = new MemoryObject[Math.toIntExact(sh.objects())];
        root = createNode(sh, 1);
    }

    private MemoryObject createNode(TreeShape sh, long node) {
        boolean leaf = sh.isLeaf(node);
        int init = sh.initOf(node);
        MemoryObject o = new MemoryObject(0);
        created[count++] = o;
        o.node = (int) node;
        MemoryObject[] r = new MemoryObject[sh.slotsOf(node)];
        o.slots = r;
        MemoryObject c0 = leaf ? null : createNode(sh, 2 * node);
        MemoryObject c1 = leaf ? null : createNode(sh, 2 * node + 1);
        for (int k = 0; k < init; k++) {
            r[k] = leaf || k >= 2 ? o : k == 0 ? c0 : c1;
        }
        byte[] bytes = new byte[sh.bytesOf(node)];
        for (int j = 0; j < bytes.length; j++) {
            bytes[j] = TreeShape.initialByte(node, j);
        }
        o.bytes = bytes;
        o.initialized = init;
        tally.object(r.length, init, bytes.length);
        return o;
    }

    @Override
    public void prepare() {
        if (created != null) {
            prepareNew();
        } else {
            table.forEach(p -> {
                if (p.modified) {
                    copyBack(p);
                }
            });
        }
    }

    /**
     * Moss's preparing of new objects under copy swizzling: a store object for every copy, in creation order (oids
     * first, so that every slot can be mapped), then each filled: slots mapped to the targets' oids, bytes copied.
     */
    private void prepareNew() {
        for (int j = 0; j < count; j++) {
            MemoryObject p = created[j];
            int s = p.slots.length;
            buffers.allocate(CollectionFile.HEADER_BYTES + s * TreeShape.SLOT_BYTES + p.bytes.length, pointerWords(s));
            p.oid = buffers.lastOid();
        }
        for (int j = 0; j < count; j++) {
            MemoryObject p = created[j];
            long a = buffers.lookup(p.oid);
            header(m, a, p.slots.length, p.bytes.length, CollectionFile.UNSWIZZLED, p.node, p.oid);
            copyBack(p, a);
        }
    }

    /** A create session's objects in creation order (null in a load session). */
    private MemoryObject[] created;

    private int count;

    private void copyBack(MemoryObject p) {
        copyBack(p, buffers.lookup(p.oid));
    }

    private void copyBack(MemoryObject p, long a) {
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
