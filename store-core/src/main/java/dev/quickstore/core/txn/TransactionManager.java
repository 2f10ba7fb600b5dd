package dev.quickstore.core.txn;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.buffer.PageFrames;
import dev.quickstore.core.buffer.WriteBarrier;
import dev.quickstore.core.crashpoint.CrashPoints;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.events.AbortEvent;
import dev.quickstore.core.events.CommitEvent;
import dev.quickstore.core.events.Recorder;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.log.LogWriter;
import dev.quickstore.core.log.MoveSearch;
import dev.quickstore.core.log.PageDiff;
import dev.quickstore.core.log.PageMoves;
import dev.quickstore.core.options.CommitLogging;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.mmu.DetachedPreimages;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * Writes the log records of the running transaction and implements commit and abort.
 *
 * <ul>
 *   <li><b>Steal</b> ({@link #beforeSteal}): a page the transaction changed is about to be written back
 *       before commit: diff it against its pre-image and log an UPDATE with before and after images
 *       (undo information), then the page's pre-image is gone (the page leaves memory).</li>
 *   <li><b>Commit</b>: diff every transaction-dirty page against its pre-image (merge rule of
 *       {@link PageDiff}), append one redo-only REDO record per changed page (a page the transaction allocated,
 *       {@link BufferPool#fixNew}: one NEW_PAGE record, its difference from zeros, without copying a pre-image),
 *       append COMMIT and make
 *       it durable with one group-commit flush. With {@link CommitLogging#FULL_PAGES} no page is diffed: each
 *       dirty page is logged whole as one range [{@value #FULL_PAGE_START}, pageSize) (Cricket's "log full pages
 *       at commit", Shekita and Zwilling 1990, section 5.3). Pages are not written (no-force): they stay disk-dirty
 *       in the buffer pool and are written back later under the WAL rule.</li>
 *   <li><b>Abort</b>: copy every pre-image back (changes never logged), then undo the transaction's
 *       logged UPDATE records newest first, each undo logged as a CLR whose undoNext skips it, and end
 *       with END.</li>
 * </ul>
 */
public final class TransactionManager implements BufferPool.Stealer {
    private final BufferPool pool;
    private final LogWriter log;
    private final LogReader reader;
    private final PageDiff.Ranges ranges = new PageDiff.Ranges();
    private final PageDiff.Ranges regions = new PageDiff.Ranges();
    private final PageMoves moves = new PageMoves();

    /**
     * The commit's record of the page being logged ({@link #changes}), reused page after page (grown when a record
     * needs more): the log copies it into its buffer, so no array is allocated and zeroed per logged page (5.1 MB
     * per OO7 small build; docs/results.md, "Records encoded into one reused array").
     */
    private byte[] record = new byte[1 << 14];

    private final MoveSearch moveSearch = new MoveSearch();
    /** The write-detection scheme when it records finer than cards (object marking, remembered sets), or null. */
    private WriteBarrier barrier;

    private long txnId;
    /** Dirty pages whose dirty state a commit ends together (one reprotection per run of nearby pages). */
    private static final int RUN = 64;
    /**
     * First byte of a full-page REDO record's range: the whole page but its checksum word (bytes 0..3, never
     * part of a diff: recomputed whenever a page image is written to a file).
     */
    public static final int FULL_PAGE_START = PageHeader.TYPE;

    private final CommitLogging commitLogging;

    private MemorySegment[] preCopies;
    // per page of the batch being logged (grown to the largest batch): its dirty cards, whether it is a new page
    private long[] cards = new long[RUN];
    private boolean[] fresh = new boolean[RUN];
    private MemorySegment curCopy;
    private long firstLsn;
    private long lastLsn;
    private boolean active;
    private long nextTxnId;
    private long redoBytes;
    private long redoRecords;
    private long newPageRecords;
    // commit-path counters (cumulative, System.nanoTime; see CommitStats)
    private long commits;
    private long commitPreimageNanos; // copying pre-images to disk form, or releasing the detached ones
    private long commitReprotectNanos; // ending the page's dirty state (write-protecting the frame again)
    private long commitStableNanos; // taking the stable image (disk form) of the current page
    private long commitDiffNanos; // PageDiff.diff plus LogRecord encoding of the REDO records
    private long commitAppendNanos; // appending the records to the log buffer (incl. writes of full buffers)
    private long commitFlushNanos; // COMMIT record and the group-commit flush (write + fsync)
    private long commitLogNanos; // the whole log part of commit (measured by the caller of commit())
    private long commitCheckpointNanos; // checkpoints taken after commits
    private long commitTotalNanos; // the whole commit after the refusal check
    private long commitPages; // transaction-dirty pages examined at commit
    private long commitCardPages; // of those, pages diffed by their dirty cards only (card marking)
    private long commitCards; // dirty cards diffed on those pages
    private long aborts;

    public TransactionManager(BufferPool pool, LogWriter log, LogReader reader, long nextTxnId) {
        this(pool, log, reader, nextTxnId, CommitLogging.PAGE_DIFFS);
    }

    /** A manager whose commits log per dirty page what {@code commitLogging} says. */
    public TransactionManager(
            BufferPool pool, LogWriter log, LogReader reader, long nextTxnId, CommitLogging commitLogging) {
        this.commitLogging = java.util.Objects.requireNonNull(commitLogging, "commitLogging");
        this.pool = pool;
        this.log = log;
        this.reader = reader;
        this.nextTxnId = nextTxnId;
    }

    /**
     * The store's write-detection scheme: told when a transaction begins and ends, and asked at commit which bytes
     * of each dirty page to diff ({@link WriteBarrier#regions}).
     */
    public void writeBarrier(WriteBarrier b) {
        this.barrier = b;
    }

    /** The id the next transaction will get (checkpoints record it). */
    public long nextTxnId() {
        return nextTxnId;
    }

    /** NEW_PAGE records (pages allocated by the transaction, logged against zeros) since the store was opened. */
    public long newPageRecords() {
        return newPageRecords;
    }

    /** REDO records written by commits since the store was opened. */
    public long redoRecords() {
        return redoRecords;
    }

    /** Bytes of those REDO records. */
    public long redoBytes() {
        return redoBytes;
    }

    /**
     * Accounts one finished commit: the caller ({@code Transaction.commit}) measured the whole log part, the
     * checkpoint after it and the total, all under the store latch.
     */
    public void commitFinished(long logNanos, long checkpointNanos, long totalNanos) {
        commits++;
        commitLogNanos += logNanos;
        commitCheckpointNanos += checkpointNanos;
        commitTotalNanos += totalNanos;
    }

    /** Transactions rolled back ({@link #abort}) since the store was opened. */
    public long aborts() {
        return aborts;
    }

    /** A snapshot of the commit counters. */
    public CommitStats commitStats() {
        return new CommitStats(
                commits,
                commitPages,
                redoRecords,
                redoBytes,
                commitPreimageNanos,
                commitReprotectNanos,
                commitStableNanos,
                commitDiffNanos,
                commitAppendNanos,
                commitFlushNanos,
                commitLogNanos,
                commitCheckpointNanos,
                commitTotalNanos,
                commitCardPages,
                commitCards);
    }

    /** The LSN of the record the last {@link #logPage} appended (0: none). */
    private long pageLsn;

    public long begin() {
        assert !active;
        txnId = nextTxnId++;
        firstLsn = 0;
        lastLsn = 0;
        if (barrier != null) {
            // scanning: every resident page gets its pre-image; kernel tracking: stores outside a transaction undone
            barrier.begin();
        }
        active = true;
        return txnId;
    }

    public boolean active() {
        return active;
    }

    public long txnId() {
        return txnId;
    }

    public long firstLsn() {
        return firstLsn;
    }

    public long lastLsn() {
        return lastLsn;
    }

    private long appendForTxn(byte[] rec) throws IOException {
        return appendForTxn(rec, rec.length);
    }

    private long appendForTxn(byte[] rec, int length) throws IOException {
        long lsn = log.append(rec, length);
        if (firstLsn == 0) {
            firstLsn = lsn;
        }
        lastLsn = lsn;
        return lsn;
    }

    @Override
    public void beforeSteal(long pageId, MemorySegment pre, MemorySegment cur) throws IOException {
        if (!active) {
            throw new IllegalStateException("transaction-dirty page " + pageId + " without a transaction");
        }
        boolean fresh = pool.isNewPage(pageId);
        if (fresh) {
            // a page this transaction allocated was installed as zeros, not read: the volume may hold a free
            // page's stale bytes there, so its first logged image is the whole page (redo cannot start from disk)
            ranges.count = 0;
            ranges.add(FULL_PAGE_START, pool.pageSize());
            pool.forgetNewPage(pageId); // written back below: later changes diff against that image
        } else {
            PageDiff.diff(pre, cur, PageDiff.mergeGap(2), ranges);
        }
        if (ranges.count == 0) {
            return;
        }
        long lsn = appendForTxn(LogRecord.encodePage(LogRecord.UPDATE, txnId, lastLsn, pageId, 0, pre, cur, ranges));
        PageHeader.setLsn(cur, lsn);
        pool.noteLogged(pageId, lsn);
    }

    /**
     * Logs the transaction's changes and makes its COMMIT durable. Where the frames hand pre-images over ({@link
     * PageFrames#detachLimit}: store-native with identity placement) and pages are diffed, the dirty state of all
     * dirty pages (up to that limit at once) ends with one call, which keeps their pre-images, and each page is
     * diffed against its pre-image in place, which is released after its records are appended. Otherwise, per
     * {@value #RUN} dirty pages: copy their pre-images, then end their dirty state together. Either way, with
     * store-native the pages are write-protected again with one {@code mprotect} per run of nearby frames, so a
     * later store faults and starts a new dirty period, and each page's {@linkplain PageFrames#stableImage stable
     * image} is diffed: exactly the bytes up to the clean point are logged, never a store that raced with commit.
     */
    public void commit() throws IOException {
        commit(true);
    }

    /**
     * {@link #commit()}, optionally leaving the COMMIT record in the log buffer: the caller forces the log
     * ({@code LogWriter.flush}) before it tells anyone the transaction committed (group commit: several
     * transactions, one force).
     */
    public void commit(boolean force) throws IOException {
        CommitEvent ev = null; // JFR: nothing allocated, no clock read unless a recording wants it
        long records0 = 0;
        long end0 = 0;
        if (Recorder.initialized() && CommitEvent.enabled()) {
            ev = new CommitEvent();
            ev.begin();
            records0 = redoRecords;
            end0 = log.endLsn();
        }
        PageFrames frames = pool.frames();
        int ps = pool.pageSize();
        if (curCopy == null) {
            curCopy = MemorySegment.ofArray(new byte[ps]);
        }
        int cardBytes = frames.cardBytes();
        long tc = System.nanoTime();
        long[] dirty = frames.dirtyPages();
        if (frames.keepsTwins()) {
            commitReprotectNanos += System.nanoTime() - tc; // kernel tracking: the scan re-protects written pages
        }
        int detach = commitLogging == CommitLogging.PAGE_DIFFS ? frames.detachLimit() : 0;
        for (int i = 0; i < dirty.length; ) {
            int n = Math.min(detach > 0 ? detach : RUN, dirty.length - i);
            if (detach > 0) {
                logDetached(frames, dirty, i, n, cardBytes, ps);
            } else {
                logCopied(frames, dirty, i, n, cardBytes, ps);
            }
            i += n;
        }
        long t0 = System.nanoTime();
        if (lastLsn != 0) {
            long lsn = appendForTxn(LogRecord.encodeCommit(txnId, lastLsn, System.currentTimeMillis()));
            CrashPoints.reach(CrashPoints.Point.COMMIT_LOGGED);
            if (force) {
                log.flush(lsn + 1);
                CrashPoints.reach(CrashPoints.Point.COMMIT_DURABLE);
            }
            commitFlushNanos += System.nanoTime() - t0;
        }
        if (barrier != null) {
            barrier.end();
        }
        pool.endNewPages();
        active = false;
        if (ev != null && ev.shouldCommit()) {
            ev.store = pool.name();
            ev.txnId = txnId;
            ev.pages = dirty.length;
            ev.redoRecords = redoRecords - records0;
            ev.logBytes = log.endLsn() - end0;
            ev.forced = force && lastLsn != 0;
            ev.commit();
        }
    }

    /** Reads the cards of {@code dirty[i..i+n)}, notes which are new pages, and holds them for logging. */
    private void prepareBatch(PageFrames frames, long[] dirty, int i, int n) {
        if (cards.length < n) {
            cards = new long[n];
            fresh = new boolean[n];
        }
        for (int k = 0; k < n; k++) {
            long p = dirty[i + k];
            // a page allocated in this transaction is logged as its difference from zeros (NEW_PAGE)
            fresh[k] = commitLogging == CommitLogging.PAGE_DIFFS && pool.isNewPage(p);
            cards[k] = frames.dirtyCards(p); // card marking: read before the dirty state ends
            if (cards[k] != -1L) {
                commitCardPages++;
                commitCards += Long.bitCount(cards[k]);
            }
        }
        for (int k = 0; k < n; k++) {
            pool.holdForLogging(dirty[i + k], true); // clean from here until logged (BufferPool)
        }
    }

    /**
     * Logs dirty pages {@code dirty[i..i+n)} whose pre-images the frames hand over: their dirty state ends with one
     * call that detaches the pre-images, each page is diffed against its own in place, and all are released once
     * the records are appended (or the commit fails).
     */
    private void logDetached(PageFrames frames, long[] dirty, int i, int n, int cardBytes, int ps) throws IOException {
        long t0 = System.nanoTime();
        prepareBatch(frames, dirty, i, n);
        long ta = System.nanoTime();
        DetachedPreimages pre = frames.clearDirtyDetaching(dirty, i, n);
        long tb = System.nanoTime();
        commitPreimageNanos += ta - t0;
        commitReprotectNanos += tb - ta;
        boolean twins = frames.keepsTwins();
        try {
            for (int k = 0; k < n; k++) {
                MemorySegment before = fresh[k] ? null : pre.preimage(k);
                if (before != null && before.equals(MemorySegment.NULL)) {
                    throw new IllegalStateException("dirty page " + dirty[i + k] + " had no pre-image at commit");
                }
                boolean logged = logPage(frames, dirty[i + k], k, before, cardBytes, ps);
                if (twins) {
                    keepTwin(pre, k, logged ? record : null);
                }
            }
        } finally {
            long tr = System.nanoTime();
            pre.release();
            commitPreimageNanos += System.nanoTime() - tr;
        }
    }

    /**
     * Logs dirty pages {@code dirty[i..i+n)} ({@code n <= RUN}) by copying their pre-images (disk form) to the heap
     * first, then ending their dirty state together: frames that cannot hand pre-images over (relocated,
     * swizzled, without native frames) and full-page logging (no pre-image at all).
     */
    private void logCopied(PageFrames frames, long[] dirty, int i, int n, int cardBytes, int ps) throws IOException {
        if (preCopies == null) {
            preCopies = new MemorySegment[RUN];
            for (int k = 0; k < RUN; k++) {
                preCopies[k] = MemorySegment.ofArray(new byte[ps]);
            }
        }
        long t0 = System.nanoTime();
        for (int k = 0; k < n; k++) {
            long p = dirty[i + k];
            if (commitLogging == CommitLogging.PAGE_DIFFS && !pool.isNewPage(p)) { // full pages: no diff, no copy
                frames.toDisk(preCopies[k].copyFrom(frames.preImage(p))); // both sides of the diff in disk form
            }
        }
        prepareBatch(frames, dirty, i, n);
        long ta = System.nanoTime();
        frames.clearDirty(dirty, i, n);
        long tb = System.nanoTime();
        commitPreimageNanos += ta - t0;
        commitReprotectNanos += tb - ta;
        for (int k = 0; k < n; k++) {
            logPage(frames, dirty[i + k], k, preCopies[k], cardBytes, ps);
        }
    }

    /**
     * Diffs page {@code p} (batch index {@code k}), whose dirty state ended, against {@code pre} (its pre-image in
     * disk form; unused for a new page or full-page logging) and appends its record. The page in place when no
     * conversion is needed (no 8 KiB copy): diffed and encoded, then kept only if no store reached it meanwhile;
     * otherwise the stable image (a copy, or the new pre-image a store after the clean point captured). Returns whether
     * a record was appended: it is then in {@link #record}, until the next page's.
     */
    private boolean logPage(PageFrames frames, long p, int k, MemorySegment pre, int cardBytes, int ps)
            throws IOException {
        long t0 = System.nanoTime();
        MemorySegment live = frames.liveImage(p);
        MemorySegment cur = live != null ? live : frames.stableImage(p, curCopy);
        long t1 = System.nanoTime();
        commitStableNanos += t1 - t0;
        commitPages++;
        int rec = changes(p, k, pre, cur, cards[k], cardBytes, ps);
        if (live != null && !frames.cleanSinceCleared(p)) {
            // a store after the clean point: the bytes read may include it
            rec = changes(p, k, pre, frames.stableImage(p, curCopy), cards[k], cardBytes, ps);
        }
        if (fresh[k]) {
            newPageRecords++;
        }
        long t2 = System.nanoTime();
        commitDiffNanos += t2 - t1;
        pageLsn = 0;
        if (rec >= 0) {
            long lsn = appendForTxn(record, rec);
            pageLsn = lsn;
            redoBytes += rec;
            redoRecords++;
            PageHeader.setLsn(frames.resident(p), lsn);
            pool.noteLogged(p, lsn);
            commitAppendNanos += System.nanoTime() - t2;
        }
        pool.holdForLogging(p, false);
        return rec >= 0;
    }

    /**
     * Kernel write tracking: page {@code k}'s pre-image becomes its twin, the page as logged: the after-images of its
     * record (at the start of {@code rec}; null: nothing changed) are applied to it, the record's LSN among them
     * (commit set the page's LSN in place after the diff, so the next diff against the twin does not see it change).
     * Exactly what was logged, so a store that raced with the diff and was not logged still differs from the twin at
     * the next commit (the kernel saw it after the clean point). No 8 KiB copy: only the changed bytes.
     */
    private void keepTwin(DetachedPreimages pre, int k, byte[] rec) {
        MemorySegment twin = pre.preimage(k);
        if (twin.equals(MemorySegment.NULL)) {
            return; // no pre-image: the frame was not dirty when cleaned (it is not open either)
        }
        long t0 = System.nanoTime();
        if (rec != null) {
            LogRecord.applyAfterImages(rec, twin);
            PageHeader.setLsn(twin, pageLsn);
        }
        pre.keepAsTwin(k);
        commitStableNanos += System.nanoTime() - t0;
    }

    /**
     * The REDO (or NEW_PAGE) record of dirty page {@code p} (batch index {@code k}) whose pre-image is {@code pre}
     * and whose image at the clean point is {@code cur}, encoded into {@link #record}: its length, or -1 when nothing
     * changed. Writes {@link #ranges}.
     */
    private int changes(long p, int k, MemorySegment pre, MemorySegment cur, long cardMask, int cardBytes, int ps) {
        byte type = LogRecord.REDO;
        if (commitLogging == CommitLogging.FULL_PAGES) {
            ranges.count = 0;
            ranges.add(FULL_PAGE_START, ps);
        } else if (fresh[k]) {
            PageDiff.diff(pool.zeroPage(), cur, PageDiff.mergeGap(1), ranges);
            type = LogRecord.NEW_PAGE;
        } else if (cardMask != -1L && barrier != null && barrier.regions(p, regions)) {
            // object marking, remembered sets: only the marked objects or recorded words
            PageDiff.diffRegions(pre, cur, regions, PageDiff.mergeGap(1), ranges);
        } else if (cardMask == -1L) {
            // the whole page, stopped at the first long changed range: if the rest shifted, the move search takes over
            PageDiff.diff(pre, cur, PageDiff.mergeGap(1), ranges, MoveSearch.MIN_BYTES);
        } else {
            PageDiff.diffCards(pre, cur, cardMask, cardBytes, PageDiff.mergeGap(1), ranges);
        }
        if (ranges.count == 0 && !fresh[k]) { // a new page is logged even if all zero: redo zeroes it
            return -1;
        }
        moves.count = 0;
        if (type == LogRecord.REDO && commitLogging != CommitLogging.FULL_PAGES) { // every stopped diff comes here
            // an insertion or deletion inside the page shifts the bytes after it: log a move, not the bytes
            moveSearch.search(pre, cur, PageHeader.SIZE, PageDiff.mergeGap(1), moves, ranges);
        }
        assert !ranges.partial : "page " + p + ": a diff stopped early was logged";
        int size = LogRecord.pageRecordSize(type, moves.count, ranges);
        if (record.length < size) {
            record = new byte[Math.max(size, 2 * record.length)];
        }
        return LogRecord.encodePageInto(record, type, txnId, lastLsn, p, 0, null, cur, moves, ranges);
    }

    /**
     * Ends a transaction whose changes were committed elsewhere (a page server client: the server logged
     * them); no page of it may still be dirty here.
     */
    public void committedElsewhere() {
        assert pool.frames().dirtyPages().length == 0 : "dirty pages after a remote commit";
        pool.stamps().entriesChanged(); // what the server applied reaches this cache as pages, not as tree changes
        pool.endNewPages();
        active = false;
    }

    /** Rolls the transaction back. */
    public void abort() throws IOException {
        AbortEvent ev = null;
        if (Recorder.initialized() && AbortEvent.enabled()) {
            ev = new AbortEvent();
            ev.begin();
        }
        PageFrames frames = pool.frames();
        pool.stamps().entriesChanged(); // the undo below restores tree pages without the tree code
        long[] dirty = frames.dirtyPages();
        for (long p : dirty) {
            frames.restoring(p);
            frames.resident(p).copyFrom(frames.preImage(p));
            frames.clearDirty(p);
        }
        boolean logged = lastLsn != 0;
        if (logged) {
            lastLsn = undo(pool, log, reader, txnId, lastLsn, lastLsn);
            log.append(LogRecord.encodeEnd(txnId, lastLsn));
        }
        if (barrier != null) {
            barrier.end();
        }
        pool.endNewPages();
        active = false;
        aborts++;
        if (ev != null && ev.shouldCommit()) {
            ev.store = pool.name();
            ev.txnId = txnId;
            ev.pagesRestored = dirty.length;
            ev.logged = logged;
            ev.commit();
        }
    }

    /**
     * Undoes a transaction's logged UPDATEs from {@code from} backwards, writing a CLR for each.
     *
     * @param prev the transaction's last LSN (prevLsn of the first CLR)
     * @return the transaction's last LSN after the CLRs
     */
    public static long undo(BufferPool pool, LogWriter log, LogReader reader, long txnId, long from, long prev)
            throws IOException {
        log.flushAll(); // the reader reads from the files
        long lsn = from;
        long last = prev;
        while (lsn != 0) {
            LogRecord r = reader.read(lsn);
            if (r.txnId != txnId) {
                throw new StoreFormatException(
                        "log",
                        -1,
                        lsn,
                        "transaction of record at LSN " + lsn,
                        String.valueOf(txnId),
                        String.valueOf(r.txnId));
            }
            switch (r.type) {
                case LogRecord.UPDATE -> {
                    MemorySegment page = pool.fix(r.pageId);
                    // undo bytes are disk form: apply them to a disk-form copy, log it, swizzle back
                    MemorySegment disk = pool.frames()
                            .toDisk(MemorySegment.ofArray(new byte[(int) page.byteSize()])
                                    .copyFrom(page));
                    r.undo(disk);
                    long clr = log.append(LogRecord.encodePage(
                            LogRecord.CLR, txnId, last, r.pageId, r.prevLsn, null, disk, r.ranges()));
                    pool.frames().restoring(r.pageId);
                    page.copyFrom(pool.frames().toRuntime(disk));
                    PageHeader.setLsn(page, clr);
                    pool.noteLogged(r.pageId, clr);
                    pool.unpin(r.pageId);
                    last = clr;
                    lsn = r.prevLsn;
                }
                case LogRecord.CLR -> lsn = r.undoNextLsn;
                default -> lsn = r.prevLsn; // REDO (not redone for losers) and others: nothing to undo
            }
        }
        return last;
    }
}
