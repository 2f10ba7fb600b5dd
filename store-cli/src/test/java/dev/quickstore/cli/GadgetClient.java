package dev.quickstore.cli;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.remote.TransactionConflictException;
import java.nio.file.Path;

/**
 * A client process of {@link ConnectedStoreTest} on the object API ({@code PersistentStore.connect}):
 *
 * <ul>
 *   <li>{@code walk}: follows the chain from root {@code head} and prints {@code count N sum S} (ids summed);
 *   <li>{@code bump N [GO]}: N transactions each adding 1 to the id of root {@code counter}, retried on
 *       conflict or a refused lock; prints {@code bumped N conflicts C}. With GO, prints {@code ready} once connected and starts
 *       when the file GO exists.
 * </ul>
 */
public final class GadgetClient {
    private GadgetClient() {}

    /**
     * {@code n} transactions each adding 1 to the id of root {@code counter}, each retried until it commits;
     * returns how many attempts failed (conflicts, or refused locks: then after a short random pause).
     */
    static int bump(PersistentStore db, int n) throws InterruptedException {
        int failed = 0;
        for (int done = 0; done < n; ) {
            try (ObjectTransaction tx = db.begin()) {
                Gadget c = tx.root("counter", Gadget.class);
                c.id(c.id() + 1);
                tx.commit();
                done++;
            } catch (TransactionConflictException e) {
                failed++;
            } catch (dev.quickstore.core.remote.PageLockException e) {
                failed++; // page locking: a deadlock victim backs off before its retry
                Thread.sleep(1 + (System.nanoTime() & 3));
            }
        }
        return failed;
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        Path secret = Path.of(args[1]);
        try (PersistentStore db = PersistentStore.connect(uri, secret, Gadget.class)) {
            switch (args[2]) {
                case "walk" -> {
                    try (ObjectTransaction tx = db.begin()) {
                        long[] cs = ConnectedStoreTest.walk(tx.root("head", Gadget.class));
                        tx.commit();
                        System.out.println("count " + cs[0] + " sum " + cs[1]);
                    }
                }
                case "bump" -> {
                    int n = Integer.parseInt(args[3]);
                    if (args.length > 4) { // start together with the parent: when it creates this file
                        Path go = Path.of(args[4]);
                        System.out.println("ready");
                        System.out.flush();
                        long deadline = System.nanoTime() + 60_000_000_000L;
                        while (!java.nio.file.Files.exists(go) && System.nanoTime() < deadline) {
                            Thread.sleep(1);
                        }
                    }
                    System.out.println("bumped " + n + " conflicts " + bump(db, n));
                }
                default -> throw new IllegalArgumentException("unknown mode " + args[2]);
            }
        }
    }
}
