package dev.quickstore.oo7;

import dev.quickstore.core.options.StoreOptions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The transactions of the OO7 kill sweep ({@link Oo7KillSweepTest}): transaction {@code n} is a pure function of
 * (seed, n) and the committed database, so the parent can replay on heap models exactly what its child committed
 * on the mapped store. Each is one OO7 update: T2A/B/C (increment x and y), T3A/B/C (build dates, an indexed
 * attribute) or the structural modifications SM1 (insert composite parts) and SM2 (delete the latest inserted);
 * every one of them changes the database, so consecutive states have distinct digests.
 */
final class Oo7KillSweep {
    private Oo7KillSweep() {}

    /**
     * A pool of about half the database, small log segments and a checkpoint every 96 KiB of log: steals, roll-overs and checkpoints
     * happen every few transactions, so the sweep's crash points are all reached often.
     */
    static final StoreOptions OPTIONS = StoreOptions.defaults().toBuilder()
            .bufferPoolPages(320)
            .logSegmentBytes(256 * 1024)
            .checkpointLogBytes(96 * 1024)
            .build();

    private static final Oo7Operation[] UPDATES = {
        Oo7Operation.T2A, Oo7Operation.T2B, Oo7Operation.T2C, Oo7Operation.T3A, Oo7Operation.T3B, Oo7Operation.T3C
    };

    /** The composite parts SM1 inserted and SM2 has not deleted, most recent first (ids above the built ones). */
    static List<Integer> pendingInserts(Oo7Store store) {
        List<Integer> ids = new ArrayList<>();
        int built = Oo7Config.SMALL.totalCompositeParts();
        store.forEachCompositePart(cp -> {
            if (cp.id() > built) {
                ids.add(cp.id());
            }
        });
        ids.sort(Comparator.reverseOrder());
        return ids;
    }

    /** Runs and commits transaction {@code n}; returns the operation's result. */
    static int apply(Oo7Store store, long seed, long n) {
        SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + n);
        store.begin();
        List<Integer> pending = pendingInserts(store);
        store.commit();
        Oo7Operation op;
        int pick = rnd.nextInt(10);
        if (pick >= 8 && (pick == 8 || pending.isEmpty()) && pending.size() < 15) {
            op = Oo7Operation.SM1;
        } else if (pick >= 8 && !pending.isEmpty()) {
            op = Oo7Operation.SM2;
        } else {
            op = UPDATES[rnd.nextInt(UPDATES.length)];
        }
        Oo7Operations ops = new Oo7Operations(
                store,
                Oo7Config.SMALL,
                rnd.nextLong(),
                new Oo7Operations.Parameters(Oo7Operations.T2Update.INCREMENT, 10, 5));
        ops.pendingInserts(pending);
        return ops.run(op);
    }
}
