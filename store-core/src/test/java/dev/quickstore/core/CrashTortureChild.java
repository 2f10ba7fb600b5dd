package dev.quickstore.core;

import dev.quickstore.core.crashpoint.CrashPoints;
import dev.quickstore.core.options.StoreOptions;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The child JVM of {@link CrashTortureTest}: opens the store (recovering it), then runs committed
 * transactions forever, printing "committed N" after each commit returned, until it is killed (with a third
 * argument {@code POINT:K}, it stops at the K-th time the store reaches that crash point: {@link dev.quickstore.core.crashpoint.CrashPoints#armStop}). Each
 * transaction is a pure function of (seed, N) and the committed state, so the parent can replay it.
 */
public final class CrashTortureChild {
    private CrashTortureChild() {}

    static SplittableRandom txnRandom(long seed, long n) {
        return new SplittableRandom(seed * 1_000_003L + n);
    }

    static final StoreOptions OPTIONS = new StoreOptions(32, 1 << 18, 1 << 19);

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        if (args.length > 2) {
            CrashPoints.armStop(args[2]);
        }
        try (Store store = Store.open(dir, OPTIONS)) {
            Workload.Model m = Workload.load(store);
            System.out.println("ready " + m.committed);
            System.out.flush();
            while (true) {
                commitNext(store, m, seed);
                System.out.println("committed " + m.committed);
                System.out.flush();
            }
        }
    }

    /** Applies transaction number m.committed+1 to the model only (the parent's replay). */
    static void commitNextModelOnly(Workload.Model m, long seed) {
        long n = m.committed + 1;
        Workload.applyToModel(m, txnRandom(seed, n), 1 + (int) ((m.committed * 7) % 25), 20000);
    }

    /** Runs transaction number m.committed+1 against the store; the model must be the full committed model. */
    static void commitNext(Store store, Workload.Model m, long seed) {
        Workload.commitTxn(store, m, txnRandom(seed, m.committed + 1), 1 + (int) ((m.committed * 7) % 25), 20000);
    }
}
