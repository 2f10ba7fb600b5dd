package dev.quickstore.core.buffer;

import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.Volume;
import dev.quickstore.mmu.DetachedPreimages;
import dev.quickstore.mmu.FrameState;
import dev.quickstore.mmu.KernelTracking;
import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.TexasSwizzling;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * {@link PageFrames} over store-native's {@link MappedArena}: the QuickStore design (White and DeWitt
 * 1994, section 3) joined to the storage manager.
 *
 * <p><b>Identity placement.</b> Page p of the volume lives in frame p, at {@code arenaBase + p *
 * pageSize} of the application view, so a store reference is the virtual address of its object. The
 * arena is a large MAP_NORESERVE range (Options.arenaBytes, 64 GiB by default) placed at the volume
 * header's preferred base; frames are reserved for the volume's pages with the volume file as their page
 * source, so an application load of a page that is not resident is served by the C fault path
 * ({@code pread} + CRC32C check) without Java.
 *
 * <p><b>Two ways in.</b> The store's own reads (allocator, slotted-page metadata, B+tree, large
 * objects, roots, recovery) still go through {@link FileIO} and {@link Volume} (so the fault-injecting
 * file layer of the tests sees them) and are {@linkplain dev.quickstore.mmu.FrameLoading#install installed} through the
 * alias view. The store's own writes go through the always-writable alias view too, after {@link
 * #markDirty} asked native to capture the pre-image (one downcall, as a write fault would). Application
 * stores through {@link MappedArena#view()} fault and are captured by the C handler with no Java
 * involved. Either way the frame ends DIRTY with a native pre-image, so commit, steal and abort see one
 * dirty set ({@link dev.quickstore.mmu.PreimageCapture#dirtyFrames()}).
 *
 * <p><b>Write-back images.</b> Application threads may store through the view at any time, so {@link
 * #stableImage} takes the frame's pre-image instead of its bytes if it became DIRTY meanwhile ({@link
 * StableImages}).
 *
 * <p><b>Residency.</b> With the simplified or classic clock ({@link DataPlaneReplacer}) the data plane holds the
 * pool's budget and evicts by the policy before any load, a fault included; with {@code STORE_CLOCK} the buffer
 * pool's clock is the only evictor and adopts the pages the fault path loaded by itself ({@link FrameResidency}).
 * Every method is one or a few downcalls; no native lock is held across a return to Java.
 *
 * <p><b>Parts</b>, one mechanism each: the frames reserved for the volume ({@link FrameReservation}), residency
 * ({@link FrameResidency}), clean points and dirty masks ({@link CleanPoints}), the repair of refused frames
 * ({@link RefusedFrameRepair}), relocation ({@link FrameRelocation}), Texas mode ({@link TexasFrames}),
 * write-back images ({@link StableImages}), read- and write-ahead ({@link FrameWriteAhead}), card masks ({@link
 * DirtyCards}), the frames' alias slices ({@link FrameSlices}). This class is the {@link PageFrames} seam over them:
 * the page to frame translation and the one-downcall operations.
 */
public final class MappedFrames implements PageFrames {
    private final MappedArena arena;
    private final int pageSize;
    private final int capacity;
    private final MemorySegment alias;
    private final Arena staging = Arena.ofShared();
    private final MemorySegment stage;

    /** The frames reserved for the volume's pages: {@code [0, reservation.reservedUpTo())}. */
    private final FrameReservation reservation;

    /** Where pages live and which frames translate pointers under QS-CR/QS-OR relocation (identity otherwise). */
    private final FrameRelocation relocation;

    /** Texas mode (null otherwise): frames from the native page-id to frame table, swizzled page images. */
    private TexasFrames texas;

    /** Kernel write tracking's granularity (the OS page): the card size of {@link #dirtyCards} under it. */
    private final int osPageBytes = KernelTracking.pageBytes();

    private final FrameResidency residency;
    private final CleanPoints cleanPoints;
    private final RefusedFrameRepair refusedRepair;
    private final FrameWriteAhead writeAhead;

    /** Each frame's alias slice, made once ({@link FrameSlices}). */
    private final FrameSlices slices;

    /** Allocating the memory of the first frames in the background since open ({@link #populateAhead}), or null. */
    private ArenaPopulator populator;

    public MappedFrames(MappedArena arena, int pageSize, int capacity, int source) {
        this.arena = arena;
        this.pageSize = pageSize;
        this.capacity = capacity;
        this.alias = arena.alias();
        this.slices = new FrameSlices(alias, arena.frameCount(), pageSize);
        this.reservation = new FrameReservation(arena, source);
        this.stage = staging.allocate(pageSize, 4096);
        this.relocation = new FrameRelocation(this, arena, pageSize, source);
        this.residency = new FrameResidency(this, arena, reservation, relocation, stage);
        this.cleanPoints = new CleanPoints(this, arena, pageSize, osPageBytes);
        this.refusedRepair = new RefusedFrameRepair(this, arena, reservation, relocation);
        this.writeAhead = new FrameWriteAhead(arena, reservation, relocation);
    }

    /** Frames one cold read fault loads ({@link FrameWriteAhead#READ_AHEAD_FRAMES}; {@code qs.readAhead}). */
    public static final int READ_AHEAD_FRAMES = FrameWriteAhead.READ_AHEAD_FRAMES;

    /** Frames a write fault makes writable besides its own ({@link FrameWriteAhead#WRITE_AHEAD_FRAMES}). */
    public static final int WRITE_AHEAD_FRAMES = FrameWriteAhead.WRITE_AHEAD_FRAMES;

    /** Selects write-ahead ({@link dev.quickstore.mmu.FrameLoading#writeAhead}): 0 = off, the arena's default. */
    public void writeAhead(int frames) {
        writeAhead.select(frames);
    }

    @Override
    public int writeAheadFrames() {
        return writeAhead.frames();
    }

    /**
     * Maps the arena at {@code base} and reserves the volume's first {@code pages} frames.
     *
     * @param volumeFile the volume as a file the native library can open, or {@code null} when the store
     *     runs on an in-memory file layer (tests): the page source is then {@code /dev/null}, so a fault
     *     on a page the store has not installed is refused (IO) instead of reading stale bytes
     * If the range at {@code base} is taken, the arena is mapped elsewhere ({@link #movedArena()}) and the
     * store must {@linkplain #relocate relocate} before any page is faulted in.
     */
    public static MappedFrames open(
            Path volumeFile, int pageSize, int capacity, long base, long arenaBytes, long pages, String storeName) {
        long size = Math.max(arenaBytes / pageSize, 1) * pageSize;
        MappedArena a = MappedArena.open(size, pageSize, base);
        boolean ok = false;
        try {
            int src = a.sources().addFileSource(volumeFile != null ? volumeFile : Path.of("/dev/null"), 0);
            MappedFrames f = new MappedFrames(a, pageSize, capacity, src);
            f.reserveThrough(Math.max(pages, 1));
            ok = true;
            return f;
        } finally {
            if (!ok) {
                a.close();
            }
        }
    }

    /**
     * As {@link #open} for a Texas store (docs/texas-mode.md; Kakkad and Wilson 1999, section 3): no frame is
     * reserved in advance; the native page-id to frame table hands out frames as pages are first referred to (by
     * the fault path, one step ahead, or by the store's own reads). Pointer conversion of the store's own page
     * images starts with {@link #startSwizzling}, after recovery.
     */
    public static MappedFrames openTexas(Path volumeFile, int pageSize, int capacity, long arenaBytes, long pages) {
        long size = Math.max(arenaBytes / pageSize, 1) * pageSize;
        MappedArena a = MappedArena.open(size, pageSize, 0);
        boolean ok = false;
        try {
            int src = a.sources().addFileSource(volumeFile != null ? volumeFile : Path.of("/dev/null"), 0);
            MappedFrames f = new MappedFrames(a, pageSize, capacity, src);
            f.texas = new TexasFrames(a, src);
            f.reserveThrough(Math.max(pages, 1));
            ok = true;
            return f;
        } finally {
            if (!ok) {
                a.close();
            }
        }
    }

    /** Texas mode's swizzling (null in the other modes). */
    public TexasSwizzling texas() {
        return texas == null ? null : texas.swizzling();
    }

    /** Texas mode's frames (null in the other modes). */
    TexasFrames texasFrames() {
        return texas;
    }

    /**
     * Texas mode, once recovery has run and the pool is empty: from now on the store's own reads swizzle and its
     * write-backs, diffs and log records unswizzle (before, images stay in persistent form, as on disk).
     */
    public void startSwizzling() {
        if (texas == null) {
            throw new IllegalStateException("not a Texas store");
        }
        texas.startSwizzling(arena);
    }

    public MappedArena arena() {
        return arena;
    }

    /** Whether the arena could not be mapped at the volume's preferred base. */
    public boolean movedArena() {
        return !arena.atPreferredBase();
    }

    /** The frame of a page: Texas mode's table, else {@link FrameRelocation} (the page itself under identity). */
    long frame(long pageId) {
        if (texas != null) {
            return texas.frameOf(pageId);
        }
        return relocation.frameOf(pageId);
    }

    /** The arena frame that holds page {@code pageId} (the page itself unless the store was relocated). */
    public long frameOfPage(long pageId) {
        return frame(pageId);
    }

    long pageOfFrame(long frame) {
        if (texas != null) {
            return texas.pageOfFrame(frame);
        }
        return relocation.pageOfFrame(frame);
    }

    /**
     * Switches to relocated placement (no page may be resident): the runs placed in {@code m} move to
     * frames of the arena's upper half, frames are reserved for every page before any can be faulted in,
     * the translation table (disk address range to delta) is registered, and every page that holds a
     * pointer word in a translated range gets its pointer bitmap so that the C fault path translates it on
     * load (pages without one are loaded as they are: nothing to translate).
     *
     * @param images reads page p's disk image (for its pointer bitmap)
     * @param oneTime QS-OR: page images are committed in the current address space ({@link #toDisk} is the
     *     identity) and {@link #prepareOneTimeCommit} adds the pages translated since the last commit
     */
    public void relocate(MappingManager m, long pages, PageReader images, boolean oneTime) throws java.io.IOException {
        relocation.relocate(m, pages, images, oneTime);
    }

    /**
     * QS-OR, before the commit diffs the dirty pages: every translated page not yet committed in translated form
     * joins the commit ({@link OneTimeRelocation#prepare}). Returns the number of pages the transaction converts.
     */
    public int prepareOneTimeCommit() {
        return relocation.prepareOneTimeCommit();
    }

    /** QS-OR: the running transaction committed: its converted pages need no translation any more. */
    public void oneTimeCommitted() {
        relocation.oneTimeCommitted();
    }

    /** QS-OR: the running transaction aborted: pages it had converted are translated again. */
    public void oneTimeAborted() {
        relocation.oneTimeAborted();
    }

    /** QS-OR: pages committed in translated form by this handle. */
    public long convertedPages() {
        return relocation.convertedPages();
    }

    /** Whether a transaction is running (QS-OR converts evicted pages only inside one). */
    public void inTransaction(java.util.function.BooleanSupplier s) {
        relocation.inTransaction(s);
    }

    @Override
    public void beforeEvict(long pageId) {
        relocation.beforeEvict(frame(pageId));
    }

    /** Pages whose next load (or current residence) involves pointer translation by the fault path. */
    public long translatingPages() {
        return relocation.translatingPages();
    }

    /** Reads page p into buf; false if the page was never written. */
    public interface PageReader {
        boolean read(long page, MemorySegment buf) throws java.io.IOException;
    }

    /** Disk form to runtime form (swizzle) of a page image, in place. */
    @Override
    public MemorySegment toRuntime(MemorySegment image) {
        if (texas != null) {
            texas.toRuntime(image);
        }
        relocation.toRuntime(image);
        return image;
    }

    @Override
    public MemorySegment toDisk(MemorySegment image) {
        if (texas != null) {
            texas.toDisk(image);
        }
        relocation.toDisk(image);
        return image;
    }

    public long reservedPages() {
        return reservation.reservedUpTo();
    }

    /**
     * Takes over an arena whose frames [0, pages) the caller reserved with this source already (a page
     * server client's cache, {@code RemotePages}); only frames past them are reserved from here on.
     */
    public void adoptReserved(long pages) {
        reservation.adopt(pages);
    }

    /** Reserves frames up to (excluding) {@code pages}, in steps, with the volume as page source. */
    public void reserveThrough(long pages) {
        reservation.reserveThrough(pages, texas != null);
    }

    @Override
    public int pageSize() {
        return pageSize;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    /** Frames holding bytes, including those the fault path loaded for the application. */
    @Override
    public int residentCount() {
        return (int) arena.residentFrames();
    }

    MemorySegment slice(long pageId) {
        return slices.of(frame(pageId));
    }

    @Override
    public MemorySegment resident(long pageId) {
        return residency.resident(pageId);
    }

    @Override
    public MemorySegment install(long pageId, MemorySegment image) {
        return residency.install(pageId, image);
    }

    @Override
    public void evict(long pageId) {
        residency.evict(pageId);
    }

    @Override
    public void markDirty(long pageId) {
        arena.preimages().markDirty(frame(pageId));
    }

    /**
     * The application is about to store to pages {@code [firstPage, firstPage + count)} through the view (a large
     * object's run): the clean resident ones are made writable with their pre-images, one {@code mprotect} per run
     * ({@link FrameWriteAhead#announce}). Returns the pages made dirty.
     */
    public long announceWrites(long firstPage, long count) {
        return writeAhead.announce(firstPage, count, texas != null);
    }

    /**
     * The page and the clean resident ones among its {@code following} free pages are made writable together ({@link
     * #announceWrites}: one {@code mprotect} for the run), then {@link #markDirty} covers the page if the run left it
     * out (not claimable, or write-ahead off). A freed page that a transaction allocates again is resident and
     * clean; without this each of a run of them took its own {@code mprotect}, which costs 7-15x more while another
     * thread of the process runs on another CPU (docs/results.md, "Write-ahead for reused pages").
     */
    @Override
    public void markDirtyAhead(long pageId, int following) {
        if (following > 0) {
            announceWrites(pageId, 1L + following);
        }
        markDirty(pageId);
    }

    /** New pages against the arena's zero pre-image: {@link FrameResidency#makeNew}. */
    @Override
    public long makeNew(long pageId, int count, int installs) {
        return residency.makeNew(pageId, count, installs);
    }

    /** The pre-image without opening the application view (one downcall, no {@code mprotect}). */
    @Override
    public void markDirtyStoreOnly(long pageId) {
        arena.preimages().markDirtyAliasOnly(frame(pageId));
    }

    @Override
    public boolean isDirty(long pageId) {
        return StableImages.stableState(arena, frame(pageId)) == FrameState.DIRTY;
    }

    @Override
    public MemorySegment preImage(long pageId) {
        MemorySegment p = arena.preimages().preimage(frame(pageId));
        return p.equals(MemorySegment.NULL) ? null : p;
    }

    @Override
    public long dirtyCards(long pageId) {
        return cleanPoints.dirtyCards(pageId);
    }

    @Override
    public int cardBytes() {
        return cleanPoints.cardBytes();
    }

    @Override
    public void clearDirty(long pageId) {
        arena.preimages().markClean(frame(pageId));
        relocation.cleared(pageId);
    }

    /** One {@code mprotect} per run of nearby frames (identity placement, {@link CleanPoints}), else page by page. */
    @Override
    public void clearDirty(long[] pages, int from, int count) {
        if (relocation.relocated() || relocation.translates() || texas != null) {
            PageFrames.super.clearDirty(pages, from, count); // relocated: frames are not in page order
            return;
        }
        cleanPoints.clean(pages, from, count);
    }

    /** Identity placement (frames are pages, images are their disk form): pre-images can be handed over. */
    @Override
    public int detachLimit() {
        return !relocation.relocated() && texas == null ? DetachedPreimages.MAX : 0;
    }

    /** One {@code mprotect} per run of nearby frames, as {@link #clearDirty(long[], int, int)}, keeping the slots. */
    @Override
    public DetachedPreimages clearDirtyDetaching(long[] pages, int from, int count) {
        if (count <= 0 || count > detachLimit()) {
            throw new IllegalArgumentException(count + " pages, limit " + detachLimit());
        }
        return cleanPoints.detach(pages, from, count);
    }

    /**
     * Tests only: after each {@link #clearDirtyDetaching} clean point, {@code hook} runs once when the caller first
     * asks for a page's {@link #liveImage} (after the clean point, before the first diff), so that a test can make
     * a store race with commit deterministically (null = none).
     */
    public void afterCleanPointForTest(Runnable hook) {
        cleanPoints.afterCleanPointForTest(hook);
    }

    /** Evicts one page chosen by the data plane's clock; returns it, or -1 if none is evictable. */
    long clockEvict() {
        return residency.clockEvict();
    }

    /** Sets or clears a hold on the page's frame (see {@link DataPlaneReplacer}). */
    void hold(long pageId, int bits, boolean on) {
        residency.hold(pageId, bits, on);
    }

    /**
     * The dirty pages; under kernel write tracking first the clean point of the pages with a twin ({@code
     * KernelTracking.collect}: those the kernel saw written become DIRTY, their twin the pre-image).
     */
    @Override
    public long[] dirtyPages() {
        collectWritten();
        return pages(arena.preimages().dirtyFrames());
    }

    @Override
    public void collectWritten() {
        cleanPoints.collectWritten();
    }

    /** Whether commit makes each logged page's image its frame's twin ({@code DetachedPreimages.keepAsTwin}). */
    @Override
    public boolean keepsTwins() {
        return cleanPoints.keepsTwins();
    }

    /** The pages of {@code frames} (the same array under identity placement; else the pages held, sorted). */
    long[] pages(long[] frames) {
        if (!relocation.relocated() && texas == null) {
            return frames;
        }
        long[] out = new long[frames.length];
        int n = 0;
        for (long f : frames) {
            long p = pageOfFrame(f);
            if (p >= 0) {
                out[n++] = p;
            }
        }
        out = java.util.Arrays.copyOf(out, n);
        java.util.Arrays.sort(out);
        return out;
    }

    /** The alias slice when pages are stored as mapped (no relocation, no swizzling): no conversion to disk form. */
    @Override
    public MemorySegment liveImage(long pageId) {
        cleanPoints.beforeLiveImage();
        return !relocation.relocated() && texas == null ? slice(pageId) : null;
    }

    /** CLEAN (possibly reprotected by the clock): no write fault or card barrier since the clean point. */
    @Override
    public boolean cleanSinceCleared(long pageId) {
        return arena.state(frame(pageId)) == FrameState.CLEAN;
    }

    @Override
    public MemorySegment stableImage(long pageId, MemorySegment buffer) {
        MemorySegment img = stableImage0(pageId, buffer);
        relocation.imageTaken(pageId);
        return img;
    }

    private MemorySegment stableImage0(long pageId, MemorySegment buffer) {
        MemorySegment img = buffer != null ? buffer : MemorySegment.ofArray(new byte[pageSize]);
        long f = frame(pageId);
        // write-back and logging see the disk form (QS-CR unswizzling)
        return toDisk(StableImages.cleanImage(arena, f, slice(pageId), img));
    }

    @Override
    public long[] residentPages() {
        return pages(arena.residentFrameList());
    }

    @Override
    public long[] adoptNativeLoads() {
        return residency.adoptNativeLoads();
    }

    @Override
    public boolean accessEnabled(long pageId) {
        return !arena.reprotected(frame(pageId));
    }

    @Override
    public int reprotect(long[] pages) {
        return residency.reprotect(pages);
    }

    @Override
    public void reprotectAll() {
        arena.reprotectAll();
    }

    /** Ends refusals: REFUSED frames get their shared mapping back without losing bytes. */
    public void repairRefused() {
        refusedRepair.repairRefused();
    }

    /** Remembers the frame of a refusal record so that {@link #repairRefused} reaches it. */
    public void noteRefused(long frame) {
        refusedRepair.noteRefused(frame);
    }

    /**
     * Starts allocating, on a background thread, the arena memory of frames {@code [0, n)} that the store's first
     * loads will read into ({@link ArenaPopulator}), where {@code n} is the least of {@code pages} (the volume's),
     * the pool's capacity and the limit {@code qs.populate}. Frame {@code i} holds page {@code i} from {@link
     * #reserveThrough} on, also in an arena mapped away from its preferred base; pages that relocation places in
     * other frames only make some of this memory unused. Not in Texas mode, whose frames are assigned as pages are
     * referred to. At most once.
     */
    public void populateAhead(long pages, String name) {
        long n = Math.min(Math.min(pages, ArenaPopulator.LIMIT), Math.min(capacity, reservation.reservedUpTo()));
        if (populator == null && texas == null && n > 0) {
            populator = ArenaPopulator.start(arena, n, name);
        }
    }

    /** Frames {@link #populateAhead} has populated so far; 0 if it did not start. */
    public long populatedFrames() {
        return populator == null ? 0 : populator.populated();
    }

    /** Why {@link #populateAhead}'s thread stopped early (it is an optimisation: faults allocate the rest), or null. */
    public RuntimeException populateFailure() {
        return populator == null ? null : populator.failure();
    }

    /** Waits up to {@code millis} for {@link #populateAhead}'s thread to end; true if it has (or never started). */
    public boolean awaitPopulated(long millis) throws InterruptedException {
        return populator == null || populator.awaitDone(millis);
    }

    @Override
    public void close() {
        try {
            if (populator != null) {
                populator.close(); // its thread has ended: the arena may be unmapped
            }
            arena.close();
        } finally {
            staging.close();
        }
    }
}
