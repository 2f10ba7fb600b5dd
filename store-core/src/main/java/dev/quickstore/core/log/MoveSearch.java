package dev.quickstore.core.log;

import dev.quickstore.core.log.PageDiff.Ranges;
import dev.quickstore.mmu.NativeDiff;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The search for bytes that moved inside a page, for REDO records of version 3 (page-local moves, {@link
 * PageMoves}). An insertion or deletion inside a page (a text spliced in place, an entry inserted into a sorted
 * B+tree node) shifts every byte after it; QuickStore's diff (White and DeWitt 1994, section 3.6, {@link PageDiff})
 * logs all of them, a move logs 12 bytes for the shifted run. Beyond the paper: physiological logging in the sense of
 * ARIES (Mohan et al. 1992: physical to a page, logical within it), limited to {@code memmove}.
 *
 * <p>One instance per committing thread: it holds the search's scratch (a page copy to apply moves to, the
 * distances' window, scratch ranges), allocated at the first search, so a store that never shifts bytes pays
 * nothing.
 */
public final class MoveSearch {
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final java.lang.invoke.VarHandle WINDOW_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long LOW7 = 0x7f7f7f7f7f7f7f7fL;
    private static final long HIGH = 0x8080808080808080L;

    /** A copy of the page the moves are applied to (native, the size of the last page searched). */
    private MemorySegment work;
    /** Scratch for the bytes a move of a stopped diff overwrote in {@link #work} ({@link #withoutLast}). */
    private MemorySegment saved;
    /** The first {@link #HEAD} bytes a move of a stopped diff overwrote in {@link #work}. */
    private MemorySegment head;
    /** The bytes at the distances from one anchor. */
    private byte[] window;
    /** Ranges of a trial (a move applied). */
    private Ranges trial;
    /** The search's anchors ({@link #anchors}). */
    private final int[] anchorAt = new int[2];
    /** Per anchor and direction (insertion, deletion), the position of the word compared, or -1 for none. */
    private final int[] wordAt = new int[4];
    /** Per anchor and direction, the word compared. */
    private final long[] word = new long[4];
    /** The longest run found: src, dst, length. */
    private final long[] best = new long[3];
    /** Pages copied to apply a move to (for tests: a search that finds no anchor copies nothing). */
    long copies;
    /** Ranges for completing a partial diff (the caller's {@code out} may be being replaced by a trial). */
    private Ranges tail;

    /** Fewest changed bytes of a page (by the plain diff) for which {@link #search} looks for moved bytes. */
    public static final int MIN_BYTES = 512;

    /** Largest distance in bytes a move shifts its bytes by (an insertion or deletion inside a page). */
    static final int MAX_SHIFT = 1024;

    /** Distances searched first (the rest only when none of these gives a move). */
    static final int NEAR_SHIFT = 128;

    /** Shortest run of moved bytes a move is made of. */
    static final int MIN_MOVE = 256;

    /** Shortest changed range the search starts from (field writes rarely make one, a shift always does). */
    static final int ANCHOR_RANGE = 256;

    /**
     * Bytes at the start of a moved run whose changes are counted first when a stopped diff's move is priced: a
     * shifted run differs almost everywhere, so these prove that the move pays without the rest.
     */
    static final int HEAD = 256;

    /** Candidate distances verified per anchor and direction (bounds the search on repetitive bytes). */
    static final int MAX_CANDIDATES = 8;

    /**
     * Looks for bytes that moved inside the page: an insertion or deletion that shifts the rest of a page (a text
     * spliced in place, an entry inserted into a sorted B+tree node) changes every byte after it, which a plain
     * diff logs in full; a move logs 12 bytes for the shifted run. Called with {@code out} holding a diff of
     * {@code before} and {@code after} (any of the diffs of this class; only its ranges are read) that is
     * {@linkplain Ranges#partial partial} or has at least {@link #MIN_BYTES} bytes; otherwise returns
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
     * before}); the moved run equals {@code after} there, so the ranges lose those bytes, and the search starts
     * again from the longest range left while at least {@value #MIN_BYTES} changed bytes are left. Up to {@link
     * LogRecord#MAX_MOVES} moves, each kept only while the record shrinks by more than the move costs. A diff stopped
     * early is replaced by a diff of {@code work} stopped again at the next long range (a page of several texts
     * edited in place is diffed once, one text per move, not once more per move to its end); the record without the
     * move then costs that diff plus the moved run's changed bytes as {@code work} had them, counted in the run's
     * first {@value #HEAD} bytes until they exceed what the move costs, and diffed in full only if they do not. A refused move of a stopped diff is
     * undone in {@code work} and the diff completed from where it stopped.
     *
     * <p>Postconditions when true: applying {@code moves} in order to {@code before} (each as {@code memmove}),
     * then copying the ranges of {@code after} into it, reproduces {@code after}; moves never touch bytes below
     * {@code floor} (the page header, whose checksum and LSN the log's redo base need not share with memory);
     * {@code out} holds the ranges to log. When false, {@code moves.count} is zero and {@code out} is as before, or,
     * if it was {@linkplain Ranges#partial partial}, the whole diff of {@code before} and {@code after}.
     *
     * @param floor first byte a move may read or write
     */
    public boolean search(
            MemorySegment before, MemorySegment after, int floor, int maxGap, PageMoves moves, Ranges out) {
        moves.count = 0;
        if (!out.partial && out.bytes() < MIN_BYTES) {
            return false;
        }
        long n = before.byteSize();
        assert after.byteSize() == n;
        if (!findMove(before, after, floor, out, moves)) {
            if (out.partial) {
                complete(before, after, maxGap, out, tail()); // nothing shifted: the whole diff after all
            }
            return false; // the common case (no long changed range, or nothing shifted): no copy made
        }
        MemorySegment work = work(n);
        Ranges trial = trial();
        MemorySegment.copy(before, 0, work, 0, n);
        copies++;
        long cost = (long) LogRecord.RANGE_HEADER * out.count + out.bytes();
        boolean found = false;
        // out is the diff of work (before with the moves accepted so far) and after
        while (true) {
            int i = moves.count - 1;
            int lo = moves.dst(i);
            int hi = lo + moves.length(i);
            boolean partial = out.partial;
            int head = Math.min(HEAD, hi - lo);
            if (partial) {
                MemorySegment.copy(work, lo, head(), 0, head); // the start of what the move overwrites: its price
            }
            MemorySegment.copy(work, moves.src(i), work, lo, hi - lo);
            assert MemorySegment.mismatch(work, lo, hi, after, lo, hi) < 0 : "a move's run equals after's bytes";
            if (partial) {
                // the diff was stopped early: what lies beyond is not known yet; diffed again, stopped again at the
                // next long range (the next shifted text of the page), so no shifted bytes are diffed twice
                PageDiff.diff(work, after, maxGap, trial, MIN_BYTES);
                if (trial.partial && trial.start(trial.count - 1) < hi) {
                    // stopped before the run (what is left of a long range the move began inside): the trial must
                    // see the run for its price to compare with the record before it, so it is diffed whole
                    PageDiff.diff(work, after, maxGap, trial);
                }
            } else {
                clip(out, lo, hi, trial); // work changed only in [lo, hi), where it now equals after's bytes
            }
            long trialBytes = trial.bytes();
            long c = (long) LogRecord.MOVE_BYTES * moves.count
                    + (long) LogRecord.RANGE_HEADER * trial.count
                    + trialBytes;
            MemorySegment without = null; // work before this move, rebuilt at most once (withoutLast)
            if (c + LogRecord.MOVE_BYTES >= cost && partial) {
                // what the record costs without this move, known so far only to where the diffs stopped: the
                // trial's ranges (outside the moved run work is as it was) and the run's own changes before the
                // move; boundary merges make this at most a few bytes off. The changed bytes in the run bound that
                // from below (a shifted run differs almost everywhere): counted until they prove the move pays
                long pays = 2L * LogRecord.MOVE_BYTES
                        - LogRecord.RANGE_HEADER; // c + MOVE_BYTES < c - MOVE_BYTES + header + bytes
                if (changedBytes(this.head.asSlice(0, head), after.asSlice(lo, head), pays) > pays) {
                    cost = Long.MAX_VALUE; // paid for: the exact plain diff of the run is not needed
                } else {
                    Ranges inside = tail();
                    without = withoutLast(before, moves);
                    MemorySegment run = without.asSlice(lo, hi - lo);
                    PageDiff.diff(run, after.asSlice(lo, hi - lo), maxGap, inside);
                    cost = c - LogRecord.MOVE_BYTES + (long) LogRecord.RANGE_HEADER * inside.count + inside.bytes();
                }
            }
            if (c + LogRecord.MOVE_BYTES >= cost) {
                if (partial) {
                    if (without == null) {
                        without = withoutLast(before, moves);
                    }
                    MemorySegment.copy(without, lo, work, lo, hi - lo); // work as out has it
                    complete(work, after, maxGap, out, tail());
                }
                moves.count--; // not worth its bytes
                break;
            }
            cost = c;
            out.copyFrom(trial);
            found = true;
            if (moves.count == LogRecord.MAX_MOVES
                    || trialBytes < MIN_BYTES // what is left (out is the trial now) is not worth a search
                    || !findMove(work, after, floor, out, moves)) {
                if (out.partial) {
                    complete(work, after, maxGap, out, tail()); // the rest of the page, as a plain diff
                }
                break;
            }
        }
        return found;
    }

    /**
     * The bytes where {@code a} and {@code b} (same length) differ, counted until there are more than {@code limit}:
     * a lower bound of the bytes any diff of them logs (its ranges cover every changed byte).
     */
    private static long changedBytes(MemorySegment a, MemorySegment b, long limit) {
        long n = a.byteSize();
        long count = 0;
        long i = 0;
        for (; i + 8 <= n && count <= limit; i += 8) {
            long x = a.get(LE, i) ^ b.get(LE, i);
            count += Long.bitCount((((x & LOW7) + LOW7) | x) & HIGH); // a high bit per changed byte
        }
        for (; i < n && count <= limit; i++) {
            if (a.get(ValueLayout.JAVA_BYTE, i) != b.get(ValueLayout.JAVA_BYTE, i)) {
                count++;
            }
        }
        return count;
    }

    /**
     * Completes a {@linkplain Ranges#partial partial} diff: the diff goes on from where it stopped (the end of its
     * last range, a changed byte) to the page's end, and a first range found within {@code maxGap} bytes of that end
     * extends the last range, as the whole diff would have merged it. {@code scratch} is overwritten.
     */
    private static void complete(MemorySegment before, MemorySegment after, int maxGap, Ranges out, Ranges scratch) {
        assert out.partial && out.count > 0;
        int from = out.end(out.count - 1);
        long n = before.byteSize();
        out.partial = false;
        if (from == n) {
            return;
        }
        PageDiff.diff(before.asSlice(from, n - from), after.asSlice(from, n - from), maxGap, scratch);
        for (int i = 0; i < scratch.count; i++) {
            out.addMerging(from + scratch.start(i), from + scratch.end(i), maxGap);
        }
    }

    /**
     * Appends the longest move found at the anchors of {@code changed} to {@code moves}; false if none. The scan runs
     * in the native library ({@code qs_move_find}, as {@link PageDiff#diff} does; {@code -Dqs.diff=java} runs {@link
     * #findMoveInJava} instead), and with assertions on its result is compared with the Java loop's.
     */
    private boolean findMove(MemorySegment before, MemorySegment after, int floor, Ranges changed, PageMoves m) {
        int count = anchors(changed);
        boolean found;
        if (PageDiff.IN_JAVA) {
            found = findMoveInJava(before, after, floor, count);
        } else {
            found = NativeDiff.moveFind(
                    before, after, floor, anchorAt, count, NEAR_SHIFT, MAX_SHIFT, MIN_MOVE, MAX_CANDIDATES, best);
            assert sameAsJava(before, after, floor, count, found);
        }
        if (!found) {
            return false;
        }
        m.add((int) best[0], (int) best[1], (int) best[2]);
        return true;
    }

    /** The invariant of the native scan: it finds the move (or none) the Java loop finds. */
    private boolean sameAsJava(MemorySegment before, MemorySegment after, int floor, int count, boolean found) {
        long src = best[0], dst = best[1], length = best[2];
        boolean byJava = findMoveInJava(before, after, floor, count);
        if (byJava != found || best[0] != src || best[1] != dst || best[2] != length) {
            throw new AssertionError("native move search of " + before.byteSize() + " bytes (anchors "
                    + Arrays.toString(Arrays.copyOf(anchorAt, count)) + ", floor " + floor
                    + ") found " + found + " src " + src + " dst " + dst + " length " + length + "; the Java loop "
                    + byJava + " src " + best[0] + " dst " + best[1] + " length " + best[2]);
        }
        return true;
    }

    /**
     * The scan of {@link #findMove} by this class's Java loop, from the {@code count} anchors in {@link #anchorAt}:
     * the longest run into {@link #best} (src, dst, length); true if it is at least {@value #MIN_MOVE} bytes.
     */
    boolean findMoveInJava(MemorySegment before, MemorySegment after, int floor, int count) {
        long n = before.byteSize();
        long[] best = this.best; // src, dst, length of the longest run found, extended backwards
        best[0] = best[1] = best[2] = 0;
        byte[] window = window();
        int searches = 2 * count;
        // per anchor and direction, the informative word the search compares (found once for both passes)
        for (int t = 0; t < searches; t++) {
            MemorySegment fixed = (t & 1) == 0 ? before : after;
            int a = informative(fixed, anchorAt[t >>> 1], n);
            long v = a < floor || a + 8 > n ? 0 : fixed.get(LE, a);
            // no word to compare, or free space (no informative word near the anchor): it matches everywhere
            wordAt[t] = v == (v & 0xff) * 0x0101010101010101L ? -1 : a;
            word[t] = v;
        }
        // near distances first (a text's few characters, a B+tree entry), all of them only when those found nothing
        for (int reach = NEAR_SHIFT; best[2] < MIN_MOVE && reach <= MAX_SHIFT; reach *= MAX_SHIFT / NEAR_SHIFT) {
            for (int t = 0; t < searches; t++) {
                // insertion (t even): after[a + k ...] == before[a ...]; deletion: after[a ...] == before[a + k ...]
                boolean insertion = (t & 1) == 0;
                MemorySegment fixed = insertion ? before : after;
                MemorySegment sliding = insertion ? after : before;
                int a = wordAt[t];
                if (a < 0) {
                    continue;
                }
                long v = word[t];
                int last = (int) Math.min(reach, n - 8 - a);
                int from = reach == NEAR_SHIFT ? 0 : NEAR_SHIFT; // (far: near was scanned)
                if (from >= last) {
                    continue;
                }
                // window[w] is sliding[a + 1 + w]; distances from + 1 .. last read window[from, last + 7)
                long lo = a + 1 + from;
                long hi = a + 1 + last + 7;
                if (MemorySegment.mismatch(sliding, lo, hi - 1, sliding, lo + 1, hi) < 0) {
                    continue; // one byte repeated (free space): no distance shows the informative word
                }
                // the distances' bytes in a heap array: one copy, then plain array loads (the segments' own loads
                // cost a bounds and liveness check each, and a call where heap and native images both come here)
                MemorySegment.copy(sliding, ValueLayout.JAVA_BYTE, lo, window, from, last + 7 - from);
                long first = (v & 0xff) * 0x0101010101010101L;
                int candidates = 0;
                int bestK = 0;
                long bestRun = 0;
                scan:
                for (int j = from; j < last; j += 8) {
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
                // backwards once, for the longest run of this anchor and direction, unless it is the move an earlier
                // anchor found (the middle anchor inside the run the start anchor measured: same shift, same end)
                long src = insertion ? a : a + bestK;
                if (bestRun >= 8
                        && !(best[2] > 0
                                && best[1] - best[0] == (insertion ? bestK : -bestK)
                                && best[0] + best[2] == src + bestRun)) {
                    if (insertion) {
                        consider(before, a, after, a + bestK, floor, bestRun, best);
                    } else {
                        consider(before, a + bestK, after, a, floor, bestRun, best);
                    }
                }
            }
        }
        return best[2] >= MIN_MOVE;
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
        // vectorised 64 bytes at a time (a repetitive text agrees far back at some distances), then words, then bytes
        while (back + 64 <= lim
                && MemorySegment.mismatch(before, s - back - 64, s - back, after, d - back - 64, d - back) < 0) {
            back += 64;
        }
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
     * Anchors of the search, into {@link #anchorAt}: the start and the middle of the longest range of {@code r}, if it
     * has at least {@link #ANCHOR_RANGE} bytes (none otherwise); returns their number. The middle finds a shift that
     * starts inside a range merged with a change just before it (a length field updated beside the text it counts).
     */
    private int anchors(Ranges r) {
        int longest = -1;
        for (int i = 0; i < r.count; i++) {
            int l = r.end(i) - r.start(i);
            if (l >= ANCHOR_RANGE && (longest < 0 || l > r.end(longest) - r.start(longest))) {
                longest = i;
            }
        }
        if (longest < 0) {
            return 0;
        }
        anchorAt[0] = r.start(longest);
        anchorAt[1] = (r.start(longest) + r.end(longest)) >>> 1;
        return 2;
    }

    /** The anchors {@link #findMove} starts from for the ranges {@code r} (tests: the native scan against the Java one). */
    int[] anchorsFor(Ranges r) {
        return Arrays.copyOf(anchorAt, anchors(r));
    }

    /** The longest run the last scan found: src, dst, length (tests). */
    long[] lastBest() {
        return best.clone();
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

    private MemorySegment work(long n) {
        if (work == null || work.byteSize() != n) {
            // native like the pages commit diffs: the diff's and the search's loads then see one segment class
            // (a heap copy among native pages made them polymorphic: a virtual call per word)
            work = Arena.ofAuto().allocate(n, 8);
        }
        return work;
    }

    private byte[] window() {
        if (window == null) {
            window = new byte[MAX_SHIFT + 15];
        }
        return window;
    }

    /**
     * {@code before} with every move of {@code m} but the last applied, in {@link #saved}: what {@link #work} held
     * before the last move overwrote a run of it (rebuilt only when a stopped diff's move must be priced or undone,
     * so the common case copies nothing more). {@code m}'s count is the moves including the last.
     */
    private MemorySegment head() {
        if (head == null) {
            head = Arena.ofAuto().allocate(HEAD, 8);
        }
        return head;
    }

    private MemorySegment withoutLast(MemorySegment before, PageMoves m) {
        long n = before.byteSize();
        if (saved == null || saved.byteSize() != n) {
            saved = Arena.ofAuto().allocate(n, 8);
        }
        MemorySegment.copy(before, 0, saved, 0, n);
        for (int i = 0; i < m.count - 1; i++) {
            MemorySegment.copy(saved, m.src(i), saved, m.dst(i), m.length(i));
        }
        return saved;
    }

    private Ranges trial() {
        if (trial == null) {
            trial = new Ranges();
        }
        return trial;
    }

    private Ranges tail() {
        if (tail == null) {
            tail = new Ranges();
        }
        return tail;
    }
}
