package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Child JVM of {@link StatsPidTest}: creates a store in {@code args[0]}, commits {@code args[1]} transactions of
 * one new object each, aborts one, stores through the view once (a write fault), prints {@code ready} once the
 * store's MXBean is registered and keeps the store open until it is killed.
 */
public final class OpenStoreChild {
    private OpenStoreChild() {}

    public static void main(String[] args) throws Exception {
        int commits = Integer.parseInt(args[1]);
        Store s = Store.create(Path.of(args[0]));
        long ref = 0;
        for (int i = 0; i < commits; i++) {
            try (Transaction tx = s.begin()) {
                ref = tx.allocate(64);
                tx.putLong(ref, 0, i);
                tx.commit();
            }
        }
        try (Transaction tx = s.begin()) {
            s.view().set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, ref - s.arenaBase() + 8, 7L);
            tx.abort();
        }
        // the store's MXBean is registered by a management thread right after the open: wait for it
        javax.management.ObjectName stores = new javax.management.ObjectName("dev.quickstore:type=Store,*");
        while (java.lang.management.ManagementFactory.getPlatformMBeanServer()
                .queryNames(stores, null)
                .isEmpty()) {
            Thread.sleep(5);
        }
        System.out.println("ready");
        System.out.flush();
        while (true) {
            LockSupport.park(); // until SIGKILL
        }
    }
}
