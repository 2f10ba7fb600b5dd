package dev.quickstore.core.btree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link KeyedLookupMemo}: copies in and out, a new stamp, the key classes it remembers, its cap. */
class KeyedLookupMemoTest {
    @Test
    void answersAreCopiesUnderTheirStamp() {
        KeyedLookupMemo m = new KeyedLookupMemo();
        long[] v = {1, 2};
        m.put("k", v, 4);
        v[0] = 9;
        assertArrayEquals(new long[] {1, 2}, m.find("k", 4), "put copies");
        m.find("k", 4)[1] = 9;
        assertArrayEquals(new long[] {1, 2}, m.find("k", 4), "find copies");
        assertNull(m.find("k", 5), "another stamp");
        m.put("j", new long[0], 5);
        assertEquals(1, m.size(5), "the put under a new stamp dropped the old answers");
        assertNull(m.find("k", 5));
        assertArrayEquals(new long[0], m.find("j", 5));
    }

    @Test
    void remembersOnlyImmutableKeyClassesAndAtMostItsCap() {
        assertTrue(KeyedLookupMemo.remembers("s"));
        assertTrue(KeyedLookupMemo.remembers(7));
        assertTrue(KeyedLookupMemo.remembers(7L));
        assertFalse(KeyedLookupMemo.remembers(new byte[] {1}), "a mutable key");
        assertFalse(KeyedLookupMemo.remembers(new StringBuilder("s")), "a mutable key");
        KeyedLookupMemo m = new KeyedLookupMemo();
        for (int i = 0; i < KeyedLookupMemo.MAX_KEYS + 100; i++) {
            m.put("key " + i, new long[] {i}, 1);
        }
        assertEquals(KeyedLookupMemo.MAX_KEYS, m.size(1));
        assertNull(m.find("key " + (KeyedLookupMemo.MAX_KEYS + 50), 1));
        assertArrayEquals(new long[] {3}, m.find("key 3", 1));
    }
}
