package dev.quickstore.core.inspect;

import java.util.List;

/**
 * One write-ahead log record, decoded.
 *
 * @param lsn the record's LSN (its position in the log stream)
 * @param type UPDATE, REDO, CLR, COMMIT, END or CHECKPOINT
 * @param txnId transaction (0 for CHECKPOINT)
 * @param prevLsn previous record of the same transaction (0 = none)
 * @param length record length in bytes
 * @param pageId page of an UPDATE, REDO or CLR record, else -1
 * @param undoNextLsn CLR: next record of the transaction to undo, else 0
 * @param moves page-local moves of a REDO record, applied by redo before its ranges (docs/formats.md), else empty
 * @param ranges byte ranges of a page record
 * @param checkpoint fields of a CHECKPOINT record, else null
 */
public record LogEntry(
        long lsn,
        String type,
        long txnId,
        long prevLsn,
        int length,
        long pageId,
        long undoNextLsn,
        List<Move> moves,
        List<Range> ranges,
        Checkpoint checkpoint) {

    /** {@code length} bytes of the page moved from {@code src} to {@code dst} (as {@code memmove}). */
    public record Move(int src, int dst, int length) {}

    /** A changed byte range of a page: {@code [offset, offset + length)}. */
    public record Range(int offset, int length) {}

    /**
     * A checkpoint's contents.
     *
     * @param redoStartLsn where analysis and redo start
     * @param nextTxnId next transaction id
     * @param activeTxnId transaction running at the checkpoint (0 = none)
     * @param dirtyPages dirty page table: page ids
     * @param dirtyRecLsns the matching recovery LSNs
     */
    public record Checkpoint(
            long redoStartLsn, long nextTxnId, long activeTxnId, List<Long> dirtyPages, List<Long> dirtyRecLsns) {}
}
