package dev.quickstore.core.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link LookupMemo}'s table against a map: hits, absent keys, growth, a new stamp emptying it without a clear, and
 * the cap on its size.
 */
class LookupMemoTest {
    @Test
    void remembersPresentAndAbsentKeysAcrossGrowth() {
        LookupMemo m = new LookupMemo();
        Random rnd = new Random(42);
        Map<Long, Long> model = new HashMap<>();
        long stamp = 5;
        for (int i = 0; i < 3_000; i++) {
            long bits = rnd.nextLong();
            if (model.containsKey(bits)) {
                continue;
            }
            boolean present = rnd.nextInt(3) > 0;
            long value = present ? rnd.nextLong() : 0;
            assertEquals(-1, m.find(bits, stamp), "key " + bits + " before it was put");
            m.put(bits, present, value, stamp);
            model.put(bits, present ? value : null);
        }
        assertEquals(model.size(), m.size(stamp));
        for (Map.Entry<Long, Long> e : model.entrySet()) {
            int slot = m.find(e.getKey(), stamp);
            assertTrue(slot >= 0, "key " + e.getKey() + " remembered");
            if (e.getValue() == null) {
                assertTrue(m.absentHit(), "key " + e.getKey() + " remembered as absent");
            } else {
                assertFalse(m.absentHit(), "key " + e.getKey() + " remembered as present");
                assertEquals(e.getValue(), m.value(slot), "value of key " + e.getKey());
            }
        }
    }

    @Test
    void aFreshMemoAnswersNothing() {
        assertEquals(-1, new LookupMemo().find(0, 1), "no key before the first put");
        assertEquals(0, new LookupMemo().size(1));
        assertEquals(null, new KeyedLookupMemo().find("k", 1), "no key before the first put");
    }

    @Test
    void aNewStampEmptiesTheMemo() {
        LookupMemo m = new LookupMemo();
        for (long k = 0; k < 100; k++) {
            m.put(k, true, 10 * k, 1);
        }
        assertTrue(m.find(7, 1) >= 0);
        assertEquals(-1, m.find(7, 2), "a key put under stamp 1 is not an answer under stamp 2");
        m.put(7, true, 71, 2);
        assertEquals(1, m.size(2), "the put under stamp 2 dropped the keys of stamp 1");
        assertEquals(71, m.value(m.find(7, 2)));
        for (long k = 0; k < 100; k++) {
            if (k != 7) {
                assertEquals(-1, m.find(k, 2), "key " + k + " of stamp 1");
            }
        }
    }

    @Test
    void aFullMemoTakesNoNewKeyAndKeepsItsOwn() {
        LookupMemo m = new LookupMemo();
        int max = LookupMemo.MAX_SLOTS / 2;
        for (long k = 0; k < max + 1_000; k++) {
            m.put(k * 31, true, k, 3);
        }
        assertEquals(max, m.size(3), "at most half the largest table");
        for (long k = 0; k < max; k++) {
            int slot = m.find(k * 31, 3);
            assertTrue(slot >= 0, "key " + k * 31);
            assertEquals(k, m.value(slot));
        }
        assertEquals(-1, m.find((long) (max + 10) * 31, 3), "a key past the cap was not taken");
    }
}
