package dev.quickstore.replication;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.remote.ServerSecret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Test seeds: a store of zeroed objects, one per page, with its secret, copied to replica directories. */
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

    /** Copies the directory {@code from} to {@code to} (the seed to a replica's directory). */
    static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
    }
}
