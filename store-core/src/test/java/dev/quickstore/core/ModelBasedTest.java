package dev.quickstore.core;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random allocate / write / delete / large object / index insert, delete and scan / commit /
 * abort against the in-memory model, on real files, with a buffer pool small enough to force steals,
 * a log small enough to force checkpoints and truncation, and clean close/reopen cycles.
 */
@ExtendWith(SeedExtension.class)
class ModelBasedTest {
    @TempDir
    Path dir;

    @Test
    void randomOperationsMatchTheModel(Seed seed) throws Exception {
        run(seed.value(), Boolean.getBoolean("qs.long") ? 2000 : 300);
    }

    private void run(long seed, int txns) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        StoreOptions opts = new StoreOptions(32, 1 << 18, 1 << 19);
        Path db = dir.resolve("db");
        Workload.Model committed = new Workload.Model();
        Store store = Store.create(db, 8192, opts);
        try {
            Workload.setup(store);
            for (int t = 0; t < txns; t++) {
                if (rnd.nextInt(4) == 0) {
                    try (Transaction tx = store.begin()) {
                        Workload.operations(tx, committed.copy(), rnd.split(), 1 + rnd.nextInt(40), 30000);
                        tx.abort();
                    }
                } else {
                    Workload.Model m = committed.copy();
                    Workload.commitTxn(store, m, rnd.split(), 1 + rnd.nextInt(40), 30000);
                    committed = m;
                }
                if (t % 50 == 49) {
                    Workload.check(store, committed, "txn " + t);
                    store.close();
                    store = Store.open(db, opts);
                }
            }
            Workload.check(store, committed, "end");
        } finally {
            store.close();
        }
    }
}
