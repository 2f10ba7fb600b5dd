package dev.quickstore.core;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link BulkLoadKillTest}: opens (recovering) the store in {@code args[0]}, prints {@code ready
 * K} (K = batches committed), then commits {@link BulkLoad} batches K+1, K+2, ... (seed {@code args[1]}) forever,
 * printing {@code committed N} after each commit returned, until it is killed. A watchdog halts it after five
 * minutes should the parent never kill it.
 */
public final class BulkLoadKillChild {
    private BulkLoadKillChild() {}

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> {
            LockSupport.parkNanos(300_000_000_000L);
            Runtime.getRuntime().halt(3);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        long seed = Long.parseLong(args[1]);
        Store store = Store.open(Path.of(args[0]), BulkLoad.OPTIONS);
        long n = BulkLoad.batches(store);
        System.out.println("ready " + n);
        System.out.flush();
        while (true) {
            n++;
            BulkLoad.load(store, seed, n);
            System.out.println("committed " + n);
            System.out.flush();
        }
    }
}
