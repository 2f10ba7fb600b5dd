package dev.quickstore.core.buffer;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.events.EvictionEvent;
import dev.quickstore.core.events.Recorder;
import dev.quickstore.core.log.LogWriter;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.core.volume.DoubleWriteBuffer;
import dev.quickstore.core.volume.Volume;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.ReplacementClock;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The buffer pool: policy over {@link PageFrames}. It decides what is resident (a {@link Replacer}:
 * QuickStore's simplified clock, a classic clock over page protection, or a clock over store fixes), keeps the dirty page table (pages whose contents are newer than the volume,
 * with their recLSN), and writes pages back under the WAL rule: a page is written only after the log is
 * durable up to its page LSN, always through the {@link DoubleWriteBuffer}.
 *
 * <p>Two kinds of "dirty": <em>transaction-dirty</em> (the running transaction changed the page since
 * {@link PageFrames#markDirty}; its pre-image is held) and <em>disk-dirty</em> (logged changes not yet
 * on the volume; entry in {@link #dirtyPageTable}). Evicting a transaction-dirty page is a steal: the
 * {@link Stealer} first logs the page's changes with undo information, then the page is written back.
 * No-force: commit never writes pages; they are written when evicted or by a checkpoint.
 *
 * <p>Pinning ({@link OperationPins}): pages fixed during one store operation stay pinned until the end of the
 * operation, so segments handed out during an operation stay valid. A page fixed for write again in the same
 * transaction is handed out from {@link KeptWriteSegments} without a residency check or dirty mark.
 *
 * <p>With a data-plane policy ({@link DataPlaneReplacer}) the fault path evicts too, at any time: the pool then
 * publishes pins and disk-dirty pages as holds on the frames (a held frame is never evicted there), asks
 * the data plane's clock first when it needs a frame, and steals or writes back only when the clock finds
 * no clean unheld victim.
 */
public final class BufferPool {
    /** Logs a transaction-dirty page with undo information before it is stolen; sets its page LSN. */
    public interface Stealer {
        void beforeSteal(long pageId, MemorySegment preImage, MemorySegment contents) throws IOException;
    }

    private final PageFrames frames;
    private final Volume volume;
    private final DoubleWriteBuffer dwb;
    private final LogWriter log;
    private final Replacer clock;
    private final Map<Long, Long> dirtyPageTable = new HashMap<>();
    private final OperationPins pins;
    private final MemorySegment readBuffer;
    private final MemorySegment stealPre;
    private final MemorySegment stealCur;
    private Stealer stealer;
    /** The pages the running transaction allocated ({@link #fixNew}) and stole ({@link TransactionPages}). */
    private final TransactionPages txnPages = new TransactionPages();

    private final MemorySegment zeroPage;
    private long newInstalls;
    private final String name;
    public long reads;
    public long writes;
    /** Write-back batches (one WAL flush and one double write each) since the store was opened. */
    public long writeBackBatches;
    /** Walks of the dirty page table by an eviction looking for committed changes to write back in one batch. */
    public long writeBackWalks;
    /**
     * Size of the dirty page table up to which an eviction does not walk it again: the last walk left more than half
     * the pool disk-dirty because those pages are also dirty in the running transaction (they cannot be written back
     * before its commit). Without it every eviction walked the table again, O(pool) each; reset when a transaction
     * ends, as its pages then become writable.
     */
    private int writeBackWalkAbove;

    private long steals;
    private long evictions;
    /** What callers may keep from the pool, and until when ({@link PoolStamps}). */
    private final PoolStamps stamps = new PoolStamps();
    /** Pages fixed for write in this transaction, fixed again without a residency check or dirty mark. */
    private final KeptWriteSegments kept = new KeptWriteSegments();

    /**
     * @param name the store's name in events (its directory, or a client's server address)
     */
    public BufferPool(
            PageFrames frames, Volume volume, DoubleWriteBuffer dwb, LogWriter log, Replacer replacer, String name) {
        this.name = name;
        this.frames = frames;
        this.clock = replacer;
        this.pins = new OperationPins(replacer, frames.capacity());
        this.volume = volume;
        this.dwb = dwb;
        this.log = log;
        this.readBuffer = MemorySegment.ofArray(new byte[frames.pageSize()]);
        this.stealPre = MemorySegment.ofArray(new byte[frames.pageSize()]);
        this.stealCur = MemorySegment.ofArray(new byte[frames.pageSize()]);
        this.zeroPage = MemorySegment.ofArray(new byte[frames.pageSize()]).asReadOnly();
    }

    /** Told of every fix before the page is looked up (a page server client's storage manager). */
    public interface FixObserver {
        void fixed(long pageId, boolean forWrite) throws IOException;
    }

    private FixObserver fixObserver;

    /** Sets the {@link FixObserver}; null: nobody. */
    public void setFixObserver(FixObserver observer) {
        this.fixObserver = observer;
        stamps.observed(observer != null);
    }

    public void setStealer(Stealer s) {
        this.stealer = s;
    }

    public Replacer replacer() {
        return clock;
    }

    public PageFrames frames() {
        return frames;
    }

    /** The store's name in events ({@code dev.quickstore.core.events}): its directory or a server address. */
    public String name() {
        return name;
    }

    public int pageSize() {
        return frames.pageSize();
    }

    public Volume volume() {
        return volume;
    }

    /**
     * Resident memory of {@code pageId}, read (and checksum-verified) from the volume if needed; pinned
     * until the end of the current (possibly nested) store operation or an explicit {@link #unpin}.
     */
    public MemorySegment fix(long pageId) throws IOException {
        return fix(pageId, false);
    }

    private MemorySegment fix(long pageId, boolean forWrite) throws IOException {
        if (fixObserver != null) {
            fixObserver.fixed(pageId, forWrite);
        }
        pins.pin(pageId); // before the residency check (qs_clock.c)
        MemorySegment seg = frames.resident(pageId);
        if (seg == null) {
            makeRoom();
            volume.read(pageId, readBuffer);
            reads++;
            seg = frames.install(pageId, readBuffer);
            clock.add(pageId);
        } else {
            clock.add(pageId); // a reference; also adopts a page the fault path loaded on its own
        }
        return seg;
    }

    /**
     * A page the running transaction has just allocated (its allocation bit was clear), fixed for writing without
     * reading it: its bytes on the volume do not matter (zeros past the file's end, or a free page's stale bytes),
     * since the caller formats it. Where the frames can ({@link PageFrames#makeNew}: mapped frames under identity
     * placement), one call makes it new: resident if it was not (no read, no checksum check), its bytes zeros
     * whatever the frame held, dirty against a shared page of zeros - no 8 KiB pre-image copied or kept (issue #20,
     * docs/results.md "New pages against a zero pre-image"). Elsewhere it is installed as zeros if it is not
     * resident, and its bytes captured as its pre-image. Either way commit logs it as one NEW_PAGE record (its
     * difference from zeros, redone onto a zeroed page) instead of a REDO diff against a pre-image read from disk,
     * and a steal logs it whole ({@link #isNewPage}). This is the "new page" log record of ARIES and ESM (Franklin
     * et al., "Crash Recovery in Client-Server EXODUS", SIGMOD 1992: a newly allocated page needs no before image);
     * issue #20.
     * With a {@link FixObserver} (a page server client, whose server logs) it is {@link #fixForWrite}.
     */
    public MemorySegment fixNew(long pageId) throws IOException {
        return fixNew(pageId, null);
    }

    /** How many pages after a newly allocated page are free too, at most {@code max} (the allocator's next ones). */
    @FunctionalInterface
    public interface FreePagesAfter {
        int count(long pageId, int max) throws IOException;
    }

    /**
     * {@link #fixNew(long)}, with write-ahead for new pages: when the transaction has allocated a new page before
     * this one (a stream of allocations), the free pages after it ({@code freeAfter}, at most {@link
     * PageFrames#writeAheadFrames}) are made new with it ({@link PageFrames#makeNew}; those not resident only while
     * the pool has room for them without evicting), or, where the frames cannot, the resident ones are made
     * writable with it ({@link PageFrames#markDirtyAhead}). A page made new ahead and never allocated costs an empty
     * diff at commit (and a frame of zeros); one made writable ahead, its pre-image too.
     */
    public MemorySegment fixNew(long pageId, FreePagesAfter freeAfter) throws IOException {
        if (fixObserver != null || txnPages.isStolen(pageId)) {
            // freed, stolen and allocated again by this transaction: its undo records start from the stolen
            // image, so the frame must hold that image (and the pre-image be it), not zeros (StolenNewPageTest)
            return fixForWrite(pageId);
        }
        pins.pin(pageId);
        MemorySegment seg = frames.resident(pageId);
        boolean install = seg == null;
        if (install) {
            makeRoom();
            newInstalls++;
        }
        int ahead = 0;
        if (freeAfter != null && txnPages.anyNew() && frames.writeAheadFrames() > 0) {
            ahead = freeAfter.count(pageId, frames.writeAheadFrames());
        }
        // pages installed ahead take frames: only as many as the pool has room for without evicting (the resident
        // count is a downcall: asked only when there are pages ahead)
        int installs = ahead == 0 ? 0 : Math.min(ahead, frames.capacity() - frames.residentCount() - (install ? 1 : 0));
        long made = frames.makeNew(pageId, 1 + ahead, Math.max(0, installs));
        if (made < 0) { // not for these frames: install the zero image and capture it as the pre-image
            if (install) {
                seg = frames.install(pageId, zeroPage);
            }
            clock.add(pageId);
            frames.markDirtyAhead(pageId, install ? 0 : ahead);
        } else {
            for (long k = 0; k < Math.max(made, 1); k++) {
                clock.add(pageId + k);
            }
            if (install) {
                seg = frames.resident(pageId);
                assert seg != null : "page " + pageId + " was made new but is not resident";
            }
        }
        txnPages.addNew(pageId);
        return seg;
    }

    /** Whether the running transaction allocated {@code pageId} through {@link #fixNew} (and it was not stolen). */
    public boolean isNewPage(long pageId) {
        return txnPages.isNew(pageId);
    }

    /** After a steal logged the new page whole: from here its image on the volume is the base of later diffs. */
    public void forgetNewPage(long pageId) {
        txnPages.forgetNew(pageId);
    }

    /** The running transaction ended (committed or rolled back): no page is new or stolen by it any more. */
    public void endNewPages() {
        txnPages.clear();
        writeBackWalkAbove = 0; // the ended transaction's disk-dirty pages can be written back now
        stamps.transactionEnded();
    }

    /** The stamps under which callers keep a fixed segment or a tree's root ({@link PoolStamps}). */
    public PoolStamps stamps() {
        return stamps;
    }

    /** Pages made resident as zeros by {@link #fixNew}, without a read, since the store was opened. */
    public long newInstalls() {
        return newInstalls;
    }

    /** A zero page: the image {@link #fixNew} installs (never written). */
    public MemorySegment zeroPage() {
        return zeroPage;
    }

    /** {@link #fix} plus the write notification (pre-image capture) for the running transaction. */
    public MemorySegment fixForWrite(long pageId) throws IOException {
        MemorySegment seg = kept.find(pageId, true, stamps.writeStamp());
        if (seg != null) {
            pins.pin(pageId); // resident and dirty: the pin may follow the check
            return seg;
        }
        seg = fix(pageId, true);
        frames.markDirty(pageId);
        kept.keep(pageId, seg, true, stamps.writeStamp());
        return seg;
    }

    /**
     * {@link #fixForWrite} of a page the application never stores to through the view (a B+tree node): the frames
     * may keep the view write-protected ({@link PageFrames#markDirtyStoreOnly}), which saves an {@code mprotect}
     * per page and transaction on the mapped store.
     */
    public MemorySegment fixForStoreWrite(long pageId) throws IOException {
        MemorySegment seg = kept.find(pageId, false, stamps.writeStamp());
        if (seg != null) {
            pins.pin(pageId); // resident and dirty: the pin may follow the check
            return seg;
        }
        seg = fix(pageId, true);
        frames.markDirtyStoreOnly(pageId);
        kept.keep(pageId, seg, false, stamps.writeStamp());
        return seg;
    }

    public void unpin(long pageId) {
        pins.unpin(pageId);
    }

    public void unpinAll() {
        pins.unpinAll();
    }

    /** A mark for {@link #releasePins}: pins taken after it can be released together. */
    public int pinMark() {
        return pins.mark();
    }

    /** Unpins the pages pinned since {@code mark} (the end of a nested operation). */
    public void releasePins(int mark) {
        pins.releaseSince(mark);
    }

    /** {@link OperationPins#nestedBound}. */
    public int nestedPinBound() {
        return pins.nestedBound();
    }

    /** Ends a nested store operation: {@link OperationPins#endNestedOperation}. */
    public void endNestedOperation(int mark) {
        pins.endNestedOperation(mark);
    }

    /** Ends the outermost store operation: {@link OperationPins#endOperation}. */
    public void endOperation(boolean retain) {
        pins.endOperation(retain);
    }

    /** Pages pinned now (tests). */
    public int pinnedCount() {
        return pins.count();
    }

    /** Records that {@code pageId} holds logged changes up to a record at {@code lsn} not yet on disk. */
    public void noteLogged(long pageId, long lsn) {
        if (dirtyPageTable.putIfAbsent(pageId, lsn) == null) {
            clock.hold(pageId, ReplacementClock.HOLD_WAL, true); // the data plane must not drop it before write-back
        }
    }

    public Map<Long, Long> dirtyPageTable() {
        return dirtyPageTable;
    }

    private void makeRoom() throws IOException {
        if (!clock.inDataPlane()) {
            for (long p : frames.adoptNativeLoads()) {
                clock.add(p);
            }
        }
        if (frames.residentCount() < frames.capacity()) {
            return;
        }
        EvictionEvent ev = beginEvictions();
        long e0 = evictions, w0 = writes, s0 = steals;
        while (frames.residentCount() >= frames.capacity()) {
            evictOne();
        }
        endEvictions(ev, EvictionEvent.LOAD, e0, w0, s0);
    }

    /** An eviction batch's event, begun, if a recording wants it; else null (the event class is not even loaded). */
    private static EvictionEvent beginEvictions() {
        return Recorder.initialized() ? EvictionEvent.beginIfEnabled() : null;
    }

    private void endEvictions(EvictionEvent ev, String cause, long e0, long w0, long s0) {
        if (ev != null) {
            ev.commitBatch(name, cause, evictions - e0, writes - w0, steals - s0);
        }
    }

    /**
     * Brings the resident count back within the capacity after the data plane overcommitted it (every
     * resident frame was dirty or held when a fault needed one), and keeps the next faults from having to:
     * when the pool is full, the disk-dirty pages are written back (WAL rule, double write), which lifts
     * their holds so that the fault path may evict them. Called after every commit; does nothing while the
     * pool has free frames.
     */
    public void trim() throws IOException {
        if (!clock.inDataPlane() || frames.residentCount() < frames.capacity()) {
            return;
        }
        EvictionEvent ev = beginEvictions();
        long e0 = evictions, w0 = writes, s0 = steals;
        writeBackAll();
        while (frames.residentCount() > frames.capacity()) {
            if (!evictOne(false)) {
                break; // everything left is pinned by the running operation
            }
        }
        endEvictions(ev, EvictionEvent.TRIM, e0, w0, s0);
    }

    private void evictOne() throws IOException {
        evictOne(true);
    }

    private boolean evictOne(boolean mustFind) throws IOException {
        if (clock.inDataPlane()) {
            if (clock.evictByPolicy() >= 0) {
                evictions++;
                stamps.residencyChanged();
                return true;
            }
            if (!dirtyPageTable.isEmpty()) {
                // the clock found only dirty or held frames: write the disk-dirty ones back in one batch,
                // which lifts their WAL holds, rather than one at a time below
                writeBackAll();
                if (clock.evictByPolicy() >= 0) {
                    evictions++;
                    stamps.residencyChanged();
                    return true;
                }
            }
        }
        if (dirtyPageTable.size() > frames.capacity() / 2 && dirtyPageTable.size() > writeBackWalkAbove) {
            // Committed changes not yet written back fill more than half the pool, and the search below prefers
            // clean pages: the reads would share what is left of the pool, and with every page disk-dirty
            // each would write back one page and then evict the page it just read. Write them back in one
            // batch (one WAL flush, one double write) instead: the pool is whole again (DiskDirtyPoolTest; OO7
            // medium on e through 2,048 pages, docs/results.md).
            writeBackWalks++;
            writeBackAll();
            if (dirtyPageTable.size() > frames.capacity() / 2) {
                // what is left is dirty in the running transaction too: walk again only once the table grew by a
                // quarter of the pool, or after the transaction ended (DiskDirtyPoolTest)
                writeBackWalkAbove = dirtyPageTable.size() + frames.capacity() / 4;
            }
        }
        frames.collectWritten(); // kernel tracking: a twin written in this transaction is a dirty page (steal it)
        long v = clock.victim(p -> !pins.contains(p) && !frames.isDirty(p) && !dirtyPageTable.containsKey(p));
        if (v < 0) {
            v = clock.victim(p -> !pins.contains(p) && !frames.isDirty(p));
        }
        if (v < 0) {
            v = clock.victim(p -> !pins.contains(p));
        }
        if (v < 0 && !mustFind) {
            return false;
        }
        if (v < 0) {
            throw new StoreException(
                    "buffer pool of " + frames.capacity() + " pages is too small: all resident pages are in use by"
                            + " the current operation; open the store with a larger bufferPoolPages");
        }
        List<Long> batch = new ArrayList<>();
        batch.add(v);
        if (frames.isDirty(v)) {
            // A steal: the running transaction's pages fill the pool. Steal a batch of them at once, so that
            // the WAL force, the double write's force and the volume's force are paid once per batch rather
            // than once per page (the next faults then find free frames).
            while (batch.size() < STEAL_BATCH) {
                long w = clock.victim(p -> !pins.contains(p) && frames.isDirty(p) && !batch.contains(p));
                if (w < 0) {
                    break;
                }
                batch.add(w);
            }
        }
        List<Long> toWrite = new ArrayList<>(batch.size());
        for (long p : batch) {
            // held until evicted below: other threads of the transaction fault concurrently (their loads never
            // wait for this latch), and the data plane's clock may evict any clean unheld frame - a stolen page
            // is clean from its clearDirty until its changes are logged and written back
            holdForLogging(p, true);
            frames.beforeEvict(p);
            if (frames.isDirty(p)) {
                steal(p);
            }
            if (dirtyPageTable.containsKey(p)) {
                toWrite.add(p);
            }
        }
        writeBack(toWrite);
        for (long p : batch) {
            frames.evict(p);
            clock.remove(p);
            holdForLogging(p, false);
            evictions++;
            stamps.residencyChanged();
        }
        return true;
    }

    /**
     * Keeps the data plane's clock from evicting page {@code p} while its dirty state has ended but its changes
     * are not logged yet (a commit's or a steal's window; {@code on} false ends it). Other threads of the
     * transaction take faults meanwhile, and a fault may evict any clean frame that holds nothing; evicting this
     * one would drop changes that are neither in the log nor on disk. The caller holds no pin on {@code p}.
     */
    public void holdForLogging(long p, boolean on) {
        clock.hold(p, ReplacementClock.HOLD_PINNED, on);
    }

    /** Pages stolen together when the running transaction's dirty pages fill the pool. */
    static final int STEAL_BATCH = 32;

    /**
     * Logs the running transaction's changes to resident page {@code p} so that it can be written back: copy the
     * pre-image, end the dirty state (with store-native: stores fault again from here), then take a stable image;
     * exactly the changes up to the clean point are logged and written.
     */
    private void steal(long p) throws IOException {
        stamps.residencyChanged();
        frames.toDisk(stealPre.copyFrom(frames.preImage(p)));
        frames.clearDirty(p);
        MemorySegment cur = frames.stableImage(p, stealCur);
        stealer.beforeSteal(p, stealPre, cur);
        txnPages.addStolen(p);
        PageHeader.setLsn(frames.resident(p), PageHeader.lsn(cur));
        steals++;
    }

    /** Writes back the given disk-dirty, not transaction-dirty resident pages (WAL rule, double write). */
    void writeBack(List<Long> pages) throws IOException {
        if (pages.isEmpty()) {
            return;
        }
        writeBackBatches++;
        long[] ids = new long[pages.size()];
        MemorySegment[] images = new MemorySegment[pages.size()];
        long maxLsn = 0;
        for (int i = 0; i < ids.length; i++) {
            ids[i] = pages.get(i);
            images[i] = frames.stableImage(ids[i], null);
            maxLsn = Math.max(maxLsn, PageHeader.lsn(images[i]));
        }
        log.flush(maxLsn + 1); // WAL rule
        dwb.writeBack(volume, ids, images, ids.length);
        writes += ids.length;
        for (long id : ids) {
            dirtyPageTable.remove(id);
            clock.hold(id, ReplacementClock.HOLD_WAL, false);
        }
    }

    /** Writes back every disk-dirty page that the running transaction has not changed. */
    public void writeBackAll() throws IOException {
        List<Long> pages = new ArrayList<>();
        for (long p : dirtyPageTable.keySet()) {
            if (!frames.isDirty(p)) {
                pages.add(p);
            }
        }
        pages.sort(null);
        writeBack(pages);
    }

    /** Evicts every resident page (none may be dirty); for remapping the arena before relocation. */
    public void evictAll() throws IOException {
        writeBackAll();
        for (long p : frames.adoptNativeLoads()) {
            clock.add(p);
        }
        stamps.residencyChanged();
        for (long p : frames.residentPages()) {
            frames.evict(p);
            clock.remove(p);
        }
    }

    /** Drops every resident page (after the store was closed or poisoned). */
    public void close() {
        frames.close();
    }

    /** Dirty pages logged and written back to make room (steals). */
    public long steals() {
        return steals;
    }

    /**
     * A snapshot of the replacement counters; {@code c} is the mapped arena's fault-path counters (null in
     * EXPLICIT mode). With a data-plane clock the evictions are the arena's (they include the fault path's).
     */
    public PoolStats stats(FaultCounters c) {
        return new PoolStats(
                frames.capacity(),
                frames.residentCount(),
                clock.inDataPlane() ? c.evictions() : evictions,
                clock.reprotectAlls(),
                clock.reprotectRuns(),
                clock.framesCleared(),
                c != null ? c.clockVictims() : 0,
                c != null ? c.referenceFaults() : 0,
                c != null ? c.overcommits() : 0,
                steals);
    }
}
