package dev.quickstore.api.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * {@link FirstNodeSizing} driven as {@link RefArray#append} drives it: {@code firstCapacity} when a list gets its
 * first node, {@code exceeded(n)} when an append takes a list past a power of two {@code n >= 4}.
 */
class FirstNodeSizingTest {
    private static final int PER = 512;

    /** Builds one list of {@code n} elements (n >= 1) as RefArray does; returns its first node's capacity. */
    private static int list(FirstNodeSizing s, Object key, int n) {
        int first = s.firstCapacity(key, PER);
        for (int size = 1; size < n; size++) { // append number size+1, the list held `size` before it
            if ((size & (size - 1)) == 0 && size >= FirstNodeSizing.MIN_FIRST) {
                s.exceeded(key, size);
            }
        }
        return first;
    }

    @Test
    void nothingLearnedStartsAtFour() {
        var s = new FirstNodeSizing();
        assertEquals(4, s.firstCapacity(new Object(), PER));
        assertEquals(4, s.firstCapacity(null, PER));
        assertEquals(2, s.firstCapacity(null, 2), "a fan-out below 4 bounds it");
    }

    @Test
    void listsOfTwentyStartAtThirtyTwoAfterTheFirst() {
        var s = new FirstNodeSizing();
        Object key = new Object();
        assertEquals(4, list(s, key, 20));
        for (int i = 0; i < 1_000; i++) { // across several halvings of the counts
            assertEquals(32, list(s, key, 20), "list " + i);
        }
        assertEquals(4, s.current(new Object()), "keys are separate");
        assertEquals(32, s.current(key));
    }

    @Test
    void exactlyAPowerOfTwoNeverDoubles() {
        var s = new FirstNodeSizing();
        Object key = new Object();
        list(s, key, 16);
        for (int i = 0; i < 300; i++) {
            assertEquals(16, list(s, key, 16), "list " + i);
        }
    }

    @Test
    void aMinorityOfLongListsDoesNotEnlargeTheOthers() {
        var s = new FirstNodeSizing();
        Object key = new Object();
        for (int i = 0; i < 1_000; i++) {
            list(s, key, i % 10 < 6 ? 3 : 20); // 40% of the lists need 32
        }
        assertEquals(4, s.current(key));
        for (int i = 0; i < 1_000; i++) {
            list(s, key, i % 10 < 4 ? 3 : 20); // 60% need 32: the median list does
        }
        assertEquals(32, s.current(key));
    }

    @Test
    void followsTheRecentListsAndIsBounded() {
        var s = new FirstNodeSizing();
        Object key = new Object();
        for (int i = 0; i < 50; i++) {
            list(s, key, 10_000);
        }
        assertEquals(FirstNodeSizing.MAX_FIRST, s.current(key));
        assertEquals(64, s.firstCapacity(key, 64), "never above the fan-out");
        for (int i = 0; i < 2 * FirstNodeSizing.WINDOW; i++) {
            list(s, key, 2);
        }
        assertEquals(4, s.current(key), "short lists since: back to 4");
    }

    @Test
    void growthOfAListStartedElsewhereIsIgnored() {
        var s = new FirstNodeSizing();
        Object key = new Object();
        s.exceeded(key, 4); // a list from before this store was opened
        s.exceeded(key, 8);
        assertEquals(4, s.current(key));
        s.exceeded(null, 4);
        s.exceeded(key, 3); // not a power of two: ignored
    }
}
