package dev.quickstore.lab.oo1;

import java.util.List;
import java.util.SplittableRandom;

/**
 * OO1's three operations over any {@link Oo1Database}, each run in the caller's transaction except {@link
 * #insert}, which commits its own (Cattell and Skeen 1992; Texas, Kakkad and Wilson 1999, section 6.2). Each
 * returns a checksum of what it read, so that two systems can be checked to have done the same work.
 */
public final class Oo1Operations {
    /** Traversal depth: seven levels below the root, 3,280 visits with three connections per part. */
    public static final int DEPTH = 7;

    /** Parts visited by one full traversal: {@code (3^(DEPTH+1) - 1) / 2}. */
    public static final int TRAVERSAL_VISITS = 3_280;

    private Oo1Operations() {}

    /** The benchmark's null procedure: takes the attributes and does nothing with them but mix them. */
    static long nullProcedure(int x, int y, long acc) {
        return acc * 31 + x * 7L + y;
    }

    /** Looks up {@code n} random parts by id (ids in {@code 1..parts}) and passes each one's x, y and type on. */
    public static long lookup(Oo1Database db, int parts, int n, SplittableRandom rnd) {
        long acc = 0;
        for (int i = 0; i < n; i++) {
            Oo1Part p = db.partById(1 + rnd.nextInt(parts));
            acc = nullProcedure(p.x(), p.y(), acc) + p.type().length();
        }
        return acc;
    }

    /**
     * A depth-first traversal from part {@code rootId} over the connections, {@link #DEPTH} levels deep,
     * duplicates visited again; the null procedure on every part. Returns the visits and their checksum.
     */
    public static Traversal traverse(Oo1Database db, int rootId) {
        Oo1Part root = db.partById(rootId);
        if (root == null) {
            throw new IllegalArgumentException("no part " + rootId);
        }
        Traversal t = new Traversal();
        visit(root, DEPTH, t);
        return t;
    }

    private static void visit(Oo1Part p, int depth, Traversal t) {
        t.visits++;
        t.checksum = nullProcedure(p.x(), p.y(), t.checksum);
        if (depth == 0) {
            return;
        }
        List<Oo1Connection> to = p.to();
        for (int i = 0, n = to.size(); i < n; i++) {
            visit(to.get(i).to(), depth - 1, t);
        }
    }

    /** What a traversal did: parts visited and a checksum of their attributes in visiting order. */
    public static final class Traversal {
        public int visits;
        public long checksum;
    }

    /**
     * Inserts {@code n} parts with ids {@code first..first+n-1}, each with its connections to parts chosen by the
     * generator's rule among {@code 1..first+n-1}, and commits (OO1's insert: 100 parts and 300 connections).
     */
    public static void insert(Oo1Database db, int first, int n, SplittableRandom rnd) {
        db.begin();
        int parts = first + n - 1;
        for (int id = first; id < first + n; id++) {
            Oo1Generator.newPart(db, id, rnd);
        }
        for (int id = first; id < first + n; id++) {
            Oo1Part p = db.partById(id);
            for (int k = 0; k < Oo1Generator.CONNECTIONS; k++) {
                db.connect(
                        p,
                        db.partById(Oo1Generator.target(id, parts, rnd)),
                        Oo1Generator.type(rnd),
                        rnd.nextInt(100_000));
            }
        }
        db.commit();
    }
}
