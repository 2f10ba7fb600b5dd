package dev.quickstore.core;

import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link NewPageKillTest}: opens (recovering) the store in {@code args[0]} with {@link
 * NewPageKillTest#OPTIONS} (a pool larger than the load, no checkpoint: committed pages stay in memory and in the
 * log only), prints {@code ready K}, then for batches K+1, K+2, ... (seed {@code args[1]}; pauses drawn from
 * {@code args[2]}): allocates the batch's
 * objects, prints {@code allocated N}, waits 0-40 ms (the window the parent's kill aims at: pages allocated, not
 * committed), commits and prints {@code committed N}. A watchdog halts it after five minutes.
 */
public final class NewPageKillChild {
    private NewPageKillChild() {}

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> {
            LockSupport.parkNanos(300_000_000_000L);
            Runtime.getRuntime().halt(3);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        long seed = Long.parseLong(args[1]);
        SplittableRandom pause = new SplittableRandom(Long.parseLong(args[2]));
        Store store = Store.open(Path.of(args[0]), NewPageKillTest.OPTIONS);
        long n = BulkLoad.batches(store);
        System.out.println("ready " + n);
        System.out.flush();
        while (true) {
            long batch = ++n;
            BulkLoad.load(store, seed, batch, () -> {
                System.out.println("allocated " + batch);
                System.out.flush();
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(pause.nextInt(41)));
            });
            System.out.println("committed " + batch);
            System.out.flush();
        }
    }
}
