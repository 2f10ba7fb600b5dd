package dev.quickstore.core.buffer;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.MappedArena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

/**
 * The slow path of the card-marking write barrier (Hosking and Moss 1993; {@link WriteDetection#CARD_MARKING}):
 * the object API's fast path ({@code View.mark}) tests the card byte and calls {@link #mark} only when it is 0.
 * Under page protection the table is {@link MemorySegment#NULL} and the shift 0; {@link #mark} then refuses.
 */
public final class CardBarrier implements WriteBarrier {
    private final MappedFrames frames; // null in EXPLICIT mode
    private final Path dir;
    private final int pageSize;
    private long marks;

    public CardBarrier(MappedFrames frames, Path dir, int pageSize) {
        this.frames = frames;
        this.dir = dir;
        this.pageSize = pageSize;
    }

    @Override
    public WriteDetection detection() {
        return shift() == 0 ? WriteDetection.PAGE_PROTECTION : WriteDetection.CARD_MARKING;
    }

    /** One byte per card of the view (1 = marked in this transaction), or NULL under page protection. */
    @Override
    public MemorySegment table() {
        return frames == null ? MemorySegment.NULL : frames.arena().cardTable().bytes();
    }

    /** log2 of the card size, 0 under page protection. */
    @Override
    public int shift() {
        return frames == null ? 0 : frames.arena().cardTable().shift();
    }

    /** Slow-path marks taken (a page's or card's first mark in a transaction). */
    @Override
    public long marks() {
        return marks;
    }

    /**
     * The application is about to store at view address {@code address}, whose card byte is 0. Captures the
     * page's pre-image on its first mark in the transaction and marks the card (one downcall, no store latch:
     * the native call locks the frame). A page that is not resident is first loaded by touching it through the
     * view (a read fault).
     *
     * @throws StoreException under page protection, or if the page cannot be made resident
     */
    @Override
    public void mark(long address) {
        if (frames == null || frames.arena().cardTable().shift() == 0) {
            throw new StoreException("markCard: store " + dir + " does not use card marking");
        }
        MappedArena a = frames.arena();
        long off = address - a.base();
        for (int attempt = 0; ; attempt++) {
            if (a.cardTable().mark(off) >= 0) {
                marks++;
                return;
            }
            if (attempt == 3) {
                throw new StoreException(String.format(
                        "write barrier: page of view address 0x%x (frame %d) is not resident after touching it",
                        address, off / pageSize));
            }
            a.view().get(ValueLayout.JAVA_BYTE, off); // a read fault loads it
        }
    }
}
