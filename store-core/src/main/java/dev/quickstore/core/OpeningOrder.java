package dev.quickstore.core;

import dev.quickstore.core.btree.RootDirectory;
import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.ArenaPlacement;
import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.buffer.CardBarrier;
import dev.quickstore.core.buffer.MappedFrames;
import dev.quickstore.core.buffer.Replacer;
import dev.quickstore.core.buffer.WriteBarrier;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogWriter;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.recovery.Checkpointer;
import dev.quickstore.core.recovery.Recovery;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.space.ExtentAllocator;
import dev.quickstore.core.space.LargeObjects;
import dev.quickstore.core.space.ObjectAllocator;
import dev.quickstore.core.stats.RecoveryStats;
import dev.quickstore.core.txn.TransactionManager;
import dev.quickstore.core.volume.ControlFile;
import dev.quickstore.core.volume.DoubleWriteBuffer;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.LocatingFileIO;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.core.volume.Volume;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.core.volume.VolumeHeader;
import dev.quickstore.mmu.Replacement;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * The order in which a {@link Store} handle is opened: the one place that states it, step by step, for both kinds
 * of handle (docs/architecture-core.md, "The recovery path"). {@link Store}'s constructor keeps the parts built
 * here as its fields.
 *
 * <ul>
 *   <li><b>The embedded store</b> over a directory ({@link Store#open}, {@link Store#create}): the directory's
 *       lock, double-write restore (torn pages), header, frames ({@link FramesByOptions}), control file, log
 *       analysis, redo and undo ({@link RecoveryAtOpen}; ARIES-style, docs/recovery.md), bootstrap of a new volume,
 *       checkpoint, placement ({@link ArenaPlacement}: relocation, or Texas mode's swizzling from here on), and the
 *       arena memory of the first frames allocated ahead. On failure nothing stays open and the lock is
 *       released.</li>
 *   <li><b>A page server's client</b> ({@link Store#connect}): the same mechanisms over the server's pages
 *       ({@link PageServerClient}). No volume file, no log, no recovery here (the server's); frames are the client
 *       cache's arena at the store's preferred base.</li>
 * </ul>
 */
final class OpeningOrder {
    final FileIO io;
    final int pageSize;
    final Addresses addresses;
    final Closeable fileLock;
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
    /** Null unless the frames are mapped (Texas or MAPPED mode, and every client). */
    final MappedFrames mappedFrames;
    /** The write-detection scheme: cards, or one built on them ({@link WriteBarrier}). */
    final WriteBarrier barrier;

    final Refusals refusals;
    /** Pages placed away from their preferred frame at open (0 without relocation). */
    long relocatedPages;

    /** Opens the embedded store in {@code dir} (its volume exists) with {@code options}, through {@code rawIo}. */
    OpeningOrder(Path dir, StoreOptions options, FileIO rawIo) throws IOException {
        FileIO io = LocatingFileIO.of(rawIo); // every failed operation names its file and offset
        this.io = io;
        if (!io.exists(VolumeFile.volumePath(dir))) {
            VolumeFile.readHeader(io, dir); // throws NoSuchFileException with the right message
        }
        this.fileLock = VolumeFile.lock(io, dir);
        boolean ok = false;
        Volume vol = null;
        MappedFrames mf = null;
        DoubleWriteBuffer dw = null;
        LogReader reader = null;
        LogWriter lw = null;
        try {
            vol = new Volume(io.open(VolumeFile.volumePath(dir), false), peekPageSize(io, dir));
            dw = new DoubleWriteBuffer(io.open(dir.resolve(VolumeFile.DOUBLE_WRITE_FILE), true), vol.pageSize());
            List<Long> restored = dw.restore(vol);
            VolumeHeader header = VolumeFile.readHeader(io, dir);
            FramesByOptions.checkReferenceForm(
                    header, options.frames(), VolumeFile.volumePath(dir).toString());
            this.pageSize = header.pageSize();
            FramesByOptions frames = FramesByOptions.open(io, dir, header, vol, options);
            mf = frames.mapped;
            this.addresses = frames.addresses;
            RecoveryAtOpen recovering = RecoveryAtOpen.start(); // timed: analysis, redo, undo
            Path ctlPath = dir.resolve(VolumeFile.CONTROL_FILE);
            Path logDir = dir.resolve(VolumeFile.LOG_DIR);
            ControlFile ctl = ControlFile.openOrCreate(io, dir, options.logSegmentBytes());
            reader = new LogReader(io, logDir, ctl.logSegmentBytes());
            Recovery.Analysis analysis = Recovery.analyze(reader, ctl);
            lw = new LogWriter(io, logDir, ctl.logSegmentBytes(), analysis.endLsn);
            reader.forget(); // the writer may have cut off (deleted) torn segments the analysis opened
            lw.onSegmentsDeleted(reader::forget);
            this.volume = vol;
            this.dwb = dw;
            this.log = lw;
            this.logReader = reader;
            this.mappedFrames = mf;
            this.barrier = FramesByOptions.barrier(mf, new CardBarrier(mf, dir, pageSize), options.writeDetection());
            this.refusals = new Refusals(mf, addresses, dir, null);
            this.pool = new BufferPool(
                    frames.frames,
                    vol,
                    dw,
                    lw,
                    Replacer.of(mf != null ? options.replacement() : Replacement.STORE_CLOCK, frames.frames),
                    dir.toString());
            this.txns = new TransactionManager(pool, lw, reader, analysis.maxTxnId + 1, options.commitLogging());
            pool.setStealer(txns);
            txns.writeBarrier(barrier);
            this.recovery = recovering.redoAndUndo(dir, reader, analysis, pool, lw, restored);
            this.extents = new ExtentAllocator(pool, pageSize, header.extentPages());
            this.objects = new ObjectAllocator(pool, extents, addresses, header.extentPages());
            this.largeObjects = new LargeObjects(pool, extents, addresses);
            this.roots = new RootDirectory(pool, extents);
            this.checkpointer = new Checkpointer(pool, lw, txns, io, ctlPath);
            if (mf != null) {
                mf.inTransaction(txns::active);
                mf.reserveThrough(extents.pageCount()); // every page of the volume is reachable through the view
            }
            boolean created = extents.pageCount() <= 1; // relocateFraction applies to existing stores only
            if (created) {
                txns.begin();
                extents.bootstrap();
                txns.commit();
                pool.unpinAll();
            }
            checkpointer.checkpoint();
            if (frames.texas) {
                // recovery and bootstrap worked on persistent-form images; from here on the store's own reads
                // swizzle and its write-backs unswizzle, so the pool starts empty (everything is clean now)
                pool.unpinAll();
                pool.evictAll();
                mf.startSwizzling();
            } else if (mf != null
                    && (mf.movedArena() || (options.relocateFraction() > 0 && !created) || frames.placement != null)) {
                relocatedPages = new ArenaPlacement(dir, io, volume, pool, mf, addresses)
                        .place(
                                options.relocation(),
                                options.relocateFraction(),
                                header.preferredArenaBase(),
                                frames.placement,
                                extents.pageCount());
            }
            if (mf != null && !frames.texas) {
                mf.populateAhead(extents.pageCount(), dir.toString()); // the cold faults' memory, allocated ahead
            }
            ok = true;
        } finally {
            if (!ok) {
                closeQuietly(mf);
                closeQuietly(lw);
                closeQuietly(reader);
                closeQuietly(dw);
                closeQuietly(vol);
                closeQuietly(fileLock);
            }
        }
    }

    /**
     * A page server client's handle named {@code name} (its {@code dir}): {@code store}, under construction, is
     * asked at every fix of its pool whether a refusal is pending.
     */
    OpeningOrder(Store store, PageServerClient client, Path dir, StoreOptions options, String name) throws IOException {
        this.io = RealFileIO.INSTANCE;
        this.fileLock = () -> {};
        RemotePages remote = client.pages();
        MappedFrames mf = client.frames(name); // refuses a Texas store and an arena away from its preferred base
        this.pageSize = remote.pageSize();
        this.mappedFrames = mf;
        this.addresses = new Addresses(remote.arenaBase(), pageSize);
        this.volume = new Volume(client, pageSize);
        this.dwb = null;
        this.log = null;
        this.logReader = null;
        this.barrier = new CardBarrier(mf, dir, pageSize);
        this.refusals = new Refusals(mf, addresses, dir, remote);
        this.pool = new BufferPool(mf, volume, null, null, Replacer.of(Replacement.STORE_CLOCK, mf), name);
        this.txns = new TransactionManager(pool, null, null, 1);
        pool.setStealer(PageServerClient::neverSteals);
        pool.setFixObserver((page, forWrite) -> {
            client.touch(page, forWrite);
            if (store.hasPendingRefusal()) {
                store.takePending(); // refused (server gone, lock refused): the transaction is doomed, typed exception
            }
        });
        this.recovery = new RecoveryStats(0, 0, 0, List.of());
        VolumeHeader header = remote.header();
        this.extents = new ExtentAllocator(pool, pageSize, header.extentPages());
        this.objects = new ObjectAllocator(pool, extents, addresses, header.extentPages());
        this.largeObjects = new LargeObjects(pool, extents, addresses);
        this.roots = new RootDirectory(pool, extents);
        this.checkpointer = null;
        mf.inTransaction(txns::active);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // already failing: the original exception is the one to report
            }
        }
    }

    private static int peekPageSize(FileIO io, Path dir) throws IOException {
        try (FileIO.Handle h = io.open(VolumeFile.volumePath(dir), false)) {
            byte[] prefix = new byte[VolumeHeader.SIZE];
            int n = h.read(ByteBuffer.wrap(prefix), 0);
            int ps = VolumeHeader.peekPageSize(prefix, n);
            if (Integer.bitCount(ps) != 1 || ps < 4096 || ps > 65536) {
                return VolumeFile.readHeader(io, dir).pageSize(); // throws, naming the damaged field
            }
            return ps;
        }
    }
}
