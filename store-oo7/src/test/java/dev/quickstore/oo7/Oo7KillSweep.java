package dev.quickstore.oo7;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.oo7.schema.AtomicPart;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The transactions of the OO7 kill sweep ({@link Oo7KillSweepTest}): transaction {@code n} is a pure function of
 * (seed, n) and the committed database, so the parent can replay on heap models exactly what its child committed
 * on the mapped store. Each is one OO7 update: T2A/B/C (increment x and y), T3A/B/C (build dates, an indexed
 * attribute) or the structural modifications SM1 (insert composite parts) and SM2 (delete the latest inserted);
 * each also increments the {@code x} of one atomic part ({@link #stamp}), so every transaction changes the
 * database and consecutive states have distinct digests.
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
        store.begin();
        int result;
        try {
            result = op.apply(ops);
            stamp(store, n);
        } catch (RuntimeException | Error e) {
            try {
                store.abort();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        store.commit();
        return result;
    }

    /**
     * Makes transaction {@code n} change the database whatever its operation did: T3C toggles each build date four
     * times and T3A/T3B toggle twice the parts of composite parts that two base assemblies share, which leaves the
     * data as it was (only the build-date index's pages change), so without the stamp two consecutive states
     * could have equal digests and the oracle could not tell a lost commit from a kill before it.
     */
    private static void stamp(Oo7Store store, long n) {
        AtomicPart part = store.atomicPartById(1 + (int) (n % Oo7Config.SMALL.totalAtomicParts()));
        part.x(part.x() + 1);
    }
}
