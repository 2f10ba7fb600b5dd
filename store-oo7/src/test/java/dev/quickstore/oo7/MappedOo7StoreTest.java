package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.oo7.schema.AtomicPart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The small-database contract on the mapped persistent store, plus durability: T2's updates survive commit,
 * close and reopen, and T1 counts the same after reopening. One mapped store per process (the arena and the
 * application view are process-wide), so {@link #newStore()} closes the previous one; the contract never
 * uses two stores at once (it digests one before building the next).
 */
class MappedOo7StoreTest extends MappedOo7Contract {
    @Override
    StoreOptions options() {
        return null;
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
        assertTrue(coldFaults > 100, "a cold T1 faults its pages in (faults + frames read ahead): " + coldFaults);
        assertEquals(43_740, ops.run(Oo7Operation.T1));
    }

    @Test
    void coldResultsCarryThePreadTimeOfTheSamePagesAndTheOverheadTableUsesIt() {
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        Map<String, List<Oo7Result>> results =
                Oo7Runner.runAll(List.of(ops(store)), new Oo7Runner.Options(List.of(Oo7Operation.T1), 1, 0));
        Oo7Result cold = results.get("qs").stream()
                .filter(r -> r.phase() == Oo7Result.Phase.COLD)
                .findFirst()
                .orElseThrow();
        long faults = cold.counters().get("readFaults");
        long ahead = cold.counters().get("readAheadFrames");
        assertTrue(faults + ahead > 100, "a cold T1 faults its pages in: " + cold.counters());
        assertTrue(cold.counters().get("handlerNanos") > 0, "time in the fault handler: " + cold.counters());
        // the op thread's minor faults are counted (its own first touches at least; a load by minor faults takes
        // none, one by mprotect one or more: docs/results.md, "A cold read fault through userfaultfd's minor faults")
        assertTrue(cold.counters().get("minorFaults") > 0, "the op thread's minor faults: " + cold.counters());
        assertTrue(cold.counters().get("threadCpuNanos") > 0, "the op thread's CPU time: " + cold.counters());
        assertTrue(cold.counters().get(Oo7Runner.PREAD_US) > 0, "pread time recorded: " + cold.counters());
        // pread of the resident pages after the run: at least the pages T1 faulted in
        assertTrue(store.persistentStore().storageManager().residentPages().length >= faults + ahead);
        String table = Oo7FaultTables.coldOverhead(results).text();
        assertTrue(table.lines().anyMatch(l -> l.matches("T1\\s+qs\\s+\\d+\\.\\d{3}\\s+.*%\\s+(met|not met)")), table);
        assertTrue(
                table.lines()
                        .anyMatch(l -> l.matches(
                                "goal: overhead <= 30% of cold - (MET|NOT MET) \\(met by [01] of 1 operations\\)")),
                table);
        assertTrue(Oo7FaultTables.coldOverhead(Map.of("heap", List.of())).isEmpty(), "no cold results, no table");
    }

    @Test
    void hotWriteFaultsAreReportedOnTheirOwnLineWithTheObjectWorkAgainstTheHeap() {
        Oo7Operations heap = Oo7SmallContract.ops(HeapOo7StoreTest.buildHeap(SEED));
        Oo7Operations qs = ops(build(SEED));
        Map<String, List<Oo7Result>> results =
                Oo7Runner.runAll(List.of(heap, qs), new Oo7Runner.Options(List.of(Oo7Operation.T2A), 3, 1), false);
        Oo7Result hot = results.get("qs").stream()
                .filter(r -> r.phase() == Oo7Result.Phase.HOT)
                .findFirst()
                .orElseThrow();
        long faults = hot.counters().get("writeFaults");
        assertTrue(faults > 0, "page protection: a hot T2A takes write faults: " + hot.counters());
        assertTrue(hot.counters().get("handlerNanos") > 0, "time in the fault handler: " + hot.counters());
        Oo7Report.Table table = Oo7FaultTables.writeFaults(results);
        assertEquals(
                2, table.rows().size(), "the header and qs's T2A (the heap takes no write fault): " + table.text());
        String[] row = table.rows().get(1);
        assertEquals(List.of("T2A", "qs", Long.toString(faults)), List.of(row[0], row[1], row[3]), table.text());
        double op = hot.medianOpNanos() / 1e6;
        double handler = hot.counters().get("handlerNanos") / 1e6;
        double heapMs = results.get("heap").stream()
                        .filter(r -> r.phase() == Oo7Result.Phase.HOT)
                        .findFirst()
                        .orElseThrow()
                        .medianOpNanos()
                / 1e6;
        assertEquals(op - handler, Double.parseDouble(row[7]), 0.0011, "object = op - handler: " + table.text());
        assertEquals(heapMs, Double.parseDouble(row[8]), 0.0011, table.text());
        assertEquals((op - handler) / heapMs, Double.parseDouble(row[9].replace("x", "")), 0.006, table.text());
        assertTrue(
                Oo7Report.report(results).contains("write faults of the updating operations, hot"),
                "the section is in the printed report");
        assertTrue(
                Oo7FaultTables.writeFaults(Map.of("heap", results.get("heap"))).isEmpty(), "heap alone: no rows");
    }

    /** Pages the fault path loaded while {@code r} ran: faults and the frames read ahead with them. */
    private static long faultsOf(MappedOo7Store store, Runnable r) {
        Map<String, Long> before = store.counters();
        r.run();
        Map<String, Long> after = store.counters();
        return after.get("readFaults")
                + after.get("readAheadFrames")
                - before.get("readFaults")
                - before.get("readAheadFrames");
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

    @Test
    void commitBreakdownOfT2bIsNonNegativeAndWithinTheMeasuredCommitTime() {
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        Oo7Operations ops = ops(store, new Oo7Operations.Parameters(Oo7Operations.T2Update.INCREMENT, 10, 5));
        Map<String, Long> before = store.counters();
        store.begin();
        assertEquals(43_740, Oo7Operation.T2B.apply(ops));
        long t0 = System.nanoTime();
        store.commit();
        long measured = System.nanoTime() - t0;
        Map<String, Long> after = store.counters();
        Map<String, Long> d = new HashMap<>();
        after.forEach((k, v) -> d.put(k, v - before.get(k)));

        assertEquals(1, d.get("commits"));
        assertTrue(d.get("commitPages") > 0, "T2b dirties pages: " + d);
        assertTrue(d.get("logRecords") > 0 && d.get("logBytes") > 0, "T2b increments are logged: " + d);
        long parts = 0;
        for (String k : Oo7Report.COMMIT_COUNTERS) {
            assertTrue(d.get(k) >= 0, k + " " + d);
        }
        for (String k : List.of(
                "commitPreimageNanos",
                "commitReprotectNanos",
                "commitStableNanos",
                "commitDiffNanos",
                "commitAppendNanos",
                "commitFlushNanos")) {
            parts += d.get(k);
        }
        assertTrue(d.get("commitDiffNanos") > 0 && d.get("commitFlushNanos") > 0, "diffed and flushed: " + d);
        assertTrue(parts <= d.get("commitLogNanos"), "parts " + parts + " within the log part " + d);
        assertTrue(
                d.get("commitLogNanos") + d.get("commitCheckpointNanos") <= d.get("commitStoreNanos"),
                "log + checkpoint within the store's commit " + d);
        assertTrue(d.get("commitStoreNanos") <= d.get("commitNanos"), "store commit within the object commit " + d);
        assertTrue(d.get("commitNanos") <= measured, "object commit " + d.get("commitNanos") + " <= " + measured);
    }

    @Test
    void halfThePagesRelocatedGiveTheSameT1AndDigestAsTheHeap() throws IOException {
        Oo7Store heap = new dev.quickstore.oo7.heap.HeapOo7Store();
        new Oo7Builder(Oo7Config.SMALL, SEED).build(heap, Oo7Builder.Progress.NONE);
        String heapDigest = digest(heap);
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        assertEquals(0, store.relocatedPages());
        String previous = System.setProperty("qs.relocateFraction", "0.5");
        try {
            store.makeCold(); // reopens with StoreOptions.defaults(), which reads the property
            long relocated = store.relocatedPages();
            long pages = Files.size(VolumeFile.volumePath(store.dir())) / 8192;
            assertTrue(
                    relocated > pages / 4 && relocated < pages * 3 / 4,
                    relocated + " of " + pages + " pages relocated");
            assertEquals(43_740, ops(store).run(Oo7Operation.T1));
            assertEquals(heapDigest, digest(store));
            store.makeCold();
            assertEquals(43_740, ops(store).run(Oo7Operation.T1), "cold T1 again, relocated afresh");
        } finally {
            if (previous == null) {
                System.clearProperty("qs.relocateFraction");
            } else {
                System.setProperty("qs.relocateFraction", previous);
            }
        }
    }

    @Test
    void oneTimeRelocationOfHalfThePagesGivesTheSameT1AndDigestAndLaterOpensTranslateLess() throws IOException {
        Oo7Store heap = new dev.quickstore.oo7.heap.HeapOo7Store();
        new Oo7Builder(Oo7Config.SMALL, SEED).build(heap, Oo7Builder.Progress.NONE);
        String heapDigest = digest(heap);
        MappedOo7Store store = (MappedOo7Store) build(SEED);
        Map<String, String> saved = new HashMap<>();
        for (String[] kv : new String[][] {{"qs.relocateFraction", "0.5"}, {"qs.relocation", "one-time"}}) {
            saved.put(kv[0], System.setProperty(kv[0], kv[1]));
        }
        try {
            store.makeCold(); // relocates half the pages and persists the placement (QS-OR)
            long relocated = store.relocatedPages();
            long before = store.pagesNeedingTranslation();
            assertTrue(relocated > 0 && before > 0, relocated + " relocated, " + before + " to translate");
            assertEquals(43_740, ops(store).run(Oo7Operation.T1)); // commits the pages T1 translated
            long afterT1 = store.pagesNeedingTranslation();
            assertTrue(afterT1 < before, "T1 committed translated pages: " + afterT1 + " < " + before);
            store.makeCold(); // the committed placement: same frames, pages T1 touched need no translation
            assertEquals(relocated, store.relocatedPages());
            assertEquals(afterT1, store.pagesNeedingTranslation(), "after reopening");
            assertEquals(43_740, ops(store).run(Oo7Operation.T1));
            assertEquals(afterT1, store.pagesNeedingTranslation(), "a later T1 translates nothing new");
            assertEquals(heapDigest, digest(store));
        } finally {
            saved.forEach((k, v) -> {
                if (v == null) {
                    System.clearProperty(k);
                } else {
                    System.setProperty(k, v);
                }
            });
        }
    }
}
