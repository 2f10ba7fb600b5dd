package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.Oo7Benchmark.Options;
import dev.quickstore.oo7.Oo7Benchmark.Phase;
import dev.quickstore.oo7.Oo7Benchmark.Result;
import dev.quickstore.oo7.heap.HeapOo7Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class Oo7BenchmarkTest {

    @Test
    void aRoundOfEveryOperationLeavesTheDatabaseAsItWas() {
        HeapOo7Store store = HeapOo7StoreTest.buildHeap(Oo7SmallContract.SEED);
        String digest = Oo7Digest.of(store);
        Oo7Operations ops = Oo7SmallContract.ops(store);
        List<Oo7Operation> all = Oo7Benchmark.defaultOperations(Oo7Config.SMALL);
        assertFalse(all.contains(Oo7Operation.T10), "T10 only for several modules");
        assertTrue(Oo7Benchmark.defaultOperations(Oo7Config.LARGE).contains(Oo7Operation.T10));

        // two rounds: T2 swaps and T3 toggles twice, T5 and SM1/SM2 undo themselves every round
        List<Result> results = Oo7Benchmark.run(ops, new Options(all, 1, 1));
        assertEquals(digest, Oo7Digest.of(store));

        assertEquals(all.size(), results.size(), "the heap store has no cold phase");
        Map<Oo7Operation, Result> byOp = new LinkedHashMap<>();
        for (Result r : results) {
            assertEquals(Phase.HOT, r.phase());
            assertEquals(1, r.opNanos().length);
            assertTrue(r.medianOpNanos() >= 0 && r.minOpNanos() <= r.maxOpNanos());
            assertTrue(r.counters().isEmpty(), "the heap store counts nothing");
            byOp.put(r.operation(), r);
        }
        assertEquals(43_740, byOp.get(Oo7Operation.T1).count());
        assertEquals(174_960, byOp.get(Oo7Operation.T2C).count());
        assertEquals(2_632, byOp.get(Oo7Operation.T8).count());
        assertEquals(10_000, byOp.get(Oo7Operation.Q8).count());
        assertEquals(5, byOp.get(Oo7Operation.SM2).count());

        String table = Oo7Benchmark.table(results);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("T1 ") && l.contains(" 43740 ")), table);
        String csv = Oo7Benchmark.csv("heap", Oo7Config.SMALL, results);
        assertEquals(all.size() + 1, csv.lines().count());
        assertTrue(csv.lines().anyMatch(l -> l.startsWith("heap,small,T4,hot,83106,true,1,")), csv);
        String json = Oo7Benchmark.json("heap", Oo7Config.SMALL, 42, results);
        assertTrue(json.startsWith("{\"store\":\"heap\",\"size\":\"small\",\"seed\":42,\"results\":["), json);
        assertEquals(all.size(), json.split("\"op\":", -1).length - 1);
    }

    @Test
    void repeatedRoundsReportMedianAndSpread() {
        Oo7Operations ops = Oo7SmallContract.ops(HeapOo7StoreTest.buildHeap(Oo7SmallContract.SEED));
        List<Result> results = Oo7Benchmark.run(ops, new Options(List.of(Oo7Operation.T6, Oo7Operation.Q1), 3, 0));
        Result t6 = results.get(0);
        assertEquals(3, t6.opNanos().length);
        assertTrue(t6.countStable());
        assertTrue(t6.minOpNanos() <= t6.medianOpNanos() && t6.medianOpNanos() <= t6.maxOpNanos());
    }

    @Test
    void medianAndJsonQuoting() {
        assertEquals(2, Oo7Benchmark.median(new long[] {3, 1, 2}));
        assertEquals(2, Oo7Benchmark.median(new long[] {4, 1, 3, 1}));
        assertEquals("\"a\\\"b\\\\c\\u000a\"", Oo7Benchmark.quote("a\"b\\c\n"));
    }

    @Test
    void argumentParsing() {
        Map<String, String> opts = Oo7Benchmark.parse(new String[] {"--size", "medium", "--ops=T1,Q1"});
        assertEquals("medium", opts.get("size"));
        assertEquals("T1,Q1", opts.get("ops"));
        assertThrows(IllegalArgumentException.class, () -> Oo7Benchmark.parse(new String[] {"--bogus", "1"}));
        assertThrows(IllegalArgumentException.class, () -> Oo7Benchmark.parse(new String[] {"--size"}));
        assertThrows(IllegalArgumentException.class, () -> new Options(List.of(), 1, 0));
    }
}
