package dev.quickstore.core.buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What the object-based software barriers share (Hosking and Moss, "Lightweight write detection and checkpointing
 * for fine-grained persistence", section 3, "Object-based schemes": object marking, {@link ObjectMarkingBarrier}, and
 * remembered sets, {@link RememberedSetBarrier}): the arena runs card marking natively with one card per page, and a
 * store to a page whose card byte is 0 (its first in the transaction, or since a steal) first captures the page's
 * pre-image through {@link CardBarrier}, exactly as a card mark does, so clean pages stay writable (no write faults).
 * The object API's table is one zero byte with shift 63: every store takes the subclass's slow path.
 */
abstract class PreimageCapturingBarrier implements WriteBarrier {
    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    final MappedFrames frames;
    final long base;
    final int pageSize;
    final int pageShift;
    private final CardBarrier capture;
    private final MemorySegment pageCards; // the native card table: one byte per frame, 1 = pre-image captured
    private final MemorySegment alwaysSlow = Arena.global().allocate(1); // one byte, always 0

    /**
     * {@code frames}' arena must be in card mode with one card per page; {@code capture} marks those cards.
     *
     * @param scheme the scheme's name for the error ("object marking needs ...")
     */
    PreimageCapturingBarrier(MappedFrames frames, CardBarrier capture, String scheme) {
        this.frames = frames;
        this.capture = capture;
        this.pageCards = frames.arena().cardTable().bytes();
        this.base = frames.arena().base();
        this.pageSize = frames.pageSize();
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
        if (capture.shift() != pageShift) {
            throw new IllegalArgumentException(
                    scheme + " page-sized native cards: card shift " + capture.shift() + ", page shift " + pageShift);
        }
    }

    @Override
    public final MemorySegment table() {
        return alwaysSlow;
    }

    @Override
    public final int shift() {
        return 63;
    }

    @Override
    public final boolean takesRanges() {
        return true;
    }

    /** Captures the pre-image of the page holding {@code address} unless its card says it was captured. */
    final void capturePreimage(long address) {
        if (pageCards.get(BYTE, (address - base) >>> pageShift) == 0) {
            capture.mark(address);
        }
    }

    /** {@link #capturePreimage} when the frame of {@code address} is known. */
    final void capturePreimage(long frame, long address) {
        if (pageCards.get(BYTE, frame) == 0) {
            capture.mark(address);
        }
    }
}
