package dev.quickstore.core;

import dev.quickstore.core.index.KeyType;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A seeded random object graph for Texas mode tests, with its heap model: {@code n} nodes of {@value #NODE}
 * bytes (value at {@value #VALUE}, two references at {@value #A} and {@value #B}), reachable from the root
 * "g0" through A (a chain) and indexed by id ("byId"). The model is two int arrays and a long array; the store
 * is read and written through {@link Store#view()}, so every reference followed was swizzled by the fault path.
 */
final class TexasGraph {
    static final int NODE = 600;
    static final int A = 8;
    static final int B = 16;
    static final int VALUE = 24;
    static final int ID = 32;

    final int n;
    final int[] a;
    final int[] b;
    final long[] value;

    TexasGraph(int n, long seed) {
        this.n = n;
        a = new int[n];
        b = new int[n];
        value = new long[n];
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            a[i] = i + 1 < n ? i + 1 : -1;
            b[i] = r.nextInt(n + 1) - 1; // -1 = null
            value[i] = r.nextLong(1_000_000);
        }
    }

    /** Builds the model's graph in the store (one transaction). */
    void build(Store s) {
        try (Transaction tx = s.begin()) {
            long[] ref = new long[n];
            for (int i = 0; i < n; i++) {
                ref[i] = tx.allocate(NODE, i > 0 ? ref[i - 1] : 0, A, B);
                tx.putLong(ref[i], VALUE, value[i]);
                tx.putLong(ref[i], ID, i);
            }
            Index idx = tx.createIndex("byId", KeyType.LONG, 8, true);
            for (int i = 0; i < n; i++) {
                tx.putLong(ref[i], A, a[i] < 0 ? 0 : ref[a[i]]);
                tx.putLong(ref[i], B, b[i] < 0 ? 0 : ref[b[i]]);
                idx.insert((long) i, ref[i]);
            }
            tx.setRoot("g0", ref[0]);
            tx.commit();
        }
    }

    static long get(Store s, long ref, int off) {
        return s.view().get(dev.quickstore.core.page.PageHeader.LONG, ref - s.arenaBase() + off);
    }

    static void put(Store s, long ref, int off, long v) {
        s.view().set(dev.quickstore.core.page.PageHeader.LONG, ref - s.arenaBase() + off, v);
    }

    /** The model's answer to {@link #walk}: per node along A, (id, value, id of B or -1). */
    long[] expectedWalk() {
        long[] out = new long[3 * n];
        for (int i = 0, k = 0; i >= 0; i = a[i]) {
            out[k++] = i;
            out[k++] = value[i];
            out[k++] = b[i];
        }
        return out;
    }

    /** Walks the chain through the view: per node (id, value, id of its B target or -1). */
    long[] walk(Store s) {
        long[] out = new long[3 * n];
        try (Transaction tx = s.begin()) {
            int k = 0;
            for (long r = tx.root("g0"); r != 0; r = get(s, r, A)) {
                out[k++] = get(s, r, ID);
                out[k++] = get(s, r, VALUE);
                long t = get(s, r, B);
                out[k++] = t == 0 ? -1 : get(s, t, ID);
            }
            s.checkPending();
            tx.commit();
        }
        return out;
    }

    /** The seeded update plan: per update (node i, new B target j, new value). */
    long[][] plan(long seed, int count) {
        SplittableRandom r = new SplittableRandom(seed);
        long[][] ops = new long[count][];
        for (int u = 0; u < count; u++) {
            ops[u] = new long[] {r.nextInt(n), r.nextInt(n), r.nextLong(1_000_000)};
        }
        return ops;
    }

    /** Applies the plan of {@code seed} to the model only (what a committed {@link #update} did). */
    void applyToModel(long seed, int count) {
        for (long[] op : plan(seed, count)) {
            value[(int) op[0]] = op[2];
            b[(int) op[0]] = (int) op[1];
        }
    }

    /**
     * Random updates in one transaction (seeded): values changed and B references retargeted through the view
     * (the application stores virtual addresses), nodes found through the index. Committed (and applied to the
     * model) unless {@code commit} is false (then aborted, and the model is left unchanged).
     */
    void update(Store s, long seed, int count, boolean commit) {
        try (Transaction tx = s.begin()) {
            Index idx = tx.index("byId");
            for (long[] op : plan(seed, count)) {
                long ri = idx.lookup(op[0])[0];
                long rj = idx.lookup(op[1])[0];
                put(s, ri, VALUE, op[2]);
                put(s, ri, B, rj);
            }
            s.checkPending();
            if (commit) {
                tx.commit();
            } else {
                tx.abort();
            }
        }
        if (commit) {
            applyToModel(seed, count);
        }
    }

    @Override
    public String toString() {
        return "graph of " + n + " nodes, first B targets " + Arrays.toString(Arrays.copyOf(b, 5));
    }
}
