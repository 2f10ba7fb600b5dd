package dev.quickstore.replication;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.remote.ServerSecret;
import java.nio.file.Path;

/** Test seeds: a store of zeroed objects, one per page, with its secret, copied to replica directories ({@code LoopbackReplicas.copySeed}). */
final class Seeds {
    private Seeds() {}

    /** A store of {@code n} zeroed 7,000-byte objects, one per page, and its secret; their arena offsets. */
    static long[] build(Path db, int n) throws Exception {
        long[] offsets = new long[n];
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            for (int i = 0; i < n; i++) {
                long ref = tx.allocate(7000);
                tx.write(ref, 0, new byte[8]);
                offsets[i] = ref - s.arenaBase();
            }
            tx.commit();
        }
        ServerSecret.loadOrCreate(db);
        return offsets;
    }
}
