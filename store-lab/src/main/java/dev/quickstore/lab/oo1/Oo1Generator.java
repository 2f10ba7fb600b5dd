package dev.quickstore.lab.oo1;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * Builds an OO1 database (Cattell and Skeen 1992) into an {@link Oo1Database}, deterministically from a seed, so
 * that the heap and the mapped store hold the same one: parts {@code 1..N} with a random type ({@code
 * "type000".."type009"}), {@code x} and {@code y} in {@code [0, 99999]} and a build date in a ten-year range; each
 * with {@value #CONNECTIONS} connections of random type and length, 90 % of them to a part among the closest 1 %
 * by id ({@link #target}), the rest to any part. Each part's connections are created right after it (near it:
 * on its page when there is room), their targets set in a second pass once every part exists; a transaction
 * commits every {@value #BATCH} parts.
 */
public final class Oo1Generator {
    /** Connections per part. */
    public static final int CONNECTIONS = 3;

    /** Parts per committed transaction while building. */
    static final int BATCH = 5_000;

    /** Cattell's database sizes: 20,000 parts (small) and 200,000 (large). */
    public enum Size {
        SMALL(20_000),
        LARGE(200_000);

        public final int parts;

        Size(int parts) {
            this.parts = parts;
        }
    }

    private Oo1Generator() {}

    /** Builds {@code parts} parts into the empty {@code db}; {@code progress} is told each part built. */
    public static void build(Oo1Database db, int parts, long seed, IntConsumer progress) {
        SplittableRandom attrs = new SplittableRandom(seed);
        for (int lo = 1; lo <= parts; lo += BATCH) {
            int hi = Math.min(parts, lo + BATCH - 1);
            db.begin();
            for (int id = lo; id <= hi; id++) {
                Oo1Part p = newPart(db, id, attrs);
                for (int k = 0; k < CONNECTIONS; k++) {
                    db.connect(p, null, type(attrs), attrs.nextInt(100_000));
                }
            }
            db.commit();
            progress.accept(hi);
        }
        SplittableRandom links = new SplittableRandom(seed ^ 0x5DEECE66DL);
        for (int lo = 1; lo <= parts; lo += BATCH) {
            int hi = Math.min(parts, lo + BATCH - 1);
            db.begin();
            for (int id = lo; id <= hi; id++) {
                List<Oo1Connection> to = db.partById(id).to();
                for (int k = 0; k < CONNECTIONS; k++) {
                    db.retarget(to.get(k), db.partById(target(id, parts, links)));
                }
            }
            db.commit();
        }
    }

    static Oo1Part newPart(Oo1Database db, int id, SplittableRandom rnd) {
        return db.createPart(
                id, type(rnd), rnd.nextInt(100_000), rnd.nextInt(100_000), 1_000_000L + rnd.nextInt(3_650));
    }

    static String type(SplittableRandom rnd) {
        return "type00" + rnd.nextInt(10);
    }

    /**
     * The target of a connection from part {@code from} among parts {@code 1..parts} (Cattell: "90% of the
     * connections go to the closest 1% of parts"): with probability 0.9 a part within {@code parts/200} ids of it
     * (clamped to the id range), otherwise a uniformly random part.
     */
    static int target(int from, int parts, SplittableRandom rnd) {
        if (rnd.nextInt(10) < 9) {
            int zone = Math.max(1, parts / 200);
            int lo = Math.max(1, from - zone);
            int hi = Math.min(parts, from + zone);
            return lo + rnd.nextInt(hi - lo + 1);
        }
        return 1 + rnd.nextInt(parts);
    }
}
