package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Random transactions over {@link FaultInjectingFileIO}; at random moments a power cut (with torn,
 * dropped and reordered unsynced writes) or a full disk; after each failure the store is reopened,
 * recovered, compared with the model (the last acknowledged commit, or the one in flight if its COMMIT
 * became durable) and verified. Seeded: the seed is printed on failure.
 */
@ExtendWith(SeedExtension.class)
class FaultInjectionTest {
    private static final Path DIR = Path.of("/mem/db");
    private static final StoreOptions OPTS = new StoreOptions(24, 1 << 18, 1 << 18);

    @Test
    void recoversFromPowerCutsAndFullDisks(Seed seed) throws Exception {
        run(seed.value(), Boolean.getBoolean("qs.long") ? 400 : 60);
    }

    private static void run(long seed, int rounds) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        FaultInjectingFileIO fs = new FaultInjectingFileIO();
        Workload.Model committed = new Workload.Model();
        Store store = Store.create(fs, DIR, 8192, OPTS);
        Workload.setup(store);
        int powerCuts = 0;
        int fullDisks = 0;
        int inFlightSurvived = 0;
        for (int round = 0; round < rounds; round++) {
            // a few clean transactions, some aborted
            int txns = rnd.nextInt(4);
            for (int i = 0; i < txns; i++) {
                if (rnd.nextInt(5) == 0) {
                    try (Transaction tx = store.begin()) {
                        Workload.operations(tx, committed.copy(), rnd.split(), 1 + rnd.nextInt(30), 20000);
                        tx.abort();
                    }
                } else {
                    Workload.Model m = committed.copy();
                    Workload.commitTxn(store, m, rnd.split(), 1 + rnd.nextInt(30), 20000);
                    committed = m;
                }
            }
            // then a transaction during which the failure strikes
            boolean enospc = rnd.nextInt(4) == 0;
            if (enospc) {
                fs.spaceLimit(fs.totalBytes() + rnd.nextInt(200_000));
            } else {
                fs.failAfter(rnd.nextInt(rnd.nextBoolean() ? 40 : 400));
            }
            Workload.Model pending = null;
            try {
                for (int attempt = 0; attempt < 50; attempt++) { // keep committing until the failure strikes
                    pending = committed.copy();
                    Workload.commitTxn(store, pending, rnd.split(), 1 + rnd.nextInt(60), 20000);
                    committed = pending;
                    pending = null;
                }
            } catch (StoreException e) {
                assertTrue(
                        store.poisoned()
                                || e.getCause() instanceof java.io.IOException
                                || e.getMessage().contains("failed earlier")
                                || e.getMessage().contains("I/O failure"),
                        "failures are typed StoreExceptions: " + e);
            }
            try {
                store.close();
            } catch (java.io.IOException | StoreException e) {
                // poisoned: closing writes nothing
            }
            if (enospc && rnd.nextBoolean()) {
                fs.recoverWithoutCrash();
                fullDisks++;
            } else {
                fs.crash(rnd);
                powerCuts++;
            }
            store = Store.open(fs, DIR, OPTS);
            long k = Workload.committedIn(store);
            if (Boolean.getBoolean("qs.debug")) {
                System.out.printf(
                        "round %d enospc=%b committed=%d pending=%s k=%d stats=%s%n",
                        round,
                        enospc,
                        committed.committed,
                        pending == null ? "-" : pending.committed + "/" + pending.nextId,
                        k,
                        store.recoveryStats());
            }
            if (pending != null && k == committed.committed + 1 && pending.committed == k) {
                committed = pending; // the COMMIT record of the transaction in flight was durable
                inFlightSurvived++;
            }
            assertEquals(committed.committed, k, "round " + round + ": committed transactions after recovery");
            Workload.check(store, committed, "round " + round);
        }
        store.close();
        assertTrue(powerCuts > 0 && fullDisks >= 0, "power cuts " + powerCuts);
        if (powerCuts + fullDisks != rounds) {
            fail("every round ends with a failure");
        }
        System.out.printf(
                "fault injection: %d power cuts, %d full disks, %d in-flight commits durable, %d torn and %d dropped writes%n",
                powerCuts, fullDisks, inFlightSurvived, fs.tornWrites, fs.droppedWrites);
    }
}
