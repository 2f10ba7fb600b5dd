package dev.quickstore.core.log;

import java.lang.foreign.MemorySegment;

/**
 * A reusable list of page-local moves: {@code length} bytes from {@code src} to {@code dst}, applied in order, each
 * as {@code memmove}. Found by {@link MoveSearch}, carried by REDO records of version 3 ({@link LogRecord}, whose
 * javadoc and docs/formats.md give the encoding: {@code u32 src, u32 dst, u32 length} per move, at most {@link
 * LogRecord#MAX_MOVES}).
 */
public final class PageMoves {
    private int[] m = new int[3 * LogRecord.MAX_MOVES];
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

    /** Applies the moves to {@code page} in order, each as {@code memmove}. */
    public void applyTo(MemorySegment page) {
        for (int i = 0; i < count; i++) {
            MemorySegment.copy(page, src(i), page, dst(i), length(i));
        }
    }
}
