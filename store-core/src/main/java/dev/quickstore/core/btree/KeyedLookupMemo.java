package dev.quickstore.core.btree;

import java.util.HashMap;

/**
 * The answers of one B+tree's {@link BPlusTree#lookup(Object)} for keys of the immutable key classes ({@link String},
 * {@link Integer}, {@link Long}), kept under the buffer pool's {@link dev.quickstore.core.buffer.PoolStamps#entryStamp}
 * as {@link LookupMemo} keeps the numeric point lookups (see there: an adaptive hash index). A key is remembered by
 * the object the caller passed: equal keys of these classes encode equally, so they have the same entries (a key of
 * another class, such as a caller's mutable object, is never remembered). OO7 Q4 looks documents up by title.
 *
 * <p>Invariants: the map holds answers of the current {@code stamp} only (a new stamp clears it), at most {@value
 * #MAX_KEYS} keys (a full memo takes no new key), and each answer is the array of stored values in stored order,
 * never handed out itself ({@link #find} returns a copy: callers translate and sort theirs in place). Used under the
 * store's latch, like the tree.
 */
final class KeyedLookupMemo {
    static final int MAX_KEYS = 4096;

    private HashMap<Object, long[]> answers; // made by the first put (see LookupMemo)
    private long stamp;

    /** Whether {@code key} may be remembered: an immutable key class whose equal instances encode equally. */
    static boolean remembers(Object key) {
        return key instanceof String || key instanceof Integer || key instanceof Long;
    }

    /** A copy of the values remembered for {@code key} under {@code current}, or null. */
    long[] find(Object key, long current) {
        if (current != stamp) {
            return null; // also before the first put: stamp 0 is never current
        }
        long[] v = answers.get(key);
        return v == null ? null : v.clone();
    }

    /** Remembers {@code values} (copied) as {@code key}'s under {@code current}, a stamp not lower than before. */
    void put(Object key, long[] values, long current) {
        assert current > 0 && current >= stamp && remembers(key) : "stamp " + current + ", key " + key;
        if (current != stamp) {
            // a clear costs the table's length, which never shrinks: a large table is dropped instead, so a change
            // between every two lookups costs little
            if (answers == null || answers.size() > 64) {
                answers = new HashMap<>();
            } else {
                answers.clear();
            }
            stamp = current;
        }
        if (answers.size() < MAX_KEYS) {
            answers.put(key, values.clone());
        }
    }

    /** Keys remembered under {@code current} (tests). */
    int size(long current) {
        return current == stamp ? answers.size() : 0;
    }
}
