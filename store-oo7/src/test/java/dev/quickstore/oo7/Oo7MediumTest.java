package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.oo7.Oo7Operations.Parameters;
import dev.quickstore.oo7.heap.HeapOo7Store;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** The deterministic medium counts of design notes section 6; slow, so only with {@code -Dqs.long=true}. */
@EnabledIfSystemProperty(named = "qs.long", matches = "true")
class Oo7MediumTest {
    @Test
    void mediumCounts() {
        HeapOo7Store store = new HeapOo7Store();
        new Oo7Builder(Oo7Config.MEDIUM, 42).build(store, Oo7Builder.Progress.NONE);
        Oo7Operations ops = new Oo7Operations(store, Oo7Config.MEDIUM, 7, Parameters.DEFAULTS);
        assertEquals(100_000, ops.run(Oo7Operation.Q7));
        int[] connections = {0};
        store.forEachAtomicPart(p -> connections[0] += p.to().size());
        assertEquals(300_000, connections[0]);
        assertEquals(437_400, ops.run(Oo7Operation.T1));
        assertEquals(437_400, ops.run(Oo7Operation.T2B));
        assertEquals(437_400, ops.run(Oo7Operation.T3B));
        assertEquals(2_187, ops.run(Oo7Operation.T2A));
        assertEquals(2_187, ops.run(Oo7Operation.T3A));
        assertEquals(2_187, ops.run(Oo7Operation.T6));
        assertEquals(1_749_600, ops.run(Oo7Operation.T2C));
        assertEquals(1_749_600, ops.run(Oo7Operation.T3C));
        assertEquals(826_686, ops.run(Oo7Operation.T4));
        assertEquals(26_316, ops.run(Oo7Operation.T8));
        assertEquals(0, ops.run(Oo7Operation.T9));
        assertEquals(10, ops.run(Oo7Operation.Q1));
        assertEquals(100_000, ops.run(Oo7Operation.Q8));
        assertEquals(5, ops.run(Oo7Operation.SM1));
        assertEquals(437_400 + 5 * 200, ops.run(Oo7Operation.T1));
        assertEquals(5, ops.run(Oo7Operation.SM2));
        assertEquals(437_400, ops.run(Oo7Operation.T1));
    }
}
