package dev.quickstore.core;

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
 * <p>Speed: equal stretches are skipped with {@link MemorySegment#mismatch} (vectorised); the end of a
 * changed stretch is found eight bytes at a time (first zero byte of {@code a ^ b}).
 */
final class PageDiff {
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long LOW = 0x0101010101010101L;
    private static final long HIGH = 0x8080808080808080L;

    private PageDiff() {}

    /** Largest gap (in bytes) that is merged for records carrying {@code imagesPerByte} images. */
    static int mergeGap(int imagesPerByte) {
        // merge when gap * images < header, i.e. gap <= (header - 1) / images
        return (LogRecord.RANGE_HEADER - 1) / imagesPerByte;
    }

    /**
     * Computes the merged changed ranges between {@code before} and {@code after} (same length).
     *
     * @param maxGap gaps of at most this many equal bytes are merged into the surrounding ranges
     * @param out receives [start0, end0, start1, end1, ...] (end exclusive); grown as needed
     * @return the ranges (possibly a new array) with count in {@link Ranges#count}
     */
    static Ranges diff(MemorySegment before, MemorySegment after, int maxGap, Ranges out) {
        long n = before.byteSize();
        assert after.byteSize() == n;
        out.count = 0;
        long pos = 0;
        int start = -1;
        int end = -1;
        while (pos < n) {
            long m = MemorySegment.mismatch(before, pos, n, after, pos, n);
            if (m < 0) {
                break;
            }
            long s = pos + m; // first differing byte (mismatch is relative to pos)
            long e = changedRunEnd(before, after, s, n);
            if (start >= 0 && s - end <= maxGap) {
                end = (int) e; // merge with previous range
            } else {
                if (start >= 0) {
                    out.add(start, end);
                }
                start = (int) s;
                end = (int) e;
            }
            pos = e;
        }
        if (start >= 0) {
            out.add(start, end);
        }
        return out;
    }

    /** First index >= s where the bytes are equal (or n). */
    private static long changedRunEnd(MemorySegment a, MemorySegment b, long s, long n) {
        long i = s;
        while (i + 8 <= n) {
            long x = a.get(LE, i) ^ b.get(LE, i);
            long zeroBytes = (x - LOW) & ~x & HIGH; // lowest set flag marks the first equal byte
            if (zeroBytes != 0) {
                return i + (Long.numberOfTrailingZeros(zeroBytes) >>> 3);
            }
            i += 8;
        }
        while (i < n && a.get(ValueLayout.JAVA_BYTE, i) != b.get(ValueLayout.JAVA_BYTE, i)) {
            i++;
        }
        return i;
    }

    /** A reusable list of [start, end) ranges. */
    static final class Ranges {
        int[] bounds = new int[64];
        int count;

        void add(int start, int end) {
            if (2 * count + 2 > bounds.length) {
                bounds = java.util.Arrays.copyOf(bounds, bounds.length * 2);
            }
            bounds[2 * count] = start;
            bounds[2 * count + 1] = end;
            count++;
        }

        int start(int i) {
            return bounds[2 * i];
        }

        int end(int i) {
            return bounds[2 * i + 1];
        }

        long bytes() {
            long t = 0;
            for (int i = 0; i < count; i++) {
                t += end(i) - start(i);
            }
            return t;
        }
    }
}
