package dev.quickstore.mmu;

import java.lang.foreign.MemorySegment;

/**
 * The commit's byte crunching in the library's C code ({@code qs_diff.c}): the changed byte ranges of a page against
 * its pre-image, the diff a commit logs (White and DeWitt 1994, section 3.6), and the move search's scan for bytes an
 * insertion or deletion shifted inside the page. store-core's {@code PageDiff.diff} and {@code MoveSearch.findMove}
 * call them and document the contracts; their Java loops are the references these functions are tested against.
 *
 * <p>Why C (docs/results.md, "The commit's diff and move search in C"): the commit compares whole pages, so its cost
 * should be the memory it reads from a process's first commit on. The Java loops paid a segment check per word, and
 * C2 compiled them again after each branch their profile had not seen, so a commit in a young process ran them in C1
 * code.
 *
 * <p>The calls are critical downcalls with heap access: the segments may be heap or native, and the arrays are heap
 * arrays the functions write directly (no safepoint during a call, which reads at most two pages).
 */
public final class NativeDiff {
    private NativeDiff() {}

    /**
     * Diffs {@code after} against {@code before} (same length, at most 2 GiB) into {@code out} as {@code (start,
     * end)} pairs and returns {@code 2 * count + partial}: {@code count} is the number of ranges found, which may
     * exceed {@code out.length / 2} (then only the first {@code out.length / 2} are written, and the caller grows
     * {@code out} and calls again); {@code partial} is 1 when the diff stopped at a range of {@code stopAt} bytes.
     */
    public static long ranges(MemorySegment before, MemorySegment after, int maxGap, long stopAt, int[] out) {
        long n = before.byteSize();
        if (after.byteSize() != n || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("diff of " + n + " bytes against " + after.byteSize()
                    + " bytes: the lengths must be equal and fit an int");
        }
        MemorySegment o = MemorySegment.ofArray(out);
        int cap = out.length / 2;
        return Downcall.longValue("qs_page_diff", () ->
                (long) NativeCalls.PageDiff.H.invokeExact(before, after, n, maxGap, stopAt, o, cap));
    }

    /**
     * The move search's scan ({@code qs_move_find}; store-core's {@code MoveSearch.findMove} documents it and keeps
     * the Java loop it is tested against): from the {@code count} (0 to 2) anchors in {@code anchors}, the longest
     * run of bytes that an insertion or deletion of at most {@code maxShift} bytes moved between {@code before} and
     * {@code after} (same length), extended backwards down to {@code floor}, into {@code best} as (src, dst,
     * length); true when it is at least {@code minMove} bytes.
     */
    public static boolean moveFind(
            MemorySegment before,
            MemorySegment after,
            int floor,
            int[] anchors,
            int count,
            int nearShift,
            int maxShift,
            int minMove,
            int maxCandidates,
            long[] best) {
        long n = before.byteSize();
        if (after.byteSize() != n || count < 0 || count > 2 || anchors.length < count || best.length < 3) {
            throw new IllegalArgumentException("move search of " + n + " bytes against " + after.byteSize()
                    + " bytes, " + count + " anchors of " + anchors.length + ", best of " + best.length
                    + ": the lengths must be equal, 0 to 2 anchors, room for 3 results");
        }
        for (int i = 0; i < count; i++) {
            if (anchors[i] < 0 || anchors[i] >= n) {
                throw new IllegalArgumentException("anchor " + anchors[i] + " outside the page of " + n + " bytes");
            }
        }
        if (nearShift <= 0 || maxShift % nearShift != 0 || maxShift / nearShift < 2) {
            throw new IllegalArgumentException(
                    "near shift " + nearShift + " must divide the maximum shift " + maxShift + " at least twice");
        }
        MemorySegment a = MemorySegment.ofArray(anchors);
        MemorySegment b = MemorySegment.ofArray(best);
        return Downcall.intValue("qs_move_find", () -> (int) NativeCalls.MoveFind.H.invokeExact(
                        before, after, n, floor, a, count, nearShift, maxShift, minMove, maxCandidates, b))
                != 0;
    }
}
