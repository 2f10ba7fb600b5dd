package dev.quickstore.api.internal;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The capacity of the first node of a new {@link RefArray}, learned from the lists already built with the same
 * element type: a list that will hold 20 elements starts with a 32-entry root leaf instead of growing 4 &rarr; 8
 * &rarr; 16 &rarr; 32, which allocated three nodes it then freed (the OO7 build's composite parts: 20 atomic parts
 * each; docs/results.md, issue #20, where the doublings were 27 of the 96 samples of {@code RefArray.node} and
 * their freed leaves what fragmented the pages). It is a placement decision like Cricket's near-hint
 * ({@code DBmalloc(size, nearHint)}, Shekita and Zwilling 1990, section 5.1.4): it changes where and how big a
 * node is, never what the collection holds, and nothing of it is stored (the capacity each node was given is in
 * the node's own header, RefArray format 1, unchanged).
 *
 * <p>Per key (the element type's descriptor: lists, sets and bags of one element type share it) two counts:
 * {@code started}, the first nodes created, and {@code exceeded[k]}, the lists that grew past {@code 2^k}
 * elements (counted when the {@code 2^k + 1}-th element is appended, whatever the node's capacity, so the counts
 * do not depend on the capacities chosen). A new list starts with the largest capacity {@code c = 2^(k+1)} such
 * that at least half of the recent lists exceeded {@code 2^k} elements (the list being filled counts as started
 * and not yet grown): the median list never doubles, and at most half of the lists get a node larger than they
 * need (by at most the median's size). The counts are halved
 * when {@code started} reaches {@link #WINDOW}, so the choice follows the recent lists. The capacity is bounded by
 * {@link #MAX_FIRST} entries and by the fan-out. One instance per {@code PersistentStore} (its transactions run one
 * at a time); it is not thread-safe.
 */
public final class FirstNodeSizing {
    /** The first capacity when nothing is known (and the least): RefArray's historical 4. */
    static final int MIN_FIRST = 4;
    /** The largest learned first capacity (1,032-byte nodes): larger lists double from there. */
    static final int MAX_FIRST = 128;
    /** Lists started per key after which the counts are halved. */
    static final int WINDOW = 256;

    private static final int LOG_MIN = 2;
    private static final int LOG_MAX = 7;

    private static final class Counts {
        int started;
        final int[] exceeded = new int[LOG_MAX]; // exceeded[k]: lists that grew past 2^k elements, k < LOG_MAX
        int first = MIN_FIRST;

        void recompute() {
            int cap = MIN_FIRST;
            for (int k = LOG_MIN; k < LOG_MAX; k++) {
                if (2L * exceeded[k] >= started) {
                    cap = 1 << (k + 1);
                }
            }
            first = cap;
        }

        void halve() {
            started >>= 1;
            for (int k = 0; k < exceeded.length; k++) {
                exceeded[k] >>= 1;
            }
        }
    }

    private final Map<Object, Counts> counts = new IdentityHashMap<>();

    /** Nothing learned yet: every key starts at {@link #MIN_FIRST}. */
    public FirstNodeSizing() {}

    /** The capacity for a new list's first node ({@code per}: the fan-out); counts the list as started. */
    public int firstCapacity(Object key, int per) {
        if (key == null) {
            return Math.min(MIN_FIRST, per);
        }
        Counts c = counts.computeIfAbsent(key, k -> new Counts());
        int first = c.first; // from the lists before this one (this one has not grown yet)
        if (++c.started >= WINDOW) {
            c.halve();
        }
        c.recompute();
        return Math.min(first, per);
    }

    /**
     * Called with the size {@code n} a list had before an append when {@code n} is a power of two of at least
     * {@link #MIN_FIRST}: the list now exceeds {@code n} elements.
     */
    public void exceeded(Object key, int n) {
        if (key == null) {
            return;
        }
        int k = Integer.numberOfTrailingZeros(n);
        if (k < LOG_MIN || k >= LOG_MAX) {
            return;
        }
        Counts c = counts.get(key);
        if (c == null) {
            return; // a list of this element type started before this store was opened: nothing to compare with
        }
        c.exceeded[k]++;
        c.recompute();
    }

    /** The first capacity a new list of {@code key} would get now (without counting it; for tests and docs). */
    public int current(Object key) {
        Counts c = key == null ? null : counts.get(key);
        return c == null ? MIN_FIRST : c.first;
    }
}
