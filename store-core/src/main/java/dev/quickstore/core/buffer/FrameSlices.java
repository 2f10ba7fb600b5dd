package dev.quickstore.core.buffer;

import java.lang.foreign.MemorySegment;

/**
 * The alias view's slice of each frame (White and DeWitt 1994, section 3.1: a buffer frame's bytes, which the store
 * reads and writes through the alias), made on the frame's first use and kept for the arena's life: a frame's place
 * in the alias never changes, and relocation changes which page a frame holds, not the frame. Kept in chunks of
 * {@link #CHUNK} frames, allocated as frames are first sliced. A fix used to cut a new slice each time, the only
 * allocation of a numeric index lookup (three per lookup, 120 bytes) and a third of OO7 Q8's (docs/results.md,
 * "Index lookups without allocation"). Two threads may race to fill an entry; both slices are equal and immutable,
 * so either may stay. One per {@link MappedFrames}.
 */
final class FrameSlices {
    private static final int CHUNK_SHIFT = 12;
    private static final int CHUNK = 1 << CHUNK_SHIFT;

    private final MemorySegment alias;
    private final long frameBytes;
    private final MemorySegment[][] chunks;

    FrameSlices(MemorySegment alias, long frames, int frameBytes) {
        this.alias = alias;
        this.frameBytes = frameBytes;
        this.chunks = new MemorySegment[(int) ((frames + CHUNK - 1) >>> CHUNK_SHIFT)][];
    }

    /** The alias slice of frame {@code f}. */
    MemorySegment of(long f) {
        int c = (int) (f >>> CHUNK_SHIFT);
        MemorySegment[] chunk = chunks[c];
        if (chunk == null) {
            chunk = new MemorySegment[CHUNK];
            chunks[c] = chunk;
        }
        int i = (int) f & (CHUNK - 1);
        MemorySegment s = chunk[i];
        if (s == null) {
            s = alias.asSlice(f * frameBytes, frameBytes);
            chunk[i] = s;
        }
        return s;
    }
}
