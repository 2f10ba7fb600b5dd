package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * The bulk load of {@link BulkLoadKillTest}: batch k is one transaction that appends {@link #OBJECTS} small
 * objects of random sizes (each a pure function of the seed, k and its index) to a chain through all batches,
 * placed near the previous object (so they fill fresh pages), plus one large object named by root
 * {@code bulk.large.k}; root {@code bulk.head} names the last object. With {@link #OPTIONS}' pool of 32 frames a
 * batch's new pages do not fit, so every batch steals (logs with undo information and writes back) pages that
 * it allocated itself.
 *
 * <pre>
 * small object: u64 previous object (0 for the first; a pointer word), u32 batch, u32 index, payload
 * </pre>
 */
final class BulkLoad {
    private BulkLoad() {}

    static final StoreOptions OPTIONS = new StoreOptions(32, 1 << 18, 1 << 20);
    static final int OBJECTS = 1200;
    static final String HEAD = "bulk.head";

    private static SplittableRandom random(long seed, long batch) {
        return new SplittableRandom(seed * 1_000_003L + batch);
    }

    /** Commits batch {@code batch} (the store holds batches 1..batch-1). */
    static void load(Store store, long seed, long batch) {
        load(store, seed, batch, () -> {});
    }

    /** {@link #load}, running {@code beforeCommit} after every allocation of the batch and before its commit. */
    static void load(Store store, long seed, long batch, Runnable beforeCommit) {
        SplittableRandom rnd = random(seed, batch);
        try (Transaction tx = store.begin()) {
            long prev = tx.root(HEAD);
            for (int i = 0; i < OBJECTS; i++) {
                int size = 16 + rnd.nextInt(600);
                long ref = tx.allocate(size, prev, 0);
                tx.putLong(ref, 0, prev);
                tx.write(ref, 8, header(batch, i));
                tx.write(ref, 16, payload(rnd.nextLong(), size - 16));
                prev = ref;
            }
            int largeSize = 9000 + rnd.nextInt(20000);
            long large = tx.allocateLarge(largeSize, 0);
            byte[] bytes = payload(rnd.nextLong(), largeSize);
            tx.writeLarge(large, 0, bytes, 0, bytes.length);
            tx.setRoot("bulk.large." + batch, large);
            tx.setRoot(HEAD, prev);
            beforeCommit.run();
            tx.commit();
        }
    }

    /** Batches committed in the store: the batch of the object {@link #HEAD} names (0 for none). */
    static long batches(Store store) {
        try (Transaction tx = store.begin()) {
            long head = tx.root(HEAD);
            return head == 0
                    ? 0
                    : Integer.toUnsignedLong(ByteBuffer.wrap(tx.read(head))
                            .order(ByteOrder.LITTLE_ENDIAN)
                            .getInt(8));
        }
    }

    /**
     * Asserts that the store holds exactly batches 1..{@code expected}: the chain from the head is their objects in
     * reverse order with the generator's sizes and bytes, each batch's large object is intact, no later batch
     * left a root, and verify passes (no page allocated by a lost batch stays allocated or formatted).
     */
    static void check(Store store, long seed, long expected, String context) {
        try (Transaction tx = store.begin()) {
            long ref = tx.root(HEAD);
            for (long b = expected; b >= 1; b--) {
                SplittableRandom rnd = random(seed, b);
                int[] sizes = new int[OBJECTS];
                long[] seeds = new long[OBJECTS];
                for (int i = 0; i < OBJECTS; i++) {
                    sizes[i] = 16 + rnd.nextInt(600);
                    seeds[i] = rnd.nextLong();
                }
                int largeSize = 9000 + rnd.nextInt(20000);
                long largeSeed = rnd.nextLong();
                for (int i = OBJECTS - 1; i >= 0; i--) {
                    assertTrue(ref != 0, context + ": the chain ends in batch " + b + " at object " + i);
                    byte[] obj = tx.read(ref);
                    assertEquals(sizes[i], obj.length, context + ": size of batch " + b + " object " + i);
                    ByteBuffer bb = ByteBuffer.wrap(obj).order(ByteOrder.LITTLE_ENDIAN);
                    assertEquals(b, Integer.toUnsignedLong(bb.getInt(8)), context + ": batch of an object");
                    assertEquals(i, bb.getInt(12), context + ": index of an object of batch " + b);
                    assertEquals(
                            ByteBuffer.wrap(payload(seeds[i], sizes[i] - 16)),
                            ByteBuffer.wrap(obj, 16, sizes[i] - 16),
                            context + ": payload of batch " + b + " object " + i);
                    ref = bb.getLong(0);
                }
                long large = tx.root("bulk.large." + b);
                assertTrue(large != 0, context + ": large object of batch " + b);
                assertEquals(largeSize, tx.largeSize(large), context + ": size of the large object of batch " + b);
                byte[] got = new byte[largeSize];
                tx.readLarge(large, 0, got, 0, largeSize);
                assertEquals(
                        ByteBuffer.wrap(payload(largeSeed, largeSize)),
                        ByteBuffer.wrap(got),
                        context + ": large object of batch " + b);
            }
            assertEquals(0, ref, context + ": the chain goes on past batch 1");
            for (long b = expected + 1; b <= expected + 3; b++) {
                assertEquals(0, tx.root("bulk.large." + b), context + ": root of uncommitted batch " + b);
            }
        }
        assertTrue(store.verify().ok(), context + ": verify " + store.verify());
    }

    private static byte[] header(long batch, int index) {
        return ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt((int) batch)
                .putInt(index)
                .array();
    }

    private static byte[] payload(long seed, int n) {
        byte[] b = new byte[n];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }
}
