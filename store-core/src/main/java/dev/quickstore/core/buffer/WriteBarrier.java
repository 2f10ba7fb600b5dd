package dev.quickstore.core.buffer;

import dev.quickstore.core.log.PageDiff;
import dev.quickstore.core.options.WriteDetection;
import java.lang.foreign.MemorySegment;

/**
 * The seam between a write-detection scheme ({@link WriteDetection}; Hosking and Moss, "Lightweight write
 * detection and checkpointing for fine-grained persistence", section 3) and the two places that use it: the
 * object API's barrier ({@code api.internal.View}: a byte table tested before every store, a slow path when the
 * byte is 0) and commit ({@code core.txn.TransactionManager}: which bytes of a dirty page to diff against its
 * pre-image). Every scheme keeps the native dirty set and pre-images (so steal, abort and the REDO records are
 * the same for all); they differ in what the barrier records and how much commit compares.
 */
public interface WriteBarrier {
    /** The scheme. */
    WriteDetection detection();

    /**
     * The byte table the object API's barrier tests ({@code table[(address - arenaBase) >>> shift()] == 0}: take
     * the slow path {@link #mark}), or {@link MemorySegment#NULL} for no barrier (page protection, scanning).
     */
    MemorySegment table();

    /** log2 of the bytes one table entry covers; 0 when {@link #table()} is NULL. */
    int shift();

    /** Slow-path calls that recorded something (first marks of a card, object or word in a transaction). */
    long marks();

    /** The barrier's slow path: the application is about to store at most 8 bytes at view {@code address}. */
    void mark(long address);

    /**
     * Whether range stores ({@code View.markRange}) must go to {@link #markRange} whole (the scheme needs their
     * length) instead of one {@link #mark} per table entry they cover.
     */
    default boolean takesRanges() {
        return false;
    }

    /** The slow path of a store of {@code length} bytes from view {@code address} (if {@link #takesRanges}). */
    default void markRange(long address, long length) {
        throw new UnsupportedOperationException(detection() + " marks card by card");
    }

    /** A transaction begins (under the store latch). */
    default void begin() {}

    /**
     * The byte ranges of page {@code pageId} that commit must compare with its pre-image, into {@code out} (page
     * offsets, ascending, disjoint), or false if the scheme has no record of its own for the page (commit then
     * diffs the page's dirty cards, or the whole page).
     */
    default boolean regions(long pageId, PageDiff.Ranges out) {
        return false;
    }

    /** The transaction ended (committed or aborted): forget what was recorded. */
    default void end() {}
}
