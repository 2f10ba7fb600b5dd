package dev.quickstore.core;

import dev.quickstore.core.btree.RootDirectory;
import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.buffer.CardBarrier;
import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.buffer.SoftwareFrames;
import dev.quickstore.core.buffer.WriteBarrier;
import dev.quickstore.core.error.PageFaultRefusedException;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.error.StoreLockedException;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogWriter;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.core.recovery.Checkpointer;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.software.Swizzler;
import dev.quickstore.core.space.ExtentAllocator;
import dev.quickstore.core.space.LargeObjects;
import dev.quickstore.core.space.ObjectAllocator;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.core.stats.RecoveryStats;
import dev.quickstore.core.stats.StoreStats;
import dev.quickstore.core.txn.TransactionManager;
import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.core.volume.DoubleWriteBuffer;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.LocatingFileIO;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.core.volume.Volume;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.mmu.FaultCounters;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * An opened store: the embedded storage manager over one volume (facade; see docs/architecture-core.md).
 *
 * <pre>{@code
 * try (Store store = Store.create(dir);
 *      Transaction tx = store.begin()) {
 *     long a = tx.allocate(64);
 *     tx.write(a, 0, bytes);
 *     tx.setRoot("first", a);
 *     tx.commit();
 * }
 * }</pre>
 *
 * <p>This class is the facade, nothing else: each public operation is a few lines under the latch that delegate to a
 * mechanism package. The order of opening (double-write restore, header, frames, control file, log analysis, redo,
 * undo, bootstrap, checkpoint, placement) is stated in one place, {@link OpeningOrder}, whose parts the constructor
 * keeps as this handle's fields; a step of that order that is more than a call is its own class: the frames and write
 * detection the options select ({@link FramesByOptions}), redo and undo with their event and counts ({@link
 * RecoveryAtOpen}). The counters' snapshots are taken by {@link StatsSnapshots}. A store handle is either the embedded
 * store over a directory ({@link #open}, {@link #create}) or a page server's client ({@link #connect}: the same
 * mechanisms over the server's pages, {@link PageServerClient}); a page server serves its pages and applies its
 * clients' commits through {@link ServedStore} ({@link ClientCommits}).
 *
 * <p>One transaction at a time per opened store (design notes section 5); it may be used from several
 * threads (every operation takes the store latch). Opening a store held open by another process fails
 * with {@link StoreLockedException}. Fail-stop: the first failed log or page write poisons the handle;
 * every later call throws and the store must be reopened, which runs recovery.
 */
public final class Store implements AutoCloseable {

    final StoreLatch latch = new StoreLatch();
    final Path dir;
    final FileIO io;
    final int pageSize;
    final Addresses addresses;
    final StoreOptions options;
    private final Closeable fileLock;
    final Volume volume;
    final DoubleWriteBuffer dwb;
    final LogWriter log;
    final LogReader logReader;
    final BufferPool pool;
    final ExtentAllocator extents;
    final ObjectAllocator objects;
    final LargeObjects largeObjects;
    final RootDirectory roots;
    final TransactionManager txns;
    final Checkpointer checkpointer;
    final RecoveryStats recovery;
    private final MappedFrames mappedFrames; // null in EXPLICIT mode
    private final WriteBarrier barrier; // the write-detection scheme: cards, or one built on them (WriteBarrier)
    private final Refusals refusals;
    /** Null for the embedded store; the page server underneath a client ({@link #connect}). */
    final PageServerClient client;

    private Transaction current;
    private Throwable poison;
    private boolean closed;
    /** The JMX bean (and the periodic JFR event's entry) while open; set by {@link #opened}. */
    private StoreBean bean;

    private Store(Path dir, StoreOptions options, FileIO rawIo) throws IOException {
        this(null, dir, null, options, rawIo);
    }

    /**
     * A page server client ({@link #connect}): the same mechanisms over the server's pages. No volume file, no
     * log, no recovery here (the server's); frames are the client cache's arena at the store's preferred base.
     */
    private Store(PageServerClient client, StoreOptions options, String name) throws IOException {
        this(client, Path.of(name), name, options, null);
    }

    /**
     * Opens the embedded store in {@code dir} ({@code client} null, through {@code rawIo}) or a page server's client
     * named {@code name}, in {@link OpeningOrder}'s order, and keeps the parts.
     */
    private Store(PageServerClient client, Path dir, String name, StoreOptions options, FileIO rawIo)
            throws IOException {
        this.client = client;
        this.dir = dir;
        this.options = options;
        OpeningOrder o = client == null
                ? new OpeningOrder(dir, options, rawIo)
                : new OpeningOrder(this, client, dir, options, name); // its pool asks this handle for refusals
        this.io = o.io;
        this.pageSize = o.pageSize;
        this.addresses = o.addresses;
        this.fileLock = o.fileLock;
        this.volume = o.volume;
        this.dwb = o.dwb;
        this.log = o.log;
        this.logReader = o.logReader;
        this.pool = o.pool;
        this.extents = o.extents;
        this.objects = o.objects;
        this.largeObjects = o.largeObjects;
        this.roots = o.roots;
        this.txns = o.txns;
        this.checkpointer = o.checkpointer;
        this.recovery = o.recovery;
        this.mappedFrames = o.mappedFrames;
        this.barrier = o.barrier;
        this.refusals = o.refusals;
        this.relocatedPages = o.relocatedPages;
    }

    /**
     * Connects to the page server at {@code uri} ({@code qs://host:port}; {@code qs serve}) as one of its
     * client processes: the same transactions, objects, roots and indexes as an opened store, over a cache of
     * the server's pages that is kept across transactions. Transactions are optimistic: a commit ships page
     * diffs with the versions of the pages read and throws {@link
     * dev.quickstore.core.remote.TransactionConflictException} (nothing applied) if another client's commit
     * changed one of them since; other clients' commits reach the cache as invalidations, applied when the
     * next transaction begins.
     *
     * @param secretFile a copy of the store's {@code server.secret} (mode 0600)
     * @throws dev.quickstore.core.remote.ServerUnavailableException if the server cannot be reached, refuses
     *     the client, or stops answering (then at any later call)
     */
    public static Store connect(String uri, Path secretFile, StoreOptions options) throws IOException {
        RemotePages remote = RemotePages.connect(uri, secretFile, CLIENT_TIMEOUT_MS, options.arenaBytes());
        boolean ok = false;
        try {
            java.net.InetSocketAddress a = RemotePages.parse(uri);
            Store s = opened(new Store(
                    new PageServerClient(remote, a.getAddress().getHostAddress() + ":" + a.getPort()),
                    options,
                    "qs-" + a.getAddress().getHostAddress() + ":" + a.getPort()));
            ok = true;
            return s;
        } finally {
            if (!ok) {
                remote.close();
            }
        }
    }

    /**
     * The deadline of a client's requests and page faults (system property {@code qs.client.timeoutMs}, 5,000
     * by default): a server that does not answer within it is unavailable.
     */
    public static final int CLIENT_TIMEOUT_MS = Integer.getInteger("qs.client.timeoutMs", 5000);

    /** Whether this handle is a page server's client ({@link #connect}) rather than the embedded store. */
    public boolean isClient() {
        return client != null;
    }

    /** QS-OR: adds the pages translated since the last commit to the commit (see MappedFrames). */
    void prepareOneTimeRelocation() {
        if (mappedFrames != null) {
            mappedFrames.prepareOneTimeCommit();
        }
    }

    /** QS-OR: the running transaction aborted (pages it converted are translated again). */
    void oneTimeRelocationAborted() {
        if (mappedFrames != null) {
            mappedFrames.oneTimeAborted();
        }
    }

    /** QS-OR: the commit prepared by {@link #prepareOneTimeRelocation} is durable. */
    void oneTimeRelocationCommitted() {
        if (mappedFrames != null) {
            mappedFrames.oneTimeCommitted();
        }
    }

    /** Pages whose loads involve pointer translation (0 once QS-OR committed every translated page). */
    public long pagesNeedingTranslation() {
        return mappedFrames == null ? 0 : mappedFrames.translatingPages();
    }

    /** Pages this handle committed in translated form (QS-OR). */
    public long pagesRelocatedOnce() {
        return mappedFrames == null ? 0 : mappedFrames.convertedPages();
    }

    /** Pages placed away from their preferred frame at open (0 without relocation). */
    private long relocatedPages;

    /** Pages placed away from their preferred frame when this store was opened (0 without relocation). */
    public long relocatedPages() {
        return relocatedPages;
    }

    /** Creates a new store in {@code dir} with default options and opens it. */
    public static Store create(Path dir) throws IOException {
        return create(dir, VolumeFile.DEFAULT_PAGE_SIZE, StoreOptions.defaults());
    }

    public static Store create(Path dir, int pageSize, StoreOptions options) throws IOException {
        return create(RealFileIO.INSTANCE, dir, pageSize, options);
    }

    static Store create(FileIO io, Path dir, int pageSize, StoreOptions options) throws IOException {
        VolumeFile.create(LocatingFileIO.of(io), dir, pageSize, FramesByOptions.pointerFormat(options));
        return opened(new Store(dir, options, io));
    }

    /** Opens an existing store, running recovery if it was not closed cleanly. */
    public static Store open(Path dir) throws IOException {
        return open(dir, StoreOptions.defaults());
    }

    public static Store open(Path dir, StoreOptions options) throws IOException {
        return opened(new Store(dir, options, RealFileIO.INSTANCE));
    }

    static Store open(FileIO io, Path dir, StoreOptions options) throws IOException {
        return opened(new Store(dir, options, io));
    }

    /**
     * A store that has opened becomes visible to management: its MXBean is registered ({@link StoreBean}) and
     * the periodic JFR event reports it until {@link #close}.
     */
    private static Store opened(Store s) throws IOException {
        boolean ok = false;
        try {
            s.bean = StoreBean.register(s);
            ok = true;
            return s;
        } finally {
            if (!ok) {
                s.close();
            }
        }
    }

    /** Whether {@link #close} ran (latch held by the caller, or a racy answer). */
    boolean isClosed() {
        return closed;
    }

    public int pageSize() {
        return pageSize;
    }

    /** The arena base: store addresses are {@code arenaBase + pageId * pageSize + offset}. */
    public long arenaBase() {
        return addresses.arenaBase();
    }

    /** The write detection in effect: PAGE_PROTECTION unless MAPPED mode with another option. */
    public WriteDetection writeDetection() {
        return barrier.detection();
    }

    /**
     * The card table of {@link WriteDetection#CARD_MARKING} (one byte per card of the view, 1 = marked in
     * this transaction), or {@link MemorySegment#NULL} under page protection.
     */
    public MemorySegment cardTable() {
        return barrier.table();
    }

    /** log2 of the card size, 0 under page protection. */
    public int cardShift() {
        return barrier.shift();
    }

    /**
     * Slow-path marks taken: a page's or card's first mark in a transaction (card marking), an object's first
     * (object marking), every recorded store (remembered sets), pages given a pre-image at begin (scanning).
     */
    public long cardMarks() {
        return barrier.marks();
    }

    /**
     * The write barrier's slow path (card marking; {@link CardBarrier#mark}).
     *
     * @throws StoreException under page protection, or if the page cannot be made resident
     */
    public void markCard(long address) {
        barrier.mark(address);
    }

    /** Whether the barrier needs range stores whole ({@link #markRange}): object marking, remembered sets. */
    public boolean barrierTakesRanges() {
        return barrier.takesRanges();
    }

    /**
     * The object API is about to store {@code length} bytes from {@code address} through the view, across pages (a
     * large object's run, {@code Blobs.spliceLarge}): under page protection the clean pages among them are made
     * writable together, their pre-images taken, instead of one write fault each ({@link
     * MappedFrames#announceWrites}). A hint: nothing changes for the other schemes, and a page it leaves out
     * faults as before.
     */
    public void announceWrites(long address, long length) {
        if (mappedFrames == null || length <= 0 || barrier.detection() != WriteDetection.PAGE_PROTECTION) {
            return;
        }
        long first = (address - arenaBase()) / pageSize;
        long last = (address + length - 1 - arenaBase()) / pageSize;
        int mark = enter();
        try {
            mappedFrames.announceWrites(first, last - first + 1);
        } finally {
            exit(mark);
        }
    }

    /** The write barrier's slow path for a store of {@code length} bytes from {@code address}. */
    public void markRange(long address, long length) {
        barrier.markRange(address, length);
    }

    /**
     * The application view of the arena (MAPPED mode): the object at store reference {@code a} lives at
     * offset {@code a - arenaBase()}. Plain loads and stores through it fault pages in and capture
     * pre-images in the C fault path; they are logged at commit like the store's own writes. The
     * segment is bounded to the arena (a wild offset throws IndexOutOfBoundsException) and shared by all
     * threads of the process; it becomes unusable when the store is closed.
     *
     * <p>Rules: access it only inside a transaction (a fault outside one is refused); call {@link
     * #checkPending()} per operation or object - not per field - to learn of refused faults (a refused
     * access reads zeros and its stores are dropped); stop storing through it before {@code commit} or
     * {@code abort} returns control to another thread; never pass its addresses to native code or
     * system calls.
     *
     * @throws StoreException in EXPLICIT mode (there is no application view)
     */
    public MemorySegment view() {
        if (mappedFrames == null) {
            throw new StoreException("store " + dir + " runs with FramesMode." + options.frames()
                    + ": there is no application view; open it with FramesMode.MAPPED (the default)");
        }
        return mappedFrames.arena().view();
    }

    private Swizzler swizzler;

    /**
     * Software persistence's residency check and swizzle over this store's frame region (FramesMode.SOFTWARE;
     * docs/software-mode.md): references resolved through it read their pages explicitly through the buffer
     * pool, and {@link Swizzler#markWrite} captures a page's pre-image on the running transaction's first write
     * to it. One per store; use it only from the thread running the store's transaction.
     *
     * @throws StoreException unless the store was opened with FramesMode.SOFTWARE
     */
    public Swizzler swizzler() {
        if (!(pool.frames() instanceof SoftwareFrames software)) {
            throw new StoreException("store " + dir + " runs with FramesMode." + options.frames()
                    + ": there is no software residency check; open it with FramesMode.SOFTWARE");
        }
        if (swizzler == null) {
            swizzler = new Swizzler(software.swizzling(), new SwizzlerAccess(this, software.swizzling()));
        }
        return swizzler;
    }

    /**
     * Throws {@link PageFaultRefusedException} if the data plane refused a fault on the view since the
     * last check, dooming the running transaction (it can then only be aborted). Costs one acquire load
     * when nothing is pending. Transactions also check at begin, at every operation and at commit.
     */
    public void checkPending() {
        if (!refusals.pending()) {
            return;
        }
        latch.lock();
        try {
            takePending();
        } finally {
            latch.unlock();
        }
    }

    /** Whether a refusal is waiting (one acquire load). */
    boolean hasPendingRefusal() {
        return refusals.pending();
    }

    /** Takes one pending refusal (latch held): dooms the running transaction and throws the typed form. */
    void takePending() {
        assert latch.isHeldByCurrentThread();
        refusals.take(current);
    }

    /** Drops the refusals still pending when a transaction ends by abort (its work is discarded anyway). */
    void discardPending() {
        refusals.discard();
    }

    /** The application view leaves the transaction: any fault on it is refused from now on. */
    void endViewTransaction() {
        refusals.endViewTransaction();
    }

    /**
     * A snapshot of the mapped arena's fault-path counters (read and write faults, bytes read, pre-image
     * bytes, time in the handler), cumulative since this store was opened; null in EXPLICIT mode.
     */
    public FaultCounters faultCounters() {
        return mappedFrames == null ? null : mappedFrames.arena().counters();
    }

    /** The mapped frames, null in the other modes (tests). */
    MappedFrames mappedFramesForTest() {
        return mappedFrames;
    }

    /** Frames holding bytes (tests). */
    int residentPagesForTest() {
        return pool.frames().residentCount();
    }

    /**
     * Texas mode's counters for this handle's arena (frames reserved, pages and words swizzled at fault time; docs
     * /texas-mode.md), or null if the store is not a Texas store.
     */
    public dev.quickstore.mmu.TexasCounters texasCounters() {
        return mappedFrames != null && mappedFrames.texas() != null
                ? mappedFrames.texas().counters()
                : null;
    }

    MappedFrames mappedFrames() {
        return mappedFrames;
    }

    public RecoveryStats recoveryStats() {
        return recovery;
    }

    /**
     * The ids of the pages resident now, including those the fault path loaded for the application (a
     * diagnostic: the OO7 driver reads the same pages again with pread to separate a cold run's I/O from its
     * fault handling).
     */
    public long[] residentPages() {
        return StatsSnapshots.residentPages(this);
    }

    /** A snapshot of the replacement counters ({@link PoolStats}). */
    public PoolStats poolStats() {
        return StatsSnapshots.poolStats(this);
    }

    /** The options this store was opened with. */
    public StoreOptions options() {
        return options;
    }

    /** Counters of this handle (this process only), taken under the store latch. */
    public StoreStats stats() {
        return StatsSnapshots.stats(this);
    }

    /** A snapshot of the commit counters ({@link CommitStats}), kept by the transaction manager. */
    public CommitStats commitStats() {
        return StatsSnapshots.commitStats(this);
    }

    /** The volume's page count: pages {@code [0, pageCount)} exist (what a page server may serve). */
    public long pageCount() {
        return run(extents::pageCount);
    }

    /** The volume's creation id (fixed when the store was created; a page server names its store by it). */
    public java.util.UUID creationId() {
        if (client != null) {
            return client.pages().storeId();
        }
        return run(() -> VolumeFile.readHeader(io, dir).creationId());
    }

    /** Starts the store's transaction; fails if one is already running. */
    public Transaction begin() {
        latch.lock();
        try {
            checkUsable();
            if (current != null) {
                throw new StoreException(
                        "a transaction is already active on this store (one transaction per opened store)");
            }
            if (mappedFrames != null) {
                mappedFrames.repairRefused(); // no scratch page of an earlier refusal may swallow stores
                takePending(); // a refusal outside any transaction surfaces here, before anything begins
            }
            if (client != null) {
                client.begin(); // invalidations applied, the cache reprotected (the read set starts empty)
            }
            current = new Transaction(this, txns.begin());
            if (mappedFrames != null) {
                mappedFrames.arena().transaction(true);
            }
            return current;
        } finally {
            latch.unlock();
        }
    }

    /** The running transaction, null between transactions (latch held). */
    Transaction running() {
        return current;
    }

    void finished(Transaction t) {
        assert latch.isHeldByCurrentThread();
        if (current == t) {
            current = null;
        }
        if (mappedFrames != null) {
            mappedFrames.arena().transaction(false);
            mappedFrames.repairRefused();
        }
        if (t.committed() && client == null) {
            objects.committed(); // its placement memos still describe the committed pages
        } else {
            objects.reset();
        }
        extents.reset();
    }

    /**
     * Takes a checkpoint now (writes back dirty pages, truncates the log). Nothing for a page server's client:
     * the server owns the log and checkpoints it.
     */
    public void checkpoint() {
        run(() -> {
            if (checkpointer == null) {
                return null;
            }
            checkpointer.checkpoint();
            return null;
        });
    }

    void maybeCheckpoint() throws IOException {
        if (checkpointer != null && checkpointer.due(options.checkpointLogBytes())) {
            checkpointer.checkpoint();
        }
    }

    /** Checks every page's checksum and the structural invariants (slots, bitmaps, B+trees). */
    public VerifyReport verify() {
        if (client != null) {
            return client.pages().verifyAtServer(); // the server's volume, checked at the server
        }
        return run(() -> new Verifier(this).run());
    }

    /** Work done under the latch; an I/O failure poisons the handle (fail-stop). */
    public interface IoWork<T> {
        T run() throws IOException;
    }

    /** Nesting of operations under the latch (index scan visitors may call back into the store). */
    private final OperationNest nest = new OperationNest(latch);

    <T> T run(IoWork<T> work) {
        int mark = enter();
        try {
            return work.run();
        } catch (IOException e) {
            throw poisonedBy(e);
        } finally {
            exit(mark);
        }
    }

    /**
     * Begins a store operation: takes the latch, checks the handle, returns the pin mark for {@link #exit}. The
     * pair is {@link #run} without its lambda, for the per-object operations of a transaction (issue #20).
     */
    int enter() {
        nest.enter(); // the latch, unless this operation is nested in one of this thread (OperationNest)
        try {
            checkUsable();
        } catch (RuntimeException e) {
            nest.exit();
            throw e;
        }
        return pool != null ? pool.pinMark() : 0;
    }

    /**
     * Ends a store operation begun by {@link #enter}: a nested one (index scan visitors) releases its own pins
     * unless the pool holds few ({@link BufferPool#endNestedOperation}); the outermost one of a running transaction keeps a few pages pinned for the next operation ({@link
     * BufferPool#endOperation}), any other releases every pin.
     */
    void exit(int mark) {
        try {
            if (pool != null) {
                if (nest.depth() > 1) {
                    pool.endNestedOperation(mark);
                } else {
                    pool.endOperation(current != null && current.isActive());
                }
            }
        } finally {
            nest.exit();
        }
    }

    /**
     * Whether the calling thread holds the latch inside a store operation ({@link #enter} without its exit). The depth
     * is read first: 0 outside every operation, so a top-level lookup does not read the latch's owner here and again
     * in {@link #enter}; a non-zero depth read by another thread than the holder is only a hint, which the owner check
     * then refuses.
     */
    boolean insideOperation() {
        return nest.depth() > 0 && latch.isHeldByCurrentThread();
    }

    /** An I/O failure under the latch poisons the handle (fail-stop); the exception to throw. */
    StoreException poisonedBy(IOException e) {
        poison = e;
        return new StoreException(
                "I/O failure in store " + dir + "; the handle is now unusable, reopen the store to recover: " + e, e);
    }

    void checkUsable() {
        if (closed) {
            throw new StoreException("store " + dir + " is closed");
        }
        if (poison != null) {
            throw new StoreException("store " + dir + " failed earlier (" + poison + "); reopen it to recover", poison);
        }
    }

    boolean poisoned() {
        return poison != null;
    }

    /** Aborts a running transaction, checkpoints (unless poisoned) and releases the files and the lock. */
    @Override
    public void close() throws IOException {
        latch.lock();
        try {
            if (closed) {
                return;
            }
            try {
                if (poison == null) {
                    if (current != null) {
                        current.abortUnderLatch();
                    }
                    if (checkpointer != null) {
                        checkpointer.checkpoint();
                    }
                }
            } catch (IOException e) {
                poison = e;
                throw e;
            } finally {
                closed = true;
                if (bean != null) {
                    bean.unregister(); // gone from JMX and from the periodic event before the arena closes
                    bean = null;
                }
                pool.close();
                if (client != null) {
                    client.close(); // the cache's arena (closed by the pool already) and both connections
                    return;
                }
                try (Closeable l = fileLock;
                        LogReader r = logReader;
                        LogWriter w = log;
                        DoubleWriteBuffer d = dwb;
                        Volume v = volume) {
                    assert l != null && r != null && w != null && d != null && v != null;
                }
            }
        } finally {
            latch.unlock();
        }
    }

    static UncheckedIOException unchecked(IOException e) {
        return new UncheckedIOException(e);
    }
}
