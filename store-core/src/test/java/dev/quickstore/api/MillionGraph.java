package dev.quickstore.api;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The issue's "graph of a million objects": a seeded graph of {@link #NODES} {@link GraphNode}s, built on the
 * heap as plain arrays ({@link Model}) and in a store, and traversed the same way in both, giving a digest.
 * Every node i has next = i+1 (so all are reachable from node 0), a random other reference (null for a
 * quarter), a random weight, a label string on every tenth node, a short out-list on every 1,000th, 20,000
 * random out-references on nodes 1..9 and 300,000 on node 0 (lists of 40 and 586 leaf nodes, two and three
 * levels of RefArray nodes).
 *
 * <p>As a main class (run in a fresh JVM by {@code MillionGraphTest}): {@code build DIR SEED} creates the store,
 * builds, commits and prints the digest of a traversal of what it built; {@code traverse DIR} reopens the
 * store, checks it, traverses and prints the digest.
 */
final class MillionGraph {
    static final int NODES = Integer.getInteger("qs.graph.nodes", 1_000_000); // other sizes: manual runs only
    static final int HUB = 20_000;
    static final int BIG = 300_000;

    private MillionGraph() {}

    /** The graph on the heap: what the store must hold. */
    record Model(long[] weight, int[] other, String[] label, int[][] out) {
        static Model of(long seed) {
            Random r = new Random(seed);
            long[] weight = new long[NODES];
            int[] other = new int[NODES];
            String[] label = new String[NODES];
            int[][] out = new int[NODES][];
            for (int i = 0; i < NODES; i++) {
                weight[i] = r.nextLong();
                other[i] = r.nextInt(4) == 0 ? -1 : r.nextInt(NODES);
                if (i % 10 == 0) {
                    label[i] = "node " + i + " #" + r.nextInt(1_000_000);
                }
                int n = i == 0 ? BIG : i < 10 ? HUB : i % 1000 == 0 ? r.nextInt(20) : 0;
                if (n > 0) {
                    out[i] = new int[n];
                    for (int k = 0; k < n; k++) {
                        out[i][k] = r.nextInt(NODES);
                    }
                }
            }
            return new Model(weight, other, label, out);
        }

        static int next(int i) {
            return i + 1 < NODES ? i + 1 : -1;
        }

        /** The traversal of {@link MillionGraph#digest(GraphNode)} over the arrays. */
        String digest() {
            Digest d = new Digest();
            boolean[] seen = new boolean[NODES];
            int[] stack = new int[1024];
            int sp = 0;
            stack[sp++] = 0;
            while (sp > 0) {
                int i = stack[--sp];
                if (seen[i]) {
                    continue;
                }
                seen[i] = true;
                int[] o = out[i] == null ? new int[0] : out[i];
                d.visit(i, weight[i], label[i], o.length);
                if (sp + o.length + 2 > stack.length) {
                    stack = Arrays.copyOf(stack, 2 * (sp + o.length + 2));
                }
                for (int k = o.length - 1; k >= 0; k--) {
                    d.edge(o[k]);
                    stack[sp++] = o[k];
                }
                if (other[i] >= 0) {
                    stack[sp++] = other[i];
                }
                if (next(i) >= 0) {
                    stack[sp++] = next(i);
                }
            }
            return d.toString();
        }
    }

    /** Order-dependent digest of the visited nodes and followed list references. */
    static final class Digest {
        private long visited;
        private long edges;
        private long hash = 0xcbf29ce484222325L;
        private long labels;

        void visit(int id, long weight, String label, int outSize) {
            visited++;
            mix(id);
            mix(weight);
            mix(outSize);
            if (label != null) {
                labels++;
                mix(label.hashCode());
            }
        }

        void edge(int to) {
            edges++;
            mix(to);
        }

        private void mix(long v) {
            hash = (hash ^ v) * 0x100000001b3L;
        }

        @Override
        public String toString() {
            return "visited " + visited + " edges " + edges + " labels " + labels + " hash " + Long.toHexString(hash);
        }
    }

    /**
     * Builds the model's graph in {@code tx}: nodes with their labels in id order, each near its predecessor;
     * then the references and lists.
     */
    static GraphNode build(ObjectTransaction tx, Model m) {
        GraphNode[] nodes = new GraphNode[NODES];
        GraphNode prev = null;
        for (int i = 0; i < NODES; i++) {
            GraphNode n = prev == null ? tx.create(GraphNode.class) : tx.create(GraphNode.class, prev);
            n.id(i);
            n.weight(m.weight()[i]);
            if (m.label()[i] != null) {
                n.label(m.label()[i]); // near its node, on the page being filled
            }
            nodes[i] = n;
            prev = n;
        }
        for (int i = 0; i < NODES; i++) {
            GraphNode n = nodes[i];
            int next = Model.next(i);
            n.next(next < 0 ? null : nodes[next]);
            n.other(m.other()[i] < 0 ? null : nodes[m.other()[i]]);
            if (m.out()[i] != null) {
                List<GraphNode> out = n.out();
                for (int k : m.out()[i]) {
                    out.add(nodes[k]);
                }
            }
        }
        return nodes[0];
    }

    /** The same traversal as {@link Model#digest()}, over the persistent graph (lists read by {@code get(i)}). */
    static String digest(GraphNode root) {
        Digest d = new Digest();
        boolean[] seen = new boolean[NODES];
        GraphNode[] stack = new GraphNode[1024];
        int sp = 0;
        stack[sp++] = root;
        while (sp > 0) {
            GraphNode n = stack[--sp];
            int i = n.id();
            if (seen[i]) {
                continue;
            }
            seen[i] = true;
            List<GraphNode> o = n.out();
            int size = o.size();
            d.visit(i, n.weight(), n.label(), size);
            if (sp + size + 2 > stack.length) {
                stack = Arrays.copyOf(stack, 2 * (sp + size + 2));
            }
            for (int k = size - 1; k >= 0; k--) {
                GraphNode t = o.get(k);
                d.edge(t.id());
                stack[sp++] = t;
            }
            GraphNode r = n.other();
            if (r != null) {
                stack[sp++] = r;
            }
            GraphNode l = n.next();
            if (l != null) {
                stack[sp++] = l;
            }
        }
        return d.toString();
    }

    private static void phase(String what, long t0) {
        if (Boolean.getBoolean("qs.graph.phases")) {
            System.err.printf("%s done at %.1f s%n", what, (System.nanoTime() - t0) / 1e9);
        }
    }

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[1]);
        long t0 = System.nanoTime();
        String digest;
        if (args[0].equals("build")) {
            Model m = Model.of(Long.parseLong(args[2]));
            try (PersistentStore s = PersistentStore.create(db, GraphNode.class)) {
                try (ObjectTransaction tx = s.begin()) {
                    phase("model", t0);
                    GraphNode root = build(tx, m);
                    phase("build " + s.storageManager().poolStats(), t0);
                    tx.root("graph", root);
                    tx.commit();
                    phase("commit", t0);
                }
                try (ObjectTransaction tx = s.begin()) {
                    digest = digest(tx.root("graph", GraphNode.class));
                }
            }
        } else {
            try (PersistentStore s = PersistentStore.open(db, GraphNode.class)) {
                var report = s.storageManager().verify();
                if (!report.ok()) {
                    throw new AssertionError("verify: " + report);
                }
                try (ObjectTransaction tx = s.begin()) {
                    digest = digest(tx.root("graph", GraphNode.class));
                }
            }
        }
        System.out.println(digest);
        System.err.printf("%s took %.1f s%n", args[0], (System.nanoTime() - t0) / 1e9);
    }
}
