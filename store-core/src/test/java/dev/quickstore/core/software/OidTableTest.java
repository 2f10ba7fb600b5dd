package dev.quickstore.core.software;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link OidTable} against a {@link HashMap} model under seeded random puts, removes and lookups. */
@ExtendWith(SeedExtension.class)
@FixedSeed(0L)
class OidTableTest {
    private static final long MISSING = -1L;

    /**
     * keySpace small (many hits, overwrites and removals on long probe runs) to large (mostly misses and
     * growth); every operation's answer and the size agree with the model, and at the end every model key
     * is found and a sweep of the key space agrees.
     */
    @ParameterizedTest
    @ValueSource(ints = {8, 64, 1000, 100_000})
    void randomOperationsAgreeWithHashMap(int keySpace, Seed seed) {
        Random rnd = new Random(seed.value() ^ keySpace);
        OidTable t = new OidTable(4, MISSING);
        Map<Long, Long> model = new HashMap<>();
        List<Long> keys = new ArrayList<>();
        for (int i = 0; i < keySpace; i++) {
            keys.add(Oid.of(1 + rnd.nextInt(1 << 20), rnd.nextInt(1 << 16), rnd.nextInt()));
        }
        for (int op = 0; op < 200_000; op++) {
            long k = keys.get(rnd.nextInt(keySpace));
            switch (rnd.nextInt(4)) {
                case 0, 1 -> {
                    long v = rnd.nextLong() & Long.MAX_VALUE;
                    Long old = model.put(k, v);
                    assertEquals(old == null ? MISSING : old, t.put(k, v), "put of " + Long.toHexString(k));
                }
                case 2 -> {
                    Long old = model.remove(k);
                    assertEquals(old == null ? MISSING : old, t.remove(k), "remove of " + Long.toHexString(k));
                }
                default -> {
                    Long v = model.get(k);
                    assertEquals(v == null ? MISSING : v, t.get(k), "get of " + Long.toHexString(k));
                    assertEquals(v != null, t.containsKey(k));
                }
            }
            assertEquals(model.size(), t.size());
        }
        for (long k : keys) {
            Long v = model.get(k);
            assertEquals(v == null ? MISSING : v, t.get(k));
        }
        assertTrue(t.capacity() >= 2 * t.size(), "load factor at most one half");
    }

    /** Keys that share a home slot wrap around the table's end; removals in the middle keep the rest found. */
    @Test
    void backwardShiftKeepsCollidingKeysReachable() {
        OidTable t = new OidTable(0, MISSING); // 16 slots, at most 8 entries before growing
        int cap = t.capacity();
        List<Long> sameHome = new ArrayList<>();
        for (long k = 1; sameHome.size() < 6; k++) {
            if ((OidTable.hash(k) & (cap - 1)) == cap - 2) { // home near the end: runs wrap to slot 0
                sameHome.add(k);
            }
        }
        for (int i = 0; i < sameHome.size(); i++) {
            t.put(sameHome.get(i), i);
        }
        assertEquals(cap, t.capacity(), "no growth in this test");
        t.remove(sameHome.get(1));
        t.remove(sameHome.get(3));
        for (int i = 0; i < sameHome.size(); i++) {
            assertEquals(i == 1 || i == 3 ? MISSING : i, t.get(sameHome.get(i)), "key " + i);
        }
        assertEquals(4, t.size());
    }

    @Test
    void keyZeroIsRefused() {
        OidTable t = new OidTable(1, MISSING);
        assertThrows(IllegalArgumentException.class, () -> t.put(0, 1));
        assertEquals(MISSING, t.get(0));
        assertEquals(MISSING, t.remove(0));
    }
}
