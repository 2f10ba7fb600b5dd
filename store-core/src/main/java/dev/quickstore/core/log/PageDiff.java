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
 *
 * <p>Beyond the paper: {@link #withMoves} finds bytes that moved inside the page (an insertion or deletion shifts
 * everything after it), which REDO records of version 3 log as page-local moves - physiological logging in the sense
 * of ARIES (Mohan et al. 1992: physical to a page, logical within it), limited to {@code memmove}.
 */
public final class PageDiff {
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle WINDOW_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
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
        return diff(before, after, maxGap, out, Long.MAX_VALUE);
    }

    /**
     * {@link #diff}, stopped early when one range reaches {@code stopAt} bytes: {@code out} then holds the ranges up
     * to and including that one (cut at {@code stopAt} bytes or a little more) and {@link Ranges#partial} is set;
     * {@link #withMoves} takes such a diff (a page whose bytes shifted differs from the shift on, so diffing it to
     * the end is wasted) and completes it. Only for {@code maxGap >= 6} (redo-only records); with a smaller gap the
     * diff runs to the end.
     */
    public static Ranges diff(MemorySegment before, MemorySegment after, int maxGap, Ranges out, long stopAt) {
        long n = before.byteSize();
        assert after.byteSize() == n;
        out.count = 0;
        out.partial = false;
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
                if (lastEnd - start >= stopAt) {
                    out.add((int) start, (int) lastEnd);
                    out.partial = true;
                    return out;
                }
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
        out.partial = false;
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
        out.partial = false;
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

    /** Distances searched first (the rest only when none of these gives a move). */
    static final int NEAR_SHIFT = 128;

    /** Shortest run of moved bytes a move is made of. */
    static final int MIN_MOVE = 256;

    /** Shortest changed range the search starts from (field writes rarely make one, a shift always does). */
    static final int ANCHOR_RANGE = 256;

    /** Candidate distances verified per anchor and direction (bounds the search on repetitive bytes). */
    static final int MAX_CANDIDATES = 8;

    /**
     * Looks for bytes that moved inside the page: an insertion or deletion that shifts the rest of a page (a text
     * spliced in place, an entry inserted into a sorted B+tree node) changes every byte after it, which a plain
     * diff logs in full; a move logs 12 bytes for the shifted run. Called with {@code out} holding a diff of
     * {@code before} and {@code after} (any of the diffs of this class; only its ranges are read) that is
     * {@linkplain Ranges#partial partial} or has at least {@link #MOVE_SEARCH_MIN_BYTES} bytes; otherwise returns
     * false at once.
     *
     * <p>Search: the start and the middle of the longest changed range, if it has at least {@value #ANCHOR_RANGE}
     * bytes, are anchors (a page whose changes are short ranges, such as updated fields, has none, and
     * costs one pass over its ranges; the middle finds a shift that starts inside a range merged with a change just
     * before it). From an anchor {@code a}, moved past words of one repeated byte (free space matches at every
     * distance), an insertion by {@code k} shows as {@code after[a + k ...] == before[a ...]} and a deletion as
     * {@code after[a ...] == before[a + k ...]}, for {@code 1 <= k <=} {@value #NEAR_SHIFT} first and up to {@value
     * #MAX_SHIFT} when those give no move: the eight bytes at the anchor are compared at each distance, at most
     * {@value #MAX_CANDIDATES} matching distances per direction are measured with {@link MemorySegment#mismatch}
     * (stopping at one that runs to the page's end), and the longest is extended backwards while bytes agree. The
     * longest run of at least {@value #MIN_MOVE} bytes becomes a move, applied to {@code work} (a copy of {@code
     * before}); the moved run equals {@code after} there, so the ranges
     * lose those bytes (a diff stopped early is completed against {@code work} instead), and the search starts again
     * from the longest range left while at least {@value #MOVE_SEARCH_MIN_BYTES} changed bytes are left. Up to
     * {@link LogRecord#MAX_MOVES} moves, each kept only while the record shrinks by more than the move costs.
     *
     * <p>Postconditions when true: applying {@code moves} in order to {@code before} (each as {@code memmove}),
     * then copying the ranges of {@code after} into it, reproduces {@code after}; moves never touch bytes below
     * {@code floor} (the page header, whose checksum and LSN the log's redo base need not share with memory);
     * {@code out} holds the ranges to log. When false, {@code moves.count} is zero and {@code out} is as before, or,
     * if it was {@linkplain Ranges#partial partial}, the whole diff of {@code before} and {@code after}.
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
        if (!out.partial && out.bytes() < MOVE_SEARCH_MIN_BYTES) {
            return false;
        }
        long n = before.byteSize();
        assert after.byteSize() == n && work.byteSize() == n;
        if (!findMove(before, after, floor, out, moves)) {
            if (out.partial) {
                complete(before, after, maxGap, out, moves.tail()); // nothing shifted: the whole diff after all
            }
            return false; // the common case (no long changed range, or nothing shifted): no copy made
        }
        MemorySegment.copy(before, 0, work, 0, n);
        long cost = (long) LogRecord.RANGE_HEADER * out.count + out.bytes();
        boolean found = false;
        while (true) {
            int i = moves.count - 1;
            int lo = moves.dst(i);
            int hi = lo + moves.length(i);
            MemorySegment.copy(work, moves.src(i), work, lo, hi - lo);
            assert MemorySegment.mismatch(work, lo, hi, after, lo, hi) < 0 : "a move's run equals after's bytes";
            if (out.partial) {
                diff(work, after, maxGap, trial); // the diff was stopped early: what lies beyond is not known yet
            } else {
                clip(out, lo, hi, trial); // the moved run equals after's bytes: no difference left in [lo, hi)
            }
            long c = (long) LogRecord.MOVE_BYTES * moves.count
                    + (long) LogRecord.RANGE_HEADER * trial.count
                    + trial.bytes();
            if (c + LogRecord.MOVE_BYTES >= cost && out.partial) {
                complete(before, after, maxGap, out, moves.tail()); // the cost of the plain diff was not known yet
                cost = (long) LogRecord.RANGE_HEADER * out.count + out.bytes();
            }
            if (c + LogRecord.MOVE_BYTES >= cost) {
                moves.count--; // not worth its bytes; work is no longer used
                break;
            }
            cost = c;
            out.copyFrom(trial);
            found = true;
            if (moves.count == LogRecord.MAX_MOVES
                    || out.bytes() < MOVE_SEARCH_MIN_BYTES // what is left is not worth a search
                    || !findMove(work, after, floor, out, moves)) {
                break;
            }
        }
        return found;
    }

    /**
     * Completes a {@linkplain Ranges#partial partial} diff: its last range is diffed again from its start to the
     * page's end (the ranges before it stay; they end more than {@code maxGap} bytes before it). {@code scratch} is
     * overwritten.
     */
    private static void complete(MemorySegment before, MemorySegment after, int maxGap, Ranges out, Ranges scratch) {
        assert out.partial && out.count > 0;
        int from = out.start(out.count - 1);
        long n = before.byteSize();
        diff(before.asSlice(from, n - from), after.asSlice(from, n - from), maxGap, scratch);
        out.count--;
        for (int i = 0; i < scratch.count; i++) {
            out.add(from + scratch.start(i), from + scratch.end(i));
        }
        out.partial = false;
    }

    /** Appends the longest move found at the anchors of {@code changed} to {@code moves}; false if none. */
    private static boolean findMove(MemorySegment before, MemorySegment after, int floor, Ranges changed, Moves m) {
        long n = before.byteSize();
        long[] best = new long[3]; // src, dst, length of the longest run found, extended backwards
        byte[] window = m.window();
        int[] anchors = anchors(changed);
        // near distances first (a text's few characters, a B+tree entry), all of them only when those found nothing
        for (int reach = NEAR_SHIFT; best[2] < MIN_MOVE && reach <= MAX_SHIFT; reach *= MAX_SHIFT / NEAR_SHIFT) {
            for (int anchor : anchors) {
                for (int dir = 0; dir < 2; dir++) {
                    boolean insertion =
                            dir == 0; // after[a + k ...] == before[a ...]; deletion: after[a ...] == before[a + k ...]
                    MemorySegment fixed = insertion ? before : after;
                    MemorySegment sliding = insertion ? after : before;
                    int a = informative(fixed, anchor, n);
                    if (a < floor || a + 8 > n) {
                        continue;
                    }
                    long v = fixed.get(LE, a);
                    if (v == (v & 0xff) * 0x0101010101010101L) {
                        continue; // free space (no informative word near the anchor): it matches everywhere
                    }
                    int last = (int) Math.min(reach, n - 8 - a);
                    // the distances' bytes in a heap array: one copy, then plain array loads (the segments' own loads
                    // are polymorphic here, heap scratch or native frame, and cost a call each)
                    MemorySegment.copy(sliding, ValueLayout.JAVA_BYTE, a + 1, window, 0, last + 7);
                    long first = (v & 0xff) * 0x0101010101010101L;
                    int candidates = 0;
                    int bestK = 0;
                    long bestRun = 0;
                    scan:
                    for (int j = reach == NEAR_SHIFT ? 0 : NEAR_SHIFT; j < last; j += 8) { // (far: near was scanned)
                        // distances j + 1 .. j + 8 at once: the bytes equal to the anchor's first byte (SWAR), then the
                        // whole eight bytes at those distances only
                        long x = (long) WINDOW_LONG.get(window, j) ^ first;
                        long eq = ~(((x & LOW7) + LOW7) | x) & HIGH;
                        for (; eq != 0; eq &= eq - 1) {
                            int k = j + (Long.numberOfTrailingZeros(eq) >>> 3) + 1;
                            if (k > last) {
                                break scan;
                            }
                            if ((long) WINDOW_LONG.get(window, k - 1) != v) {
                                continue;
                            }
                            long len = run(fixed, a, sliding, a + k, n - a - k);
                            if (len > bestRun) {
                                bestRun = len;
                                bestK = k;
                            }
                            if (len == n - a - k || ++candidates == MAX_CANDIDATES) {
                                break scan; // to the page's end: a larger distance gives a shorter run
                            }
                        }
                    }
                    if (bestRun >= 8) { // backwards once, for the longest run of this anchor and direction
                        if (insertion) {
                            consider(before, a, after, a + bestK, floor, bestRun, best);
                        } else {
                            consider(before, a + bestK, after, a, floor, bestRun, best);
                        }
                    }
                }
            }
        }
        if (best[2] < MIN_MOVE) {
            return false;
        }
        m.add((int) best[0], (int) best[1], (int) best[2]);
        return true;
    }

    /**
     * The first position from {@code a} (within 512 bytes) whose eight bytes are not one byte repeated (zeros,
     * blanks: they match at every distance and would spend the search on runs of free space), or {@code a}.
     */
    private static int informative(MemorySegment s, int a, long n) {
        for (int p = a; p + 8 <= n && p < a + 512; p += 8) {
            long v = s.get(LE, p);
            if (v != (v & 0xff) * 0x0101010101010101L) {
                return p;
            }
        }
        return a;
    }

    /**
     * The run of {@code fwd} bytes where {@code after[d ...]} equals {@code before[s ...]}, extended backwards
     * while bytes agree (not below {@code floor}); kept in {@code best} (src, dst, length) if longer.
     */
    private static void consider(
            MemorySegment before, long s, MemorySegment after, long d, int floor, long fwd, long[] best) {
        long lim = Math.min(s, d) - floor;
        long back = 0;
        while (back + 8 <= lim && before.get(LE, s - back - 8) == after.get(LE, d - back - 8)) {
            back += 8;
        }
        while (back < lim
                && before.get(ValueLayout.JAVA_BYTE, s - back - 1) == after.get(ValueLayout.JAVA_BYTE, d - back - 1)) {
            back++;
        }
        if (back + fwd > best[2]) {
            best[0] = s - back;
            best[1] = d - back;
            best[2] = back + fwd;
        }
    }

    /** Length of the run where {@code b[bi ...]} equals {@code a[ai ...]}, at most {@code max}. */
    private static long run(MemorySegment a, long ai, MemorySegment b, long bi, long max) {
        long mm = MemorySegment.mismatch(a, ai, ai + max, b, bi, bi + max);
        return mm < 0 ? max : mm;
    }

    /**
     * Anchors of the search: the start and the middle of the longest range of {@code r}, if it has at least {@link
     * #ANCHOR_RANGE} bytes (none otherwise). The middle finds a shift that starts inside a range merged with a change
     * just before it (a length field updated beside the text it counts).
     */
    private static int[] anchors(Ranges r) {
        int longest = -1;
        for (int i = 0; i < r.count; i++) {
            int l = r.end(i) - r.start(i);
            if (l >= ANCHOR_RANGE && (longest < 0 || l > r.end(longest) - r.start(longest))) {
                longest = i;
            }
        }
        if (longest < 0) {
            return new int[0];
        }
        return new int[] {r.start(longest), (r.start(longest) + r.end(longest)) >>> 1};
    }

    /** {@code in} without the bytes {@code [lo, hi)}: ranges cut there, in order, into {@code out}. */
    private static void clip(Ranges in, int lo, int hi, Ranges out) {
        out.count = 0;
        out.partial = false;
        for (int i = 0; i < in.count; i++) {
            int s = in.start(i);
            int e = in.end(i);
            if (e <= lo || s >= hi) {
                out.add(s, e);
                continue;
            }
            if (s < lo) {
                out.add(s, lo);
            }
            if (e > hi) {
                out.add(hi, e);
            }
        }
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
        /** The search's scratch: the bytes at the distances from one anchor (allocated at the first search). */
        private byte[] window;

        /** Scratch ranges for completing a partial diff (the caller's may hold a trial; allocated at first use). */
        private Ranges tail;

        byte[] window() {
            if (window == null) {
                window = new byte[MAX_SHIFT + 15];
            }
            return window;
        }

        Ranges tail() {
            if (tail == null) {
                tail = new Ranges();
            }
            return tail;
        }

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
        /** Set by {@link PageDiff#diff(MemorySegment, MemorySegment, int, Ranges, long)} when it stopped early. */
        public boolean partial;

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
            partial = o.partial;
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
