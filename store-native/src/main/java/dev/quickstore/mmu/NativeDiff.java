package dev.quickstore.mmu;

import java.lang.foreign.MemorySegment;

/**
 * The changed byte ranges of a page against its pre-image, computed by the library's C code ({@code qs_diff.c}):
 * the diff a commit logs (White and DeWitt 1994, section 3.6). store-core's {@code PageDiff.diff} calls it and
 * documents the contract (ranges of changed bytes merged across gaps of at most {@code maxGap} equal bytes, and the
 * early stop at a long range); its Java loop is the reference this function is tested against.
 *
 * <p>Why C (docs/results.md, "The commit's diff in C"): the commit compares whole pages, so its cost should be the
 * memory it reads from a process's first commit on. The Java loop paid a segment check per word, and C2 compiled it
 * again after each branch its profile had not seen, so a commit in a young process ran it in C1 code.
 *
 * <p>The call is a critical downcall with heap access: the segments may be heap or native, and {@code out} is a
 * heap array the function writes directly (no safepoint during the call, which compares at most a page).
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
                    + " bytes: the lengths must be equal and" + " fit an int");
        }
        MemorySegment o = MemorySegment.ofArray(out);
        int cap = out.length / 2;
        return Downcall.longValue("qs_page_diff", () ->
                (long) NativeCalls.PAGE_DIFF.invokeExact(before, after, n, maxGap, stopAt, o, cap));
    }
}
