package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.Oo7Result.Phase;
import dev.quickstore.oo7.Oo7Runner.Options;
import dev.quickstore.oo7.heap.HeapOo7Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Oo7RunnerTest {

    @Test
    void aRoundOfEveryOperationLeavesTheDatabaseAsItWas() {
        HeapOo7Store store = HeapOo7StoreTest.buildHeap(Oo7SmallContract.SEED);
        String digest = Oo7Digest.of(store);
        Oo7Operations ops = Oo7SmallContract.ops(store);
        List<Oo7Operation> all = Oo7Runner.defaultOperations(Oo7Config.SMALL);
        assertFalse(all.contains(Oo7Operation.T10), "T10 only for several modules");
        assertTrue(Oo7Runner.defaultOperations(Oo7Config.LARGE).contains(Oo7Operation.T10));

        // two rounds: T2 swaps and T3 toggles twice, T5 and SM1/SM2 undo themselves every round
        List<Oo7Result> results = Oo7Runner.run(ops, new Options(all, 1, 1));
        assertEquals(digest, Oo7Digest.of(store));

        assertEquals(all.size(), results.size(), "the heap store has no cold phase");
        Map<Oo7Operation, Oo7Result> byOp = new LinkedHashMap<>();
        for (Oo7Result r : results) {
            assertEquals(Phase.HOT, r.phase());
            assertEquals(1, r.opNanos().length);
            assertTrue(r.medianOpNanos() >= 0 && r.minOpNanos() <= r.maxOpNanos());
            // the heap store counts nothing; the driver measures the peak heap of every operation
            assertEquals(java.util.Set.of(Oo7Runner.PEAK_HEAP_KIB), r.counters().keySet());
            assertTrue(
                    r.counters().get(Oo7Runner.PEAK_HEAP_KIB) > 0, r.counters().toString());
            byOp.put(r.operation(), r);
        }
        assertEquals(43_740, byOp.get(Oo7Operation.T1).count());
        assertEquals(174_960, byOp.get(Oo7Operation.T2C).count());
        assertEquals(2_632, byOp.get(Oo7Operation.T8).count());
        assertEquals(10_000, byOp.get(Oo7Operation.Q8).count());
        assertEquals(5, byOp.get(Oo7Operation.SM2).count());

        String table = Oo7Report.table(results);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("T1 ") && l.contains(" 43740 ")), table);
    }

    @Test
    void repeatedRoundsReportMedianAndSpread() {
        Oo7Operations ops = Oo7SmallContract.ops(HeapOo7StoreTest.buildHeap(Oo7SmallContract.SEED));
        List<Oo7Result> results = Oo7Runner.run(ops, new Options(List.of(Oo7Operation.T6, Oo7Operation.Q1), 3, 0));
        Oo7Result t6 = results.get(0);
        assertEquals(3, t6.opNanos().length);
        assertTrue(t6.countStable());
        assertTrue(t6.minOpNanos() <= t6.medianOpNanos() && t6.medianOpNanos() <= t6.maxOpNanos());
    }

    @Test
    void medianAndOptions() {
        assertEquals(2, Oo7Runner.median(new long[] {3, 1, 2}));
        assertEquals(2, Oo7Runner.median(new long[] {4, 1, 3, 1}));
        assertThrows(IllegalArgumentException.class, () -> new Options(List.of(), 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new Options(List.of(Oo7Operation.T1), 0, 0));
    }
}
