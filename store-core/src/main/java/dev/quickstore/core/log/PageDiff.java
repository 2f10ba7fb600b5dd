package dev.quickstore.core.log;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Finds the changed byte ranges of a page by comparing it with its pre-image, merging neighbouring
 * ranges by QuickStore's rule (White and DeWitt 1994, section 3.6): two changed ranges are merged when
 * logging the unchanged gap between them costs less than the header of a separate range. In our log
 * format a page's ranges share one {@link LogRecord} header; each range costs {@link LogRecord#RANGE_HEADER}
 * bytes, and a gap byte costs one byte per image logged (one for redo-only records, two for records
 * carrying before and after images). So ranges are merged when {@code gap * imagesPerByte < RANGE_HEADER}.
 *
 * <p>Speed: the page is scanned eight bytes at a time ({@code a ^ b}); inside a word, the changed
 * bytes are found with bit tricks, so a densely updated page (every field changed) costs a few
 * nanoseconds per word, not one call per changed run. After {@value #SKIP_AFTER_EQUAL_WORDS} equal
 * words in a row the scanner jumps to the next difference with the vectorised
 * {@link MemorySegment#mismatch}, so sparsely updated pages cost little more than that call. Both
 * segments must be readable without faults (use the alias view and the pre-image, never the
 * protected application view).
 */
public final class PageDiff {
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long LOW7 = 0x7f7f7f7f7f7f7f7fL;
    private static final long HIGH = 0x8080808080808080L;

    /** Equal words scanned one by one before switching to {@link MemorySegment#mismatch}. */
    static final int SKIP_AFTER_EQUAL_WORDS = 4;

    public PageDiff() {}

    /** Largest gap (in bytes) that is merged for records carrying {@code imagesPerByte} images. */
    public static int mergeGap(int imagesPerByte) {
        // merge when gap * images < header, i.e. gap <= (header - 1) / images
        return (LogRecord.RANGE_HEADER - 1) / imagesPerByte;
    }

    /**
     * Computes the merged changed ranges between {@code before} and {@code after} (same length).
     *
     * <p>Postconditions: every range starts and ends on a changed byte; two consecutive ranges are
     * separated by more than {@code maxGap} equal bytes; copying the ranges of {@code after} over
     * {@code before} reproduces {@code after}.
     *
     * @param maxGap gaps of at most this many equal bytes are merged into the surrounding ranges
     * @param out receives [start0, end0, start1, end1, ...] (end exclusive); grown as needed
     * @return the ranges (possibly a new array) with count in {@link Ranges#count}
     */
    public static Ranges diff(MemorySegment before, MemorySegment after, int maxGap, Ranges out) {
        long n = before.byteSize();
        assert after.byteSize() == n;
        out.count = 0;
        // open range: [start, lastEnd) ends on a changed byte; start < 0 when no range is open
        long start = -1;
        long lastEnd = -1;
        long i = 0;
        int equalWords = 0;
        while (i + 8 <= n) {
            long x = before.get(LE, i) ^ after.get(LE, i);
            if (x == 0) {
                i += 8;
                if (++equalWords >= SKIP_AFTER_EQUAL_WORDS && i < n) {
                    long m = MemorySegment.mismatch(before, i, n, after, i, n);
                    if (m < 0) {
                        i = n;
                        break;
                    }
                    i += m & ~7L; // the word holding the next difference (i stays word-aligned)
                    equalWords = 0;
                }
                continue;
            }
            equalWords = 0;
            // high bit of each byte of nz is set iff that byte of x is non-zero (changed)
            long nz = (((x & LOW7) + LOW7) | x) & HIGH;
            long first = i + (Long.numberOfTrailingZeros(nz) >>> 3);
            if (start >= 0 && first - lastEnd <= maxGap) {
                // merge with the open range
            } else {
                if (start >= 0) {
                    out.add((int) start, (int) lastEnd);
                }
                start = first;
            }
            if (maxGap >= 6) {
                // gaps inside one word are at most 6 bytes: all of its changed bytes merge
                lastEnd = i + ((63 - Long.numberOfLeadingZeros(nz)) >>> 3) + 1;
            } else {
                lastEnd = first + 1;
                for (nz &= nz - 1; nz != 0; nz &= nz - 1) {
                    long pos = i + (Long.numberOfTrailingZeros(nz) >>> 3);
                    if (pos - lastEnd > maxGap) {
                        out.add((int) start, (int) lastEnd);
                        start = pos;
                    }
                    lastEnd = pos + 1;
                }
            }
            i += 8;
        }
        for (; i < n; i++) { // tail shorter than a word
            if (before.get(ValueLayout.JAVA_BYTE, i) != after.get(ValueLayout.JAVA_BYTE, i)) {
                if (start >= 0 && i - lastEnd > maxGap) {
                    out.add((int) start, (int) lastEnd);
                    start = -1;
                }
                if (start < 0) {
                    start = i;
                }
                lastEnd = i + 1;
            }
        }
        if (start >= 0) {
            out.add((int) start, (int) lastEnd);
        }
        return out;
    }

    /**
     * {@link #diff} restricted to the cards in {@code cardMask} (bit k = bytes [k * cardBytes, (k + 1) *
     * cardBytes)), for card marking (Hosking and Moss 1993, section 3: only dirty cards are compared with the
     * clean copy). Bytes outside the marked cards are assumed equal. Each run of consecutive marked cards is
     * diffed as one slice; ranges of neighbouring runs are merged by the same gap rule, so the postconditions of
     * {@link #diff} hold for the marked cards. {@code cardMask == -1} diffs the whole page.
     */
    public static Ranges diffCards(
            MemorySegment before, MemorySegment after, long cardMask, int cardBytes, int maxGap, Ranges out) {
        if (cardMask == -1L) {
            return diff(before, after, maxGap, out);
        }
        out.count = 0;
        Ranges run = new Ranges();
        long m = cardMask;
        while (m != 0) {
            int k = Long.numberOfTrailingZeros(m);
            int end = k;
            while (end < 64 && (m & (1L << end)) != 0) {
                end++;
            }
            m &= end == 64 ? 0 : -1L << end;
            long lo = (long) k * cardBytes;
            long hi = Math.min((long) end * cardBytes, before.byteSize());
            if (lo >= hi) {
                break;
            }
            diff(before.asSlice(lo, hi - lo), after.asSlice(lo, hi - lo), maxGap, run);
            for (int i = 0; i < run.count; i++) {
                int s = (int) lo + run.start(i);
                int e = (int) lo + run.end(i);
                if (out.count > 0 && s - out.end(out.count - 1) <= maxGap) {
                    out.bounds[2 * out.count - 1] = e;
                } else {
                    out.add(s, e);
                }
            }
        }
        return out;
    }

    /**
     * {@link #diff} restricted to {@code regions} (page offsets, ascending and disjoint), for the write-detection
     * schemes that record finer than cards (Hosking and Moss, section 3: object marking diffs the marked objects,
     * remembered sets the recorded words). Bytes outside the regions are assumed equal; ranges of neighbouring
     * regions are merged by the gap rule, so the postconditions of {@link #diff} hold for the regions.
     */
    public static Ranges diffRegions(
            MemorySegment before, MemorySegment after, Ranges regions, int maxGap, Ranges out) {
        out.count = 0;
        Ranges run = new Ranges();
        for (int r = 0; r < regions.count; r++) {
            long lo = regions.start(r);
            long hi = Math.min(regions.end(r), before.byteSize());
            if (lo >= hi) {
                continue;
            }
            diff(before.asSlice(lo, hi - lo), after.asSlice(lo, hi - lo), maxGap, run);
            for (int i = 0; i < run.count; i++) {
                int s = (int) lo + run.start(i);
                int e = (int) lo + run.end(i);
                if (out.count > 0 && s - out.end(out.count - 1) <= maxGap) {
                    out.bounds[2 * out.count - 1] = e;
                } else {
                    out.add(s, e);
                }
            }
        }
        return out;
    }

    /** Fewest changed bytes of a page (by the plain diff) for which {@link #withMoves} looks for moved bytes. */
    public static final int MOVE_SEARCH_MIN_BYTES = 512;

    /** Largest distance in bytes a move shifts its bytes by (an insertion or deletion inside a page). */
    static final int MAX_SHIFT = 1024;

    /** Shortest run of moved bytes a move is made of. */
    static final int MIN_MOVE = 64;

    /** Candidate distances verified per anchor and direction (bounds the search on repetitive bytes). */
    static final int MAX_CANDIDATES = 16;

    /**
     * Looks for bytes that moved inside the page: an insertion or deletion that shifts the rest of a page (a text
     * spliced in place, an entry inserted into a sorted B+tree node) changes every byte after it, which a plain
     * diff logs in full; a move logs 12 bytes for the shifted run. Called with {@code out} holding a diff of
     * {@code before} and {@code after} (any of the diffs of this class; only its ranges are read) whose bytes
     * are at least {@link #MOVE_SEARCH_MIN_BYTES}; otherwise returns false at once.
     *
     * <p>Search: the start of each of the (up to three) longest changed ranges of at least {@value #MIN_MOVE}
     * bytes is an anchor {@code a} (a page whose changes are many short ranges, such as updated fields, has none,
     * and costs one pass over its ranges); an
     * insertion by {@code k} shows as {@code after[a + k ...] == before[a ...]}, a deletion as {@code after[a ...]
     * == before[a + k ...]}, for {@code 1 <= k <=} {@value #MAX_SHIFT}; the eight bytes at the anchor are
     * compared at each distance and at most {@value #MAX_CANDIDATES} matching distances per direction are
     * measured with {@link MemorySegment#mismatch}. The longest run of at least {@value #MIN_MOVE} bytes, extended
     * backwards while bytes agree, becomes a move, applied to {@code work} (a copy of {@code before}), and the
     * page is diffed again against it. Up to {@link LogRecord#MAX_MOVES} moves, each kept only while the record
     * shrinks by more than the move costs.
     *
     * <p>Postconditions when true: applying {@code moves} in order to {@code before} (each as {@code memmove}),
     * then copying the ranges of {@code after} into it, reproduces {@code after}; moves never touch bytes below
     * {@code floor} (the page header, whose checksum and LSN the log's redo base need not share with memory);
     * {@code out} holds the ranges to log. When false, {@code out} and {@code moves.count} are as before (zero
     * moves).
     *
     * @param work scratch of {@code before}'s size (overwritten)
     * @param trial scratch ranges
     * @param floor first byte a move may read or write
     */
    public static boolean withMoves(
            MemorySegment before,
            MemorySegment after,
            MemorySegment work,
            int floor,
            int maxGap,
            Moves moves,
            Ranges out,
            Ranges trial) {
        moves.count = 0;
        if (out.bytes() < MOVE_SEARCH_MIN_BYTES) {
            return false;
        }
        long n = before.byteSize();
        assert after.byteSize() == n && work.byteSize() == n;
        if (!findMove(before, after, floor, out, moves)) {
            return false; // the common case (no long changed range, or nothing shifted): no copy made
        }
        MemorySegment.copy(before, 0, work, 0, n);
        long cost = (long) LogRecord.RANGE_HEADER * out.count + out.bytes();
        boolean found = false;
        while (true) {
            int i = moves.count - 1;
            MemorySegment.copy(work, moves.src(i), work, moves.dst(i), moves.length(i));
            diff(work, after, maxGap, trial);
            long c = (long) LogRecord.MOVE_BYTES * moves.count
                    + (long) LogRecord.RANGE_HEADER * trial.count
                    + trial.bytes();
            if (c + LogRecord.MOVE_BYTES >= cost) {
                moves.count--; // not worth its bytes; work is no longer used
                break;
            }
            cost = c;
            out.copyFrom(trial);
            found = true;
            if (moves.count == LogRecord.MAX_MOVES || !findMove(work, after, floor, out, moves)) {
                break;
            }
        }
        return found;
    }

    /** Appends the longest move found at the anchors of {@code changed} to {@code moves}; false if none. */
    private static boolean findMove(MemorySegment before, MemorySegment after, int floor, Ranges changed, Moves m) {
        long n = before.byteSize();
        int bestSrc = 0;
        int bestDst = 0;
        long bestLen = 0;
        int[] anchors = longest(changed, 3);
        for (int a : anchors) {
            if (a < floor || a + 8 > n) {
                continue;
            }
            long v = before.get(LE, a); // insertion: after[a + k ...] == before[a ...]
            long w = after.get(LE, a); // deletion: after[a ...] == before[a + k ...]
            int ins = 0;
            int del = 0;
            long last = Math.min(MAX_SHIFT, n - 8 - a);
            for (int k = 1; k <= last && (ins < MAX_CANDIDATES || del < MAX_CANDIDATES); k++) {
                if (ins < MAX_CANDIDATES && after.get(LE, a + k) == v) {
                    ins++;
                    long len = run(before, a, after, a + k, n - a - k);
                    if (len > bestLen) {
                        bestSrc = a;
                        bestDst = a + k;
                        bestLen = len;
                    }
                }
                if (del < MAX_CANDIDATES && before.get(LE, a + k) == w) {
                    del++;
                    long len = run(before, a + k, after, a, n - a - k);
                    if (len > bestLen) {
                        bestSrc = a + k;
                        bestDst = a;
                        bestLen = len;
                    }
                }
            }
        }
        if (bestLen < MIN_MOVE) {
            return false;
        }
        while (Math.min(bestSrc, bestDst) > floor
                && before.get(ValueLayout.JAVA_BYTE, bestSrc - 1) == after.get(ValueLayout.JAVA_BYTE, bestDst - 1)) {
            bestSrc--;
            bestDst--;
            bestLen++;
        }
        m.add(bestSrc, bestDst, (int) bestLen);
        return true;
    }

    /** Length of the run where {@code b[bi ...]} equals {@code a[ai ...]}, at most {@code max}. */
    private static long run(MemorySegment a, long ai, MemorySegment b, long bi, long max) {
        long mm = MemorySegment.mismatch(a, ai, ai + max, b, bi, bi + max);
        return mm < 0 ? max : mm;
    }

    /** Starts of the (up to) {@code k} longest ranges of {@code r} of at least {@link #MIN_MOVE} bytes. */
    private static int[] longest(Ranges r, int k) {
        int[] idx = new int[k];
        int[] len = new int[k];
        int found = 0;
        for (int i = 0; i < r.count; i++) {
            int l = r.end(i) - r.start(i);
            if (l < MIN_MOVE) {
                continue;
            }
            int j = Math.min(found, k - 1);
            if (found == k && l <= len[j]) {
                continue;
            }
            while (j > 0 && len[j - 1] < l) {
                idx[j] = idx[j - 1];
                len[j] = len[j - 1];
                j--;
            }
            idx[j] = r.start(i);
            len[j] = l;
            found = Math.min(found + 1, k);
        }
        return java.util.Arrays.copyOf(idx, found);
    }

    /** Applies {@code moves} to {@code page} in order, each as {@code memmove}. */
    public static void applyMoves(Moves moves, MemorySegment page) {
        for (int i = 0; i < moves.count; i++) {
            MemorySegment.copy(page, moves.src(i), page, moves.dst(i), moves.length(i));
        }
    }

    /** A reusable list of page-local moves: {@code length} bytes from {@code src} to {@code dst}, in order. */
    public static final class Moves {
        int[] m = new int[3 * LogRecord.MAX_MOVES];
        public int count;

        public void add(int src, int dst, int length) {
            if (3 * count + 3 > m.length) {
                m = java.util.Arrays.copyOf(m, m.length * 2);
            }
            m[3 * count] = src;
            m[3 * count + 1] = dst;
            m[3 * count + 2] = length;
            count++;
        }

        public int src(int i) {
            return m[3 * i];
        }

        public int dst(int i) {
            return m[3 * i + 1];
        }

        public int length(int i) {
            return m[3 * i + 2];
        }
    }

    /** A reusable list of [start, end) ranges. */
    public static final class Ranges {
        public int[] bounds = new int[64];
        public int count;

        public void add(int start, int end) {
            if (2 * count + 2 > bounds.length) {
                bounds = java.util.Arrays.copyOf(bounds, bounds.length * 2);
            }
            bounds[2 * count] = start;
            bounds[2 * count + 1] = end;
            count++;
        }

        public int start(int i) {
            return bounds[2 * i];
        }

        public int end(int i) {
            return bounds[2 * i + 1];
        }

        void copyFrom(Ranges o) {
            if (bounds.length < 2 * o.count) {
                bounds = new int[o.bounds.length];
            }
            System.arraycopy(o.bounds, 0, bounds, 0, 2 * o.count);
            count = o.count;
        }

        public long bytes() {
            long t = 0;
            for (int i = 0; i < count; i++) {
                t += end(i) - start(i);
            }
            return t;
        }
    }
}
