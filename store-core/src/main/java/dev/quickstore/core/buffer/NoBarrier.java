package dev.quickstore.core.buffer;

import java.lang.foreign.MemorySegment;

/**
 * A write-detection scheme without a software barrier (scanning, kernel write tracking): the object API's table is
 * {@link MemorySegment#NULL}, so every store goes straight to memory, and the slow path is never taken.
 */
abstract class NoBarrier implements WriteBarrier {
    @Override
    public final MemorySegment table() {
        return MemorySegment.NULL;
    }

    @Override
    public final int shift() {
        return 0;
    }

    @Override
    public final void mark(long address) {
        throw new UnsupportedOperationException(
                detection() + " has no write barrier (address 0x" + Long.toHexString(address) + ")");
    }
}
