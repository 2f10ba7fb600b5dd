package dev.quickstore.core;

import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.buffer.PageFrames;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The storage manager as a client of a page server (QuickStore on ESM, White and DeWitt 1994 section 1 and
 * 4.4; {@link Store#connect}): the store's mechanisms (slotted pages, extents, roots, B+trees, the object
 * API) run unchanged in this process over a cache of the server's pages, and this class is what replaces the
 * volume, the log and recovery underneath them.
 *
 * <ul>
 *   <li><b>Reads</b> ({@link #read}, the volume handle the buffer pool reads through): a page the store fixes
 *       and the cache lacks is loaded by the fault path's own code (C, over the data connection) into its frame
 *       of the shared arena, then copied; application loads fault pages in directly. A page at or past the
 *       committed page count ({@link #committedPages}) reads as zeros without asking the server: it exists
 *       only in this client (a transaction that grew the store), exactly as a page past the end of a volume
 *       file reads as zeros in the embedded store.</li>
 *   <li><b>Read set and locks</b>: the store reads and writes through the alias, which takes no fault, so
 *       every page it fixes in a transaction is first touched ({@link #touch}: the same resolution as a fault
 *       of the view, in C): its first access after each begin's reprotection joins the read set the server
 *       validates at commit (optimistic) or takes the page lock (page locking), as the application's loads do.
 *       </li>
 *   <li><b>Frames</b> ({@link #frames}): the cache's arena at the store's preferred base (identity placement),
 *       unbounded, so that the buffer pool never steals a dirty page ({@link #neverSteals}).</li>
 *   <li><b>Commit</b> ({@link #commitAtServer}): the arena's dirty frames are diffed against their pre-images and
 *       shipped with the read set ({@link RemoteTransaction#commit(long[])}); the server validates, applies,
 *       forces its log and answers. Nothing is logged here: the server's log is the only one.</li>
 *   <li><b>Abort and conflict</b>: changed pages are restored (abort) or dropped (conflict); pages past the
 *       committed count are dropped either way.</li>
 * </ul>
 *
 * Invariant: {@code committedPages} never exceeds the server's page count as of this client's last commit or
 * its last read of page 0, so a page this client asks the server for exists there.
 */
final class PageServerClient implements FileIO.Handle {
    private final RemotePages pages;
    private final int pageSize;
    private final String name;
    private RemoteTransaction current;
    private long committedPages;

    PageServerClient(RemotePages pages, String name) {
        this.pages = pages;
        this.pageSize = pages.pageSize();
        this.name = name;
        this.committedPages = pages.pageCount();
    }

    RemotePages pages() {
        return pages;
    }

    /**
     * The store's frames over the cache's arena (identity placement, unbounded), the pages the server has now
     * reserved in them.
     *
     * @throws StoreException naming the store {@code name} for a Texas store or an arena this process could not
     *     map at the store's preferred base
     */
    MappedFrames frames(String name) {
        if (pages.header().pointerFormat() == VolumeHeader.POINTERS_TEXAS) {
            throw new StoreException("page server " + name + " serves a Texas store (persistent pointers swizzled at"
                    + " fault time); Texas mode runs only on a local volume");
        }
        if (!pages.atPreferredBase()) {
            throw new StoreException("page server " + name + ": this process could not map the store's arena at its"
                    + " preferred base " + String.format("0x%x", pages.header().preferredArenaBase())
                    + " (the range is taken); a client needs identity placement (relocation is not supported over"
                    + " a server)");
        }
        MappedFrames mf = new MappedFrames(pages.arena(), pageSize, Integer.MAX_VALUE, pages.pageSource());
        mf.adoptReserved(pages.pageCount());
        return mf;
    }

    /** The buffer pool's stealer: the cache is unbounded, so no dirty page is ever chosen for eviction. */
    static void neverSteals(long page, MemorySegment preImage, MemorySegment contents) {
        throw new IllegalStateException("a page server client's cache is unbounded: page " + page
                + " cannot have been chosen for eviction while dirty");
    }

    /** Begins the client transaction: invalidations applied, cache reprotected (see RemotePages.begin). */
    void begin() {
        current = pages.begin();
    }

    /**
     * The buffer pool fixes {@code page} for the running transaction: the access is resolved as the view's fault
     * on it would be ({@link RemotePages#touch}), so that it joins the read set (under page locking: takes the
     * lock, shared or exclusive) exactly like an application load. A page past the committed count exists only
     * here and is not touched. Outside a transaction nothing is recorded (the page is read by {@link #read}).
     */
    void touch(long page, boolean write) {
        if (current != null && page < committedPages) {
            pages.touch(page, write);
        }
    }

    /**
     * Ships store {@code s}'s running transaction {@code t} to the server (the client's commit; latch held): its
     * page diffs and read set are validated and applied there, durably, before this returns. On any failure the
     * transaction is aborted here (its changed pages dropped from the cache) and the exception propagates.
     */
    void commitAtServer(Store s, Transaction t) {
        assert s.latch.isHeldByCurrentThread();
        long t0 = System.nanoTime();
        PageFrames frames = s.pool.frames();
        long count = frames.isDirty(0)
                ? frames.resident(0).get(PageHeader.LONG, VolumeHeader.PAGE_COUNT_OFFSET)
                : committedPages; // page 0 is not read for it: it would join every read set
        boolean ok = false;
        try {
            commit(count);
            ok = true;
        } finally {
            if (ok) {
                t.ended(Transaction.State.COMMITTED);
                s.txns.committedElsewhere();
            } else {
                t.ended(Transaction.State.ABORTED);
                try {
                    s.txns.abort(); // nothing dirty is left (the client dropped the changed pages); no log
                } catch (IOException e) {
                    throw new AssertionError("a client's abort does no I/O", e);
                }
            }
            s.finished(t);
        }
        long t1 = System.nanoTime();
        s.txns.commitFinished(t1 - t0, 0, t1 - t0);
    }

    /**
     * Ships the transaction to the server. On success the store's new page count becomes the committed one.
     *
     * @throws dev.quickstore.core.remote.TransactionConflictException if validation failed (nothing applied)
     * @throws dev.quickstore.core.remote.ServerUnavailableException if the server is gone or late
     */
    private void commit(long pageCountAfter) {
        RemoteTransaction t = current;
        current = null;
        boolean ok = false;
        try {
            t.commit();
            ok = true;
        } finally {
            if (ok) {
                committedPages = Math.max(committedPages, pageCountAfter);
                pages.grew(committedPages);
            } else {
                pages.dropFrom(committedPages);
            }
        }
    }

    /** Ends the transaction without a commit (the store restored the changed pages already). */
    void abort() {
        RemoteTransaction t = current;
        current = null;
        if (t != null) {
            t.abort();
        }
        pages.dropFrom(committedPages);
    }

    /** The store's pages grew to {@code count} in the running transaction: frames up to it are managed. */
    void grew(long count) {
        pages.grew(count);
    }

    // ---- the volume handle the buffer pool reads through ----

    @Override
    public int read(ByteBuffer dst, long pos) {
        long page = pos / pageSize;
        if (pos % pageSize != 0 || dst.remaining() != pageSize) {
            throw new IllegalArgumentException(
                    "page server reads are whole pages: " + dst.remaining() + " bytes at offset " + pos);
        }
        if (page >= committedPages) {
            return 0; // exists only here (grown by this client's running transaction): zeros
        }
        MemorySegment src = pages.fetch(page);
        MemorySegment.ofBuffer(dst).copyFrom(src);
        dst.position(dst.position() + pageSize);
        if (page == 0) {
            long count = src.get(PageHeader.LONG, VolumeHeader.PAGE_COUNT_OFFSET);
            if (count > committedPages) { // another client grew the store; this read is validated at commit
                committedPages = count;
                pages.grew(count);
            }
        }
        return pageSize;
    }

    @Override
    public void write(ByteBuffer src, long pos) {
        throw new UnsupportedOperationException("a page server client never writes pages: its commits ship diffs");
    }

    @Override
    public long size() {
        return committedPages * pageSize;
    }

    @Override
    public void truncate(long size) {
        throw new UnsupportedOperationException("a page server client never truncates the volume");
    }

    @Override
    public void force() {}

    @Override
    public String name() {
        return name;
    }

    @Override
    public void close() {
        pages.close();
    }
}
