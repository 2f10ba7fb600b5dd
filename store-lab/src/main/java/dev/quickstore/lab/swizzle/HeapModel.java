package dev.quickstore.lab.swizzle;

/**
 * The heap model: the collection of a {@link TreeShape} built directly as plain Java objects, never stored (Moss's
 * non-persistent C, NPC, of Tables 4-6). It runs the same {@link Workload} as the schemes and is both their
 * correctness reference (same visits, updates and sums; same graph after a save) and the baseline of the per-visit
 * cost V.
 */
public final class HeapModel {
    private final MemoryObject root;
    private final long leafFrom;

    public HeapModel(TreeShape shape) {
        int n = Math.toIntExact(shape.objects());
        MemoryObject[] nodes = new MemoryObject[n + 1];
        for (int node = 1; node <= n; node++) {
            MemoryObject o = new MemoryObject(0);
            o.node = node;
            o.slots = new MemoryObject[shape.slotsOf(node)];
            byte[] bytes = new byte[shape.bytesOf(node)];
            for (int j = 0; j < bytes.length; j++) {
                bytes[j] = TreeShape.initialByte(node, j);
            }
            o.bytes = bytes;
            nodes[node] = o;
        }
        for (int node = 1; node <= n; node++) {
            MemoryObject o = nodes[node];
            int init = shape.initOf(node);
            for (int k = 0; k < init; k++) {
                o.slots[k] = shape.isLeaf(node) || k >= 2 ? o : nodes[2 * node + k];
            }
            o.initialized = init;
        }
        this.root = nodes[1];
        this.leafFrom = shape.leaves();
    }

    /** One traversal, as the schemes do it; {@code first} applies the workload's updates. */
    public void traverse(Workload w, boolean first, Tally t) {
        visit(root, w, first, t, 0);
    }

    /** All the workload's traversals. */
    public Tally run(Workload w) {
        Tally t = new Tally();
        for (int pass = 0; pass < w.visits(); pass++) {
            traverse(w, pass == 0, t);
        }
        return t;
    }

    private void visit(MemoryObject p, Workload w, boolean first, Tally t, int depth) {
        if (first && w.updates(p.node)) {
            ObjectWork.update(p, t);
        }
        ObjectWork.visit(p, w, t);
        if (p.node < leafFrom) {
            visit(p.slots[0], w, first, t, depth + 1);
            if (depth >= w.skip()) {
                visit(p.slots[1], w, first, t, depth + 1);
            }
        }
    }

    long leafFrom() {
        return leafFrom;
    }

    MemoryObject root() {
        return root;
    }
}
