package dev.quickstore.core.btree;

import dev.quickstore.core.page.PageHeader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The nodes of one B+tree: its leaf and inner pages as sorted arrays of fixed-width entries, in the layout
 * {@link BPlusTree} documents (a leaf entry is {@code key (K) ++ value (8, big-endian)}, an inner item the same
 * entry as separator followed by its right child). This class is the search within one node - {@link #route} (the
 * child to follow) and {@link #lowerBound} (the first entry not below a given one), by an encoded entry compared as
 * an unsigned byte string or by a numeric key's order bits compared in place ({@link #routeNumeric}, {@link
 * #lowerBoundNumeric}: two loads per probe) - and the insertion and removal of an entry at a position.
 *
 * <p>Invariants: a node's entries ascend strictly (as unsigned byte strings); a leaf holds at most {@link
 * #leafCapacity} entries and an inner node at most {@link #innerCapacity} items; a removed entry's bytes are zeroed.
 */
final class Nodes {
    /** An entry's key or value as stored: big-endian, so that unsigned comparison is the key order. */
    static final ValueLayout.OfLong BE_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    static final ValueLayout.OfInt BE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** The key length K. */
    final int keyLength;
    /** A leaf entry's width, K + 8 (an inner item is one more child, 8 bytes, wide). */
    final int entry;

    final int leafCapacity;
    final int innerCapacity;

    Nodes(int pageSize, int keyLength) {
        this.keyLength = keyLength;
        this.entry = keyLength + 8;
        this.leafCapacity = (pageSize - BPlusTree.BODY) / entry;
        this.innerCapacity = (pageSize - BPlusTree.BODY) / (entry + 8);
    }

    static int count(MemorySegment p) {
        return Short.toUnsignedInt(p.get(PageHeader.SHORT, BPlusTree.COUNT));
    }

    static void setCount(MemorySegment p, int n) {
        p.set(PageHeader.SHORT, BPlusTree.COUNT, (short) n);
    }

    /** Child {@code i} of inner node {@code p} (child 0 is the link, child i+1 follows separator i). */
    long child(MemorySegment p, int i) {
        return i == 0
                ? p.get(PageHeader.LONG, BPlusTree.LINK)
                : p.get(PageHeader.LONG, BPlusTree.BODY + (long) (i - 1) * (entry + 8) + entry);
    }

    /** Compares leaf entry {@code i} of {@code p} with the encoded entry {@code e}. */
    int cmpLeaf(MemorySegment p, int i, byte[] e) {
        return compare(p, BPlusTree.BODY + (long) i * entry, MemorySegment.ofArray(e));
    }

    /** Compares the entry at {@code off} with {@code e} (a heap segment wrapped once per search, not per probe). */
    int compare(MemorySegment p, long off, MemorySegment e) {
        long m = MemorySegment.mismatch(p, off, off + entry, e, 0, entry);
        if (m < 0) {
            return 0;
        }
        return Integer.compare(
                Byte.toUnsignedInt(p.get(ValueLayout.JAVA_BYTE, off + m)),
                Byte.toUnsignedInt(e.get(ValueLayout.JAVA_BYTE, m)));
    }

    /** Index of the child to follow for entry e: number of separators &lt;= e. */
    int route(MemorySegment p, byte[] e) {
        return route(p, MemorySegment.ofArray(e));
    }

    /**
     * {@link #route} for an entry already wrapped as a segment: a descent wraps its entry once, not once per level
     * (each wrap of a heap array is a segment and a session object: a third of a STRING lookup's allocation).
     */
    int route(MemorySegment p, MemorySegment es) {
        int lo = 0;
        int hi = count(p);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(p, BPlusTree.BODY + (long) mid * (entry + 8), es) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First position in a leaf whose entry is &gt;= e. */
    int lowerBound(MemorySegment p, byte[] e) {
        return lowerBound(p, MemorySegment.ofArray(e));
    }

    /** {@link #lowerBound} for an entry already wrapped as a segment (see {@link #route(MemorySegment, MemorySegment)}). */
    int lowerBound(MemorySegment p, MemorySegment es) {
        int lo = 0;
        int hi = count(p);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compare(p, BPlusTree.BODY + (long) mid * entry, es) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Inserts {@code bytes} (one entry of {@code width}) at position {@code pos} of the {@code n} entries. */
    static void insertAt(MemorySegment p, int body, int width, int pos, int n, byte[] bytes) {
        long at = body + (long) pos * width;
        MemorySegment.copy(p, at, p, at + width, (long) (n - pos) * width);
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, p, at, bytes.length);
    }

    /** Removes leaf entry {@code pos}, zeroing the freed last slot. */
    void removeAt(MemorySegment p, int pos) {
        int n = count(p);
        long at = BPlusTree.BODY + (long) pos * entry;
        MemorySegment.copy(p, at + entry, p, at, (long) (n - pos - 1) * entry);
        p.asSlice(BPlusTree.BODY + (long) (n - 1) * entry, entry).fill((byte) 0);
        setCount(p, n - 1);
    }

    // ---- numeric keys (INT, LONG): the key's order bits compared in place

    /** The order bits of the key of the entry at {@code off}. */
    long bitsAt(MemorySegment p, long off) {
        return keyLength == 8 ? p.get(BE_LONG, off) : Integer.toUnsignedLong(p.get(BE_INT, off));
    }

    /** Compares the entry at {@code off} with (key bits, value), as {@link #compare} does with the encoded entry. */
    int compareNumeric(MemorySegment p, long off, long bits, long value) {
        int c = Long.compareUnsigned(bitsAt(p, off), bits);
        return c != 0 ? c : Long.compareUnsigned(p.get(BE_LONG, off + keyLength), value);
    }

    /** {@link #route} for the entry (key bits, value). */
    int routeNumeric(MemorySegment p, long bits, long value) {
        return partitionNumeric(p, entry + 8, bits, value, true, 0, 0, 0);
    }

    /**
     * {@link #routeNumeric} in a node whose keys lie in {@code [low, high]} (as far as {@code known} says: bit 0 for
     * {@code low}, bit 1 for {@code high}; the parent's separators around the child followed), which saves the
     * search the loads of the node's first and last keys.
     */
    int routeNumeric(MemorySegment p, long bits, long value, long low, long high, int known) {
        return partitionNumeric(p, entry + 8, bits, value, true, low, high, known);
    }

    /** {@link #lowerBound} for the entry (key bits, value). */
    int lowerBoundNumeric(MemorySegment p, long bits, long value) {
        return partitionNumeric(p, entry, bits, value, false, 0, 0, 0);
    }

    /** {@link #lowerBoundNumeric} in a leaf whose keys lie in {@code [low, high]}, as {@link #routeNumeric} takes. */
    int lowerBoundNumeric(MemorySegment p, long bits, long value, long low, long high, int known) {
        return partitionNumeric(p, entry, bits, value, false, low, high, known);
    }

    /** The order bits of separator {@code i} of inner node {@code p}. */
    long separatorBits(MemorySegment p, int i) {
        return bitsAt(p, BPlusTree.BODY + (long) i * (entry + 8));
    }

    /** Bits of {@code known}: the lower and the upper bound of a node's keys are known. */
    static final int LOW_KNOWN = 1, HIGH_KNOWN = 2;

    /** Nodes with fewer items are searched by bisection alone. */
    static final int INTERPOLATE_MIN = 16;

    /**
     * The number of items of {@code p} (each {@code width} bytes) before (key bits, value): those comparing below it,
     * or also equal to it if {@code orEqual}. Keys that are spread evenly over a node (ids, dates, counters: the
     * numeric keys an index usually holds) put the answer where the key lies between the node's first and last, so
     * the search starts there and gallops outwards until the answer is bracketed, then bisects the bracket: a
     * probe or two near the guess, in one or two cache lines, where bisection from the middle takes a cache line per
     * probe down to the last few. Keys bunched unevenly cost at most about twice bisection's probes. The bounds the
     * guess interpolates between are the node's first and last keys, or those {@code known} from its parent (any
     * guess gives the right answer; a good one gives it in fewer probes).
     */
    private int partitionNumeric(
            MemorySegment p, long width, long bits, long value, boolean orEqual, long low, long high, int known) {
        int n = count(p);
        int lo = 0;
        int hi = n; // the answer lies in [lo, hi]
        if (n >= INTERPOLATE_MIN) {
            long first = (known & LOW_KNOWN) != 0 ? low : bitsAt(p, BPlusTree.BODY);
            long last = (known & HIGH_KNOWN) != 0 ? high : bitsAt(p, BPlusTree.BODY + (n - 1) * width);
            if (Long.compareUnsigned(first, bits) < 0 && Long.compareUnsigned(bits, last) < 0) {
                int g = (int) (unsigned(bits - first) / unsigned(last - first) * (n - 1));
                g = Math.max(1, Math.min(n - 2, g));
                if (before(p, g, width, bits, value, orEqual)) {
                    lo = g + 1;
                    int step = 1;
                    int j = g + 1;
                    while (j < n && before(p, j, width, bits, value, orEqual)) {
                        lo = j + 1;
                        step <<= 1;
                        j = g + step;
                    }
                    hi = Math.min(j, n);
                } else {
                    hi = g;
                    int step = 1;
                    int j = g - 1;
                    while (j >= 0 && !before(p, j, width, bits, value, orEqual)) {
                        hi = j;
                        step <<= 1;
                        j = g - step;
                    }
                    lo = Math.max(j + 1, 0);
                }
            }
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (before(p, mid, width, bits, value, orEqual)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private boolean before(MemorySegment p, int i, long width, long bits, long value, boolean orEqual) {
        int c = compareNumeric(p, BPlusTree.BODY + i * width, bits, value);
        return orEqual ? c <= 0 : c < 0;
    }

    /** {@code x} read as an unsigned 64-bit number (approximately: only a guess's position depends on it). */
    private static double unsigned(long x) {
        return x >= 0 ? x : (x >>> 1) * 2.0;
    }
}
