package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.function.ToLongFunction;

/**
 * The arena's reused native buffer of frame indices, shared by the list downcalls ({@code qs_dirty_list}, {@code
 * qs_resident_list}) and {@code qs_mark_clean_list}: one downcall per {@value #FRAMES} frames and nothing
 * allocated natively in the common case. One per {@link MappedArena}, scoped to its views.
 *
 * <p>Invariant: the buffer is only read or written while holding this object's monitor.
 */
final class FrameListBuffer {
    /** Frames the buffer holds. */
    static final int FRAMES = 1024;

    private static final long[] EMPTY = new long[0];

    private final long handle;
    private final MemorySegment buffer;

    FrameListBuffer(long handle, Arena views) {
        this.handle = handle;
        this.buffer = views.allocate(JAVA_LONG, FRAMES);
    }

    /** A list downcall {@code call(handle, from, buffer, capacity)} repeated until it returns fewer frames. */
    long[] list(MethodHandle call, String name) {
        long[][] result = {EMPTY};
        Downcall.run(name, () -> {
            synchronized (this) {
                long from = 0;
                for (; ; ) {
                    long n = (long) call.invokeExact(handle, from, buffer, (long) FRAMES);
                    int old = result[0].length;
                    result[0] = n == 0 ? result[0] : Arrays.copyOf(result[0], old + (int) n);
                    MemorySegment.copy(buffer, JAVA_LONG, 0, result[0], old, (int) n);
                    if (n < FRAMES) {
                        return;
                    }
                    from = result[0][result[0].length - 1] + 1;
                }
            }
        });
        return result[0];
    }

    /** Runs {@code body} on the buffer under its monitor. */
    long withBuffer(ToLongFunction<MemorySegment> body) {
        synchronized (this) {
            return body.applyAsLong(buffer);
        }
    }
}
