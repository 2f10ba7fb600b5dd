package dev.quickstore.core.log;

import dev.quickstore.mmu.NativeDiff;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Finds the changed byte ranges of a page by comparing it with its pre-image, merging neighbouring
 * ranges by QuickStore's rule (White and DeWitt 1994, section 3.6): two changed ranges are merged when
 * logging the unchanged gap between them costs less than the header of a separate range. In our log
 * format a page's ranges share one {@link LogRecord} header; each range costs {@link LogRecord#RANGE_HEADER}
 * bytes, and a gap byte costs one byte per image logged (one for redo-only records, two for records
 * carrying before and after images). So ranges are merged when {@code gap * imagesPerByte < RANGE_HEADER}.
 *
 * <p>Where it runs: in the native library's C code ({@link NativeDiff}, {@code qs_diff.c}; docs/results.md, "The
 * commit's diff and move search in C"). The Java loop of {@link #diffInJava} is the reference: it computes the same
 * ranges (with assertions on, every native diff is compared with it), and {@code -Dqs.diff=java} runs it instead, for
 * comparison runs. Both scan eight bytes at a time ({@code a ^ b}) and find the changed bytes inside a word with bit
 * tricks, so a densely updated page costs a few nanoseconds per word; after {@value #SKIP_AFTER_EQUAL_WORDS} equal
 * words in a row they jump to the next difference (the C code 64 bytes per SSE2 step, the Java loop with the
 * vectorised {@link MemorySegment#mismatch}). Both segments must be readable without faults (use the alias view and
 * the pre-image, never the protected application view).
 *
 * <p>Beyond the paper: {@link MoveSearch} finds bytes that moved inside the page (an insertion or deletion shifts
 * everything after it), starting from a diff of this class stopped at its first long range.
 */
public final class PageDiff {
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long LOW7 = 0x7f7f7f7f7f7f7f7fL;
    private static final long HIGH = 0x8080808080808080L;

    /** Equal words scanned one by one before switching to {@link MemorySegment#mismatch} (the Java loop). */
    static final int SKIP_AFTER_EQUAL_WORDS = 4;

    /**
     * True when {@link #diff} and {@link MoveSearch}'s scan run their Java loops: system property {@code qs.diff},
     * {@code native} (the default) or {@code java}.
     */
    static final boolean IN_JAVA = inJava(System.getProperty("qs.diff", "native"));

    static boolean inJava(String where) {
        return switch (where) {
            case "native" -> false;
            case "java" -> true;
            default ->
                throw new IllegalArgumentException(
                        "system property qs.diff is '" + where + "'; expected native (the default) or java");
        };
    }

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
     * {@link MoveSearch#search} takes such a diff (a page whose bytes shifted differs from the shift on, so diffing it
     * to the end is wasted) and completes it. Only for {@code maxGap >= 6} (redo-only records); with a smaller gap
     * the diff runs to the end.
     */
    public static Ranges diff(MemorySegment before, MemorySegment after, int maxGap, Ranges out, long stopAt) {
        if (IN_JAVA) {
            return diffInJava(before, after, maxGap, out, stopAt);
        }
        for (; ; ) {
            long r = NativeDiff.ranges(before, after, maxGap, stopAt, out.bounds);
            long count = r >>> 1;
            if (2 * count <= out.bounds.length) {
                out.count = (int) count;
                out.partial = (r & 1) != 0;
                assert sameAsJava(before, after, maxGap, stopAt, out);
                return out;
            }
            out.bounds = new int[(int) (2 * count)]; // more ranges than room: grow to fit them and diff again
        }
    }

    /** The invariant of the native diff: it finds exactly the ranges of {@link #diffInJava}. */
    private static boolean sameAsJava(MemorySegment before, MemorySegment after, int maxGap, long stopAt, Ranges r) {
        Ranges j = diffInJava(before, after, maxGap, new Ranges(), stopAt);
        if (j.count != r.count
                || j.partial != r.partial
                || !Arrays.equals(j.bounds, 0, 2 * j.count, r.bounds, 0, 2 * r.count)) {
            throw new AssertionError("native diff of " + before.byteSize() + " bytes (gap " + maxGap + ", stop "
                    + stopAt + ") found " + r.count + " ranges " + Arrays.toString(Arrays.copyOf(r.bounds, 2 * r.count))
                    + (r.partial ? " (partial)" : "") + "; the Java loop " + j.count + " "
                    + Arrays.toString(Arrays.copyOf(j.bounds, 2 * j.count)) + (j.partial ? " (partial)" : ""));
        }
        return true;
    }

    /**
     * {@link #diff} by this class's Java loop: the reference the native diff is checked against, and what {@code
     * -Dqs.diff=java} runs.
     */
    public static Ranges diffInJava(MemorySegment before, MemorySegment after, int maxGap, Ranges out, long stopAt) {
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
                out.addMerging(s, e, maxGap);
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
                out.addMerging(s, e, maxGap);
            }
        }
        return out;
    }

    /** A reusable list of [start, end) ranges. */
    public static final class Ranges {
        public int[] bounds = new int[64];
        public int count;
        /** Set by {@link PageDiff#diff(MemorySegment, MemorySegment, int, Ranges, long)} when it stopped early. */
        public boolean partial;

        public void add(int start, int end) {
            if (2 * count + 2 > bounds.length) {
                bounds = Arrays.copyOf(bounds, bounds.length * 2);
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

        /**
         * Appends {@code [start, end)} (at or after the last range), merged into the last range when the gap between
         * them is at most {@code maxGap} bytes, as {@link PageDiff#diff} merges.
         */
        void addMerging(int start, int end, int maxGap) {
            if (count > 0 && start - end(count - 1) <= maxGap) {
                bounds[2 * count - 1] = end;
            } else {
                add(start, end);
            }
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
