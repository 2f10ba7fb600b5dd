package dev.quickstore.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.Oo7Builder;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Digest;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.schema.AtomicPart;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every OO7 peer (issue 17) must do on the small database, compared with the Java-heap model
 * ({@link HeapOo7Store}): the same database after the build (equal {@link Oo7Digest}), the same count for
 * every {@link Oo7Operation} run in the same order from the same seeds, the same digest after every updating
 * operation, the database unchanged by close and reopen over the same directory, and (where the peer can
 * abort) an abort that leaves the digest unchanged. A peer's test class extends this and supplies
 * {@link #open(Path)}; every store it opens is closed after each test.
 */
public abstract class PeerOo7Contract {
    /** The build seed (the seed the store-oo7 tests use). */
    protected static final long SEED = 42;

    /** The seed of the operations' random choices (T7, Q1, Q4, SM1). */
    protected static final long OPS_SEED = 7;

    @TempDir
    protected Path tmp;

    private final List<Oo7Store> opened = new ArrayList<>();

    /** Opens the peer over {@code dir}: creates an empty database in an empty directory, else reopens it. */
    protected abstract Oo7Store open(Path dir);

    @AfterEach
    void closeOpened() {
        for (Oo7Store s : opened) {
            s.close();
        }
        opened.clear();
    }

    /** Opens the peer over {@code dir} and closes it after the test (closing twice must be harmless). */
    protected final Oo7Store openTracked(Path dir) {
        Oo7Store store = open(dir);
        assertNotNull(store, "open(" + dir + ")");
        opened.add(store);
        return store;
    }

    /** Builds OO7 small from {@link #SEED} into a fresh peer over {@code dir}. */
    protected final Oo7Store buildPeer(Path dir) {
        Oo7Store store = openTracked(dir);
        new Oo7Builder(Oo7Config.SMALL, SEED).build(store, Oo7Builder.Progress.NONE);
        return store;
    }

    /** Builds OO7 small from {@link #SEED} on the heap. */
    protected static HeapOo7Store buildHeap() {
        HeapOo7Store heap = new HeapOo7Store();
        new Oo7Builder(Oo7Config.SMALL, SEED).build(heap, Oo7Builder.Progress.NONE);
        return heap;
    }

    protected static Oo7Operations ops(Oo7Store store) {
        return new Oo7Operations(store, Oo7Config.SMALL, OPS_SEED, Oo7Operations.Parameters.DEFAULTS);
    }

    protected static <T> T tx(Oo7Store store, Supplier<T> body) {
        store.begin();
        T result = body.get();
        store.commit();
        return result;
    }

    protected static String digest(Oo7Store store) {
        return tx(store, () -> Oo7Digest.of(store));
    }

    // --------------------------------------------------------------------------------------------- tests

    @Test
    void everyOperationCountsAsOnTheHeapAndUpdatesLeaveTheSameDatabase() {
        HeapOo7Store heap = buildHeap();
        Oo7Store peer = buildPeer(tmp.resolve("ops"));
        String built = digest(heap);
        assertEquals(built, digest(peer), "the peer holds the database the heap store holds after the build");

        Oo7Operations heapOps = ops(heap);
        Oo7Operations peerOps = ops(peer);
        for (Oo7Operation op : Oo7Operation.values()) {
            int expected = heapOps.run(op);
            assertEquals(expected, peerOps.run(op), op + " count on " + peer.name());
            if (op.updates()) {
                assertEquals(digest(heap), digest(peer), "database after " + op + " on " + peer.name());
            }
        }
        // T2 swapped x/y once, T3 toggled the build dates once: the round changed the database
        assertNotEquals(built, digest(peer), "a round of updates changed the database");

        // a second round, after dropping the peer's caches, gives the same counts again
        peer.makeCold();
        for (Oo7Operation op : List.of(Oo7Operation.T1, Oo7Operation.T2B, Oo7Operation.T3B, Oo7Operation.Q2)) {
            assertEquals(heapOps.run(op), peerOps.run(op), op + " after makeCold on " + peer.name());
        }
        assertEquals(digest(heap), digest(peer), "database after the cold round on " + peer.name());
    }

    @Test
    void theDatabaseSurvivesCloseAndReopen() {
        Path dir = tmp.resolve("reopen");
        Oo7Store peer = buildPeer(dir);
        Oo7Operations peerOps = ops(peer);
        assertEquals(43_740, peerOps.run(Oo7Operation.T2B));
        assertEquals(5, peerOps.run(Oo7Operation.SM1));
        String before = digest(peer);
        peer.close();

        Oo7Store reopened = openTracked(dir);
        assertEquals(before, digest(reopened), "digest after close and reopen of " + dir);
        assertEquals(43_740 + 5 * 20, ops(reopened).run(Oo7Operation.T1), "T1 sees the SM1 inserts after reopen");

        HeapOo7Store heap = buildHeap();
        Oo7Operations heapOps = ops(heap);
        heapOps.run(Oo7Operation.T2B);
        heapOps.run(Oo7Operation.SM1);
        assertEquals(digest(heap), digest(reopened), "the reopened peer equals the heap model");
    }

    @Test
    void abortLeavesTheDatabaseUnchanged() {
        Oo7Store peer = buildPeer(tmp.resolve("abort"));
        String before = digest(peer);
        peer.begin();
        AtomicPart p = peer.atomicPartById(1);
        int date = p.buildDate();
        p.x(p.x() + 1);
        peer.updateBuildDate(p, date + 1);
        Oo7Operations ops = ops(peer);
        assertEquals(43_740, runInside(ops, Oo7Operation.T2B));
        assertEquals(5, runInside(ops, Oo7Operation.SM1));
        try {
            peer.abort();
        } catch (UnsupportedOperationException e) {
            Assumptions.abort(peer.name() + " cannot abort: " + e.getMessage());
        }
        assertEquals(before, digest(peer), "digest after abort on " + peer.name());
        int[] seen = {0};
        tx(peer, () -> {
            peer.scanAtomicPartsByBuildDate(date, date, q -> seen[0] += q.id() == 1 ? 1 : 0);
            peer.scanAtomicPartsByBuildDate(date + 1, date + 1, q -> seen[0] += q.id() == 1 ? 10 : 0);
            return null;
        });
        assertEquals(1, seen[0], "the build-date index holds part 1 under its old date only");
        assertTrue(tx(peer, () -> peer.compositePartById(501) == null), "the aborted SM1 insert is gone");
        assertEquals(43_740, ops(peer).run(Oo7Operation.T1));
    }

    /** Runs {@code op} inside the caller's transaction (no begin/commit of its own). */
    private static int runInside(Oo7Operations ops, Oo7Operation op) {
        return switch (op) {
            case T2B -> ops.t2b();
            case SM1 -> ops.sm1();
            default -> throw new IllegalArgumentException(op.name());
        };
    }
}
