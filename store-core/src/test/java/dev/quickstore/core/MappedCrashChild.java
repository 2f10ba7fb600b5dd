package dev.quickstore.core;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Child JVM of {@link MappedStoreTest}: commits plain view stores (word 1 = 9000 + i), prints
 * "committed", then stores word 2 = -1 through the view in a transaction that never commits, forces
 * steals (the pool is smaller than the dirty set) so those stores reach the volume, prints
 * "uncommitted steals=N" and waits to be killed with SIGKILL.
 */
public final class MappedCrashChild {
    private MappedCrashChild() {}

    public static void main(String[] args) throws Exception {
        Store s = Store.open(Path.of(args[0]), MappedStoreTest.OPTS);
        long[] refs = MappedStoreTest.refs(s);
        try (Transaction tx = s.begin()) {
            for (int i = 0; i < refs.length; i++) {
                MappedStoreTest.put(s, refs[i], 8, 9000L + i);
            }
            tx.commit();
        }
        System.out.println("committed");
        System.out.flush();
        Transaction tx = s.begin();
        for (long r : refs) {
            MappedStoreTest.put(s, r, 16, -1);
        }
        for (int i = 0; i < 40; i++) {
            tx.allocate(MappedStoreTest.OBJECT);
        }
        System.out.println("uncommitted steals=" + s.pool.steals());
        System.out.flush();
        while (true) {
            LockSupport.park(); // until SIGKILL
        }
    }
}
