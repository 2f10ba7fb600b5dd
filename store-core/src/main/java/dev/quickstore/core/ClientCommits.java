package dev.quickstore.core;

import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.TransactionConflictException;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Applies a page server client's transaction to the server's store ({@link ServedStore#commitPageWrites}; QuickStore on
 * ESM, White and DeWitt 1994 section 4.4; issue 12's optimistic protocol): backward validation - every page the
 * client read or wrote must still be at the version (page LSN) it read - then the changed ranges are written
 * through the buffer pool as one transaction of the store, logged as page diffs like an embedded commit.
 *
 * <p>Invariants: nothing is applied when validation fails or a range is refused; a range never covers a page's
 * checksum (bytes 0..3) or LSN (16..23), which only the server writes; a written page exists - it lies below the
 * store's page count after the transaction's own change to the volume header (a client that grew the store
 * writes the new count and its new pages, which both sides read as zero pages before the diffs). Called under the
 * store latch by the facade, with no transaction of the handle running.
 */
final class ClientCommits {
    private ClientCommits() {}

    static CommitMessages.Applied apply(
            Store s, List<CommitMessages.PageVersion> reads, List<CommitMessages.PageWrite> writes, boolean durable)
            throws IOException {
        long count = grownPageCount(s, writes, s.extents.pageCount());
        for (var w : writes) {
            checkPage(s, w.page(), count);
            for (int i = 0; i < w.offsets().length; i++) {
                int off = w.offsets()[i];
                int end = off + w.bytes()[i].length;
                if (off < 0 || end > s.pageSize || end <= off) {
                    throw new IllegalArgumentException("page " + w.page() + " range " + off + ".." + end
                            + " is outside the " + s.pageSize + "-byte page");
                }
                if (off < PageHeader.CHECKSUM + 4 || (off < PageHeader.LSN + 8 && end > PageHeader.LSN)) {
                    throw new IllegalArgumentException("page " + w.page() + " range " + off + ".." + end
                            + " covers the page's checksum or LSN, which only the server writes");
                }
            }
        }
        List<CommitMessages.Conflict> conflicts = new java.util.ArrayList<>();
        List<CommitMessages.PageVersion> versions = new java.util.ArrayList<>(reads);
        for (var w : writes) {
            versions.add(new CommitMessages.PageVersion(w.page(), w.lsn()));
        }
        for (var v : versions) {
            checkPage(s, v.page(), count);
            long now = PageHeader.lsn(s.pool.fix(v.page()));
            if (now != v.lsn()) {
                conflicts.add(new CommitMessages.Conflict(v.page(), v.lsn(), now));
            }
        }
        if (!conflicts.isEmpty()) {
            throw new TransactionConflictException(
                    "the transaction read pages that another client's commit changed since: "
                            + TransactionConflictException.describe(conflicts),
                    conflicts);
        }
        if (writes.isEmpty()) {
            return new CommitMessages.Applied(0, new long[0]);
        }
        s.txns.begin();
        s.pool.stamps().entriesChanged(); // the client's images may change index entries, without the tree code
        try {
            for (var w : writes) {
                MemorySegment page = s.pool.fixForWrite(w.page());
                for (int i = 0; i < w.offsets().length; i++) {
                    byte[] b = w.bytes()[i];
                    MemorySegment.copy(b, 0, page, java.lang.foreign.ValueLayout.JAVA_BYTE, w.offsets()[i], b.length);
                }
            }
            s.txns.commit(durable);
        } catch (RuntimeException e) {
            s.txns.abort(); // an I/O failure instead poisons the handle (run), and recovery undoes it
            throw e;
        } finally {
            s.objects.reset();
            s.extents.reset();
        }
        long lsn = s.txns.lastLsn();
        long[] pageLsns = new long[writes.size()];
        for (int i = 0; i < pageLsns.length; i++) {
            pageLsns[i] = PageHeader.lsn(s.pool.fix(writes.get(i).page()));
        }
        s.maybeCheckpoint();
        s.pool.trim();
        return new CommitMessages.Applied(lsn, pageLsns);
    }

    /**
     * The page count after {@code writes}: a client transaction that grew the store writes the new count into
     * the volume header (page 0, bytes {@code PAGE_COUNT_OFFSET..+8}) and its new pages, which the server reads
     * as zero pages before applying the diffs, as the client did. The count never shrinks.
     */
    private static long grownPageCount(Store s, List<CommitMessages.PageWrite> writes, long count) throws IOException {
        for (var w : writes) {
            if (w.page() != 0) {
                continue;
            }
            byte[] field = new byte[8];
            MemorySegment.copy(s.pool.fix(0), VolumeHeader.PAGE_COUNT_OFFSET, MemorySegment.ofArray(field), 0, 8);
            for (int i = 0; i < w.offsets().length; i++) {
                int off = w.offsets()[i];
                byte[] b = w.bytes()[i];
                for (int k = Math.max(0, VolumeHeader.PAGE_COUNT_OFFSET - off);
                        k < b.length && off + k < VolumeHeader.PAGE_COUNT_OFFSET + 8;
                        k++) {
                    field[off + k - VolumeHeader.PAGE_COUNT_OFFSET] = b[k];
                }
            }
            long n = java.nio.ByteBuffer.wrap(field)
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .getLong();
            return Math.max(count, n);
        }
        return count;
    }

    private static void checkPage(Store s, long page, long count) {
        if (page < 0 || page >= count) {
            throw new IllegalArgumentException(
                    "page " + page + " does not exist in " + s.dir + " (pages 0.." + (count - 1) + ")");
        }
    }
}
