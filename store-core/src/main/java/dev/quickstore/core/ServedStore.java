package dev.quickstore.core;

import dev.quickstore.core.buffer.SoftwareFrames;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.remote.CommitMessages;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * An embedded store as a page server drives it (QuickStore on ESM, White and DeWitt 1994 section 4.4; docs/
 * architecture.md "Page server"): the server's three entry points into the store it serves - a page's committed
 * image for a client's fault path ({@link #readCommittedPage}), a client's transaction validated and applied
 * ({@link #commitPageWrites}, through {@link ClientCommits}), and the log forced for a group of such commits
 * ({@link #forceLog}). Applications never call these; a client's side is {@link Store#connect}.
 *
 * <p>Invariants: no page is served and no client commit applied while a transaction of the handle runs (its pages
 * are not committed); served pages hold references in disk form (a SOFTWARE store's OIDs, never swizzled
 * pointers) and a sealed checksum; client commits are applied only by a store without an application view
 * ({@link dev.quickstore.core.options.FramesMode#EXPLICIT}).
 */
public final class ServedStore {
    private final Store store;

    private ServedStore(Store store) {
        this.store = store;
    }

    /** The page server's entry points into {@code store} (a handle over it; holds no state of its own). */
    public static ServedStore of(Store store) {
        return new ServedStore(store);
    }

    /**
     * Copies the committed image of page {@code pageId} into {@code dst} with its checksum sealed, as a
     * volume file would hold it after a checkpoint: what a page server ships to a client's fault path
     * (which verifies that checksum). Reads through the buffer pool, so a page committed but not yet written
     * back is served as committed.
     *
     * @throws IllegalArgumentException if the page does not exist or {@code dst} is not one page long
     * @throws StoreException while a transaction runs on this handle (its pages are not committed)
     */
    public void readCommittedPage(long pageId, byte[] dst) {
        Store s = store;
        if (dst.length != s.pageSize) {
            throw new IllegalArgumentException(
                    "page buffer of " + dst.length + " bytes for " + s.pageSize + "-byte pages");
        }
        s.run(() -> {
            if (s.running() != null) {
                throw new StoreException(
                        "store " + s.dir + ": committed pages are not served while a transaction runs");
            }
            long count = s.extents.pageCount();
            if (pageId < 0 || pageId >= count) {
                throw new IllegalArgumentException(
                        "page " + pageId + " does not exist in " + s.dir + " (pages 0.." + (count - 1) + ")");
            }
            MemorySegment out = MemorySegment.ofArray(dst);
            out.copyFrom(s.pool.fix(pageId));
            if (s.pool.frames() instanceof SoftwareFrames software) {
                software.toDisk(out); // references as stored: OIDs, never swizzled pointers
            }
            PageHeader.prepareForWrite(out, pageId);
            return null;
        });
    }

    /**
     * Applies a page-server client's transaction (QuickStore on ESM; issue 12's optimistic protocol): backward
     * validation - every page the client read or wrote must still be at the version (page LSN) it read -
     * then its changed ranges are written through the buffer pool as one transaction of this store, logged
     * as page diffs and made durable before this returns. Nothing is applied when validation fails.
     *
     * <p>Conflicts are page-grained: two clients that changed different bytes of one page conflict as well
     * (the second to commit read the page before the first's commit). Only a page server calls this, on a
     * store opened with {@link dev.quickstore.core.options.FramesMode#EXPLICIT} (no application view).
     *
     * @return the commit record's LSN (0 for a transaction that wrote nothing: validated, nothing logged) and
     *     each written page's new page LSN, in the order of {@code writes}
     * @throws dev.quickstore.core.remote.TransactionConflictException naming the pages that changed
     * @throws IllegalArgumentException for a page outside the store or a range outside its page or over its
     *     checksum or LSN (which only the server writes)
     */
    public CommitMessages.Applied commitPageWrites(
            List<CommitMessages.PageVersion> reads, List<CommitMessages.PageWrite> writes) {
        return commitPageWrites(reads, writes, true);
    }

    /**
     * {@link #commitPageWrites(List, List)} for group commit: with {@code durable} false the COMMIT record is
     * not forced here, and the caller must call {@link #forceLog()} before it acknowledges the commit. Later
     * commits validate against this one's effects either way (they are applied in the buffer pool), so a
     * group is serialized in the order it was applied; if the force fails, none of them is acknowledged and
     * the handle is poisoned (recovery decides, from the log, which of them committed).
     */
    public CommitMessages.Applied commitPageWrites(
            List<CommitMessages.PageVersion> reads, List<CommitMessages.PageWrite> writes, boolean durable) {
        Store s = store;
        return s.run(() -> {
            if (s.mappedFrames() != null) {
                throw new StoreException(
                        "store " + s.dir + ": client commits are applied by a page server (FramesMode.EXPLICIT)");
            }
            if (s.running() != null) {
                throw new StoreException("store " + s.dir + ": a transaction of this handle is running");
            }
            return ClientCommits.apply(s, reads, writes, durable);
        });
    }

    /**
     * Forces the log up to its end: every commit appended so far is durable when this returns. Runs without
     * the store latch (the log writer has its own lock and one leader per force), so that a page server's page
     * reads do not wait for the disk; a failure poisons the handle like any failed log write.
     */
    public void forceLog() {
        Store s = store;
        if (s.log == null) {
            throw new StoreException("store " + s.dir + " is a page server's client: the server forces its log");
        }
        s.latch.lock();
        try {
            s.checkUsable();
        } finally {
            s.latch.unlock();
        }
        try {
            s.log.flush(s.log.endLsn());
        } catch (IOException e) {
            s.latch.lock();
            try {
                throw s.poisonedBy(e);
            } finally {
                s.latch.unlock();
            }
        }
    }
}
