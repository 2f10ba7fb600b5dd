package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.oo7.schema.AtomicPart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The small-database contract on the mapped persistent store, plus durability: T2's updates survive commit,
 * close and reopen, and T1 counts the same after reopening. One mapped store per process (the arena and the
 * application view are process-wide), so {@link #newStore()} closes the previous one; the contract never
 * uses two stores at once (it digests one before building the next).
 */
class MappedOo7StoreTest extends Oo7SmallContract {
    @TempDir
    Path tmp;

    private MappedOo7Store last;
    private int made;

    @Override
    protected Oo7Store newStore() {
        if (last != null) {
            last.close();
        }
        try {
            last = MappedOo7Store.create(tmp.resolve("oo7-" + made++), false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return last;
    }

    @AfterEach
    void closeLast() {
        if (last != null) {
            last.close();
            last = null;
        }
    }

    private static Map<Integer, int[]> xy(Oo7Store store) {
        Map<Integer, int[]> m = new HashMap<>();
        tx(store, () -> store.forEachAtomicPart(p -> m.put(p.id(), new int[] {p.x(), p.y()})));
        return m;
    }

    @Test
    void t2ChangesSurviveCommitCloseAndReopenAndT1CountsTheSame() throws IOException {
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        Path dir = store.dir();
        Map<Integer, int[]> before = xy(store);
        assertEquals(
                43_740,
                ops(store, new Oo7Operations.Parameters(Oo7Operations.T2Update.INCREMENT, 10, 5))
                        .run(Oo7Operation.T2B));
        Map<Integer, int[]> after = xy(store);
        String digest = digest(store);
        store.close();

        try (MappedOo7Store reopened = MappedOo7Store.open(dir, false)) {
            last = null;
            assertEquals(after.size(), xy(reopened).size());
            Map<Integer, int[]> again = xy(reopened);
            int changed = 0;
            for (Map.Entry<Integer, int[]> e : before.entrySet()) {
                int[] b = e.getValue();
                int[] a = again.get(e.getKey());
                assertEquals(after.get(e.getKey())[0], a[0], "x of " + e.getKey());
                assertEquals(after.get(e.getKey())[1], a[1], "y of " + e.getKey());
                if (a[0] != b[0]) {
                    changed++;
                    assertEquals(b[1] + (a[0] - b[0]), a[1], "x and y incremented equally");
                }
            }
            assertTrue(changed > 0 && changed < 10_000, "T2b touches the parts reachable from module 1: " + changed);
            assertEquals(digest, digest(reopened));
            assertEquals(43_740, ops(reopened).run(Oo7Operation.T1));
            assertTrue(reopened.persistentStore().storageManager().verify().ok(), "verify after reopen");
        }
    }

    @Test
    void makeColdReopensAndFaultsEverythingInAgain() {
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        Oo7Operations ops = ops(store);
        assertEquals(43_740, ops.run(Oo7Operation.T1));
        long hotFaults = faultsOf(store, () -> ops.run(Oo7Operation.T1));
        store.makeCold();
        long coldFaults = faultsOf(store, () -> ops.run(Oo7Operation.T1));
        assertEquals(0, hotFaults, "a hot T1 finds every page resident");
        assertTrue(coldFaults > 100, "a cold T1 faults its pages in: " + coldFaults);
        assertEquals(43_740, ops.run(Oo7Operation.T1));
    }

    private static long faultsOf(MappedOo7Store store, Runnable r) {
        long before = store.counters().get("readFaults");
        r.run();
        return store.counters().get("readFaults") - before;
    }

    @Test
    void abortUndoesUpdatesAndIndexChanges() {
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        String digest = digest(store);
        store.begin();
        AtomicPart p = store.atomicPartById(1);
        int date = p.buildDate();
        store.updateBuildDate(p, date + 1);
        p.x(p.x() + 1);
        store.abort();
        assertEquals(digest, digest(store));
        store.begin();
        int[] seen = {0};
        store.scanAtomicPartsByBuildDate(date, date, q -> seen[0] += q.id() == 1 ? 1 : 0);
        store.commit();
        assertEquals(1, seen[0], "the index entry of the aborted update is gone");
        assertThrows(IllegalStateException.class, store::commit);
    }
}
