package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An arena of virtual frames backed by the native data plane ({@code libquickstore.so}): the Java
 * control plane of White and DeWitt's QuickStore (SIGMOD 1994) sections 3.1-3.5 - virtual frames
 * mapped onto buffer frames, page descriptors, pointer relocation at fault time, the simplified
 * clock that reprotects the whole space - with Texas-style swizzling at page-fault time
 * (Kakkad and Wilson 1999).
 *
 * <p>Layout: one memfd mapped twice. The {@linkplain #view() application view} has per-frame
 * protection; touching a frame that is not accessible raises a real SIGSEGV which the native handler
 * resolves entirely in C (read the page from its source, verify its CRC32C, relocate its pointers,
 * capture a pre-image on the first write, set the protection) and restarts the access. The
 * {@linkplain #alias() alias view} is always read-write and is what the store uses for its own I/O,
 * diffing and write-back; never hand application-view addresses to native code or system calls.
 *
 * <p>Refusals: a fault the store must refuse (checksum, I/O error, unreserved or released frame,
 * no transaction) does not throw at the faulting instruction. The access completes on a scratch page
 * and the refusal is recorded; {@link RefusalQueue#checkPending()} - cheap, call it at API boundaries -
 * throws {@link FaultRefusedException} naming the address, page and reason. See docs/native.md.
 *
 * <p>This class owns the arena's lifetime (open, views, close) and is its frame table: reserve, release,
 * evict, reprotect, states, budgets and counters ({@code qs_arena.c}, {@code qs_frames.c}, {@code
 * qs_counters.c}). The other mechanisms of the data plane have their own classes along the C files' lines,
 * each handed out by an accessor: {@link SignalHandler} ({@code qs_signal.c}), {@link PageSources} ({@code
 * qs_source.c}), {@link FrameLoading} (install, touch, prefetch, read-ahead, population), {@link
 * PreimageCapture} ({@code qs_preimage.c}: pre-images, the dirty set, cleaning), {@link ReplacementClock}
 * ({@code qs_clock.c}), {@link CardTable} ({@code qs_cards.c}), {@link PointerTranslation} ({@code
 * qs_xlate.c}), {@link TexasSwizzling} ({@code qs_texas.c}), {@link RefusalQueue} ({@code qs_refusal.c})
 * and {@link RefusedFrames} (repairing refused frames). Every downcall goes through {@link Downcall}, which
 * maps a {@code -errno} result to an {@link ArenaException}.
 *
 * <p>Thread safety: all methods may be called from any thread. {@link #close()} must not race with
 * accesses; it closes the views' {@link Arena} first, which FFM makes safe against concurrent access.
 */
@SuppressWarnings("restricted") // reinterpret() of the native views
public final class MappedArena implements AutoCloseable {
    /** Default frame size: 8 KiB, the page size of QuickStore. */
    public static final int DEFAULT_FRAME_SIZE = 8192;

    private final long handle;
    private final long size;
    private final int frameSize;
    private final int frameShift;
    private final boolean atPreferredBase;
    private final Arena views;
    private final MemorySegment view;
    private final MemorySegment alias;
    private final RefusalQueue refusals;
    private final ReplacementClock clock;
    private final CardTable cardTable;
    private final KernelTracking kernelTracking;
    private final PointerTranslation translation;
    private final TexasSwizzling texas;
    private final PageSources sources;
    private final FrameLoading loading;
    private final PreimageCapture preimages;
    private final RefusedFrames refused;
    private final FrameListBuffer frameList;

    private volatile boolean closed;

    private MappedArena(long handle, long size, int frameSize) {
        this.handle = handle;
        this.size = size;
        this.frameSize = frameSize;
        this.frameShift = Integer.numberOfTrailingZeros(frameSize);
        this.atPreferredBase = Downcall.intValue(
                        "qs_arena_at_preferred", () -> (int) NativeCalls.ArenaAtPreferred.H.invokeExact(handle))
                != 0;
        this.views = Arena.ofShared();
        long base = Downcall.longValue("qs_arena_base", () -> (long) NativeCalls.ArenaBase.H.invokeExact(handle));
        long aliasBase =
                Downcall.longValue("qs_arena_alias", () -> (long) NativeCalls.ArenaAlias.H.invokeExact(handle));
        this.view = MemorySegment.ofAddress(base).reinterpret(size, views, null);
        this.alias = MemorySegment.ofAddress(aliasBase).reinterpret(size, views, null);
        long pendingAddr = Downcall.longValue(
                "qs_arena_pending_addr", () -> (long) NativeCalls.ArenaPendingAddr.H.invokeExact(handle));
        this.refusals =
                new RefusalQueue(handle, MemorySegment.ofAddress(pendingAddr).reinterpret(8, views, null));
        this.clock = new ReplacementClock(this, handle);
        this.cardTable = new CardTable(this, handle, views);
        this.kernelTracking = new KernelTracking(handle, views);
        this.translation = new PointerTranslation(this, handle);
        this.texas = new TexasSwizzling(this, handle);
        this.sources = new PageSources(handle);
        this.loading = new FrameLoading(this, handle);
        this.frameList = new FrameListBuffer(handle, views);
        MemorySegment addressSpace = MemorySegment.NULL.reinterpret(Long.MAX_VALUE, views, null);
        this.preimages = new PreimageCapture(
                this, handle, frameList, addressSpace, new DetachedPreimages(this, handle, views, addressSpace));
        this.refused = new RefusedFrames(handle);
    }

    /**
     * Opens an arena and installs the fault handler (idempotent).
     *
     * @param size bytes of virtual address space (a multiple of frameSize); reserved with
     *     MAP_NORESERVE, costs no memory until frames are loaded
     * @param frameSize a power of two, at least the OS page size
     * @param preferredBase the address to place the arena at if that range is free (0 = anywhere);
     *     see {@link #atPreferredBase()}
     */
    public static MappedArena open(long size, int frameSize, long preferredBase) {
        return open(size, frameSize, preferredBase, 0);
    }

    /** {@link #open(long, int, long)} with 8 KiB frames placed anywhere. */
    public static MappedArena open(long size) {
        return open(size, DEFAULT_FRAME_SIZE, 0);
    }

    /**
     * Opens a benchmark baseline arena: its fault path only does {@code mprotect(PROT_READ)} for a read
     * fault, and one frame copy plus {@code mprotect(PROT_READ|PROT_WRITE)} for a write fault - the bare
     * signal round trips the real fault path is measured against. Not for storing data.
     */
    public static MappedArena openBaseline(long size, int frameSize) {
        return open(size, frameSize, 0, 1);
    }

    private static MappedArena open(long size, int frameSize, long preferredBase, int mode) {
        SignalHandler.install();
        long[] handle = new long[1];
        Downcall.checkedInt(
                "qs_arena_open",
                () -> "opening an arena of " + size + " bytes with " + frameSize + "-byte frames",
                () -> {
                    try (Arena tmp = Arena.ofConfined()) {
                        MemorySegment out = tmp.allocate(JAVA_LONG);
                        int rc = (int) NativeCalls.ArenaOpen.H.invokeExact(size, frameSize, preferredBase, mode, out);
                        handle[0] = out.get(JAVA_LONG, 0);
                        return rc;
                    }
                });
        return new MappedArena(handle[0], size, frameSize);
    }

    /** CRC32C of the bytes of a segment (heap or native), computed by the library's C code. */
    public static int crc32c(MemorySegment bytes) {
        return Downcall.intValue("qs_crc32c", () -> (int) NativeCalls.Crc32c.H.invokeExact(bytes, bytes.byteSize()));
    }

    /** The Linux thread id of the calling thread (as recorded in refusals). */
    public static int nativeThreadId() {
        return Downcall.intValue("qs_gettid", () -> (int) NativeCalls.Gettid.H.invokeExact());
    }

    // ---- the mechanisms beside the frame table ---------------------------------------------------------

    /** Refused faults waiting to be thrown ({@code qs_refusal.c}). */
    public RefusalQueue refusals() {
        return refusals;
    }

    /** The data plane's replacement clock and Java's holds ({@code qs_clock.c}). */
    public ReplacementClock clock() {
        return clock;
    }

    /** Write detection by card marking ({@code qs_cards.c}); off until {@link CardTable#select}. */
    public CardTable cardTable() {
        return cardTable;
    }

    /** Write detection by the kernel ({@code qs_kwp.c}); off until {@link KernelTracking#select}. */
    public KernelTracking kernelTracking() {
        return kernelTracking;
    }

    /** Pointer relocation at load time ({@code qs_xlate.c}). */
    public PointerTranslation translation() {
        return translation;
    }

    /** Texas mode: persistent pointers swizzled at fault time ({@code qs_texas.c}); off until enabled. */
    public TexasSwizzling texas() {
        return texas;
    }

    /** Where reserved frames' pages are read from: files and page servers ({@code qs_source.c}). */
    public PageSources sources() {
        return sources;
    }

    /**
     * Loading frames beside and ahead of the fault path: the store's own touches and installs, prefetch,
     * read-ahead, population ({@code qs_frames.c}, {@code qs_fault.c}, {@code qs_readahead.c}).
     */
    public FrameLoading loading() {
        return loading;
    }

    /** Pre-images, the dirty set and cleaning after write-back ({@code qs_preimage.c}). */
    public PreimageCapture preimages() {
        return preimages;
    }

    /** Repairing frames left REFUSED and the refusal path's VMA reserve. */
    public RefusedFrames refused() {
        return refused;
    }

    // ---- geometry ------------------------------------------------------------------------------------

    /** Base address of the application view. */
    public long base() {
        return view.address();
    }

    public boolean atPreferredBase() {
        return atPreferredBase;
    }

    public int frameSize() {
        return frameSize;
    }

    public long frameCount() {
        return size >>> frameShift;
    }

    public long byteSize() {
        return size;
    }

    /** The application view, bounded to the arena (a wild offset throws IndexOutOfBoundsException). */
    public MemorySegment view() {
        return view;
    }

    /** The always-writable alias view of the same bytes, for the store's own use. */
    public MemorySegment alias() {
        return alias;
    }

    /** The frame that holds an application-view address. */
    public long frameOf(long address) {
        return (address - view.address()) >>> frameShift;
    }

    // ---- configuration -------------------------------------------------------------------------------

    /** Turns CRC32C verification of loaded pages on or off (on by default). */
    public void verifyChecksums(boolean on) {
        Downcall.run("qs_arena_set_verify", () -> {
            NativeCalls.ArenaSetVerify.H.invokeExact(handle, on ? 1 : 0);
        });
    }

    /**
     * Page locks from the fault path: frames of a source that locks (a page server under locking) take a shared
     * lock at their first read in a transaction and an exclusive one at their first write, and a cached copy
     * the server has since changed is reloaded; a refused lock is a refusal with reason {@link
     * RefusalReason#LOCK}.
     */
    public void locking(boolean on) {
        Downcall.run("qs_arena_set_locking", () -> {
            NativeCalls.ArenaSetLocking.H.invokeExact(handle, on ? 1 : 0);
        });
    }

    /** Marks the arena in or out of a transaction; faults outside a transaction are refused. */
    public void transaction(boolean active) {
        Downcall.run("qs_arena_set_txn", () -> {
            NativeCalls.ArenaSetTxn.H.invokeExact(handle, active ? 1 : 0);
        });
    }

    /**
     * Soft budgets of the fault path (0 = unlimited): beyond maxResidentFrames a load first evicts by the
     * {@linkplain ReplacementClock#policy policy} or, if nothing is evictable, overcommits; beyond
     * preimageBytes pre-images still are taken. Both bump {@link #pressure()}.
     */
    public void budgets(long maxResidentFrames, long preimageBytes) {
        Downcall.run("qs_arena_set_budgets", () -> {
            NativeCalls.ArenaSetBudgets.H.invokeExact(handle, maxResidentFrames, preimageBytes);
        });
    }

    // ---- frame table -------------------------------------------------------------------------------

    /** Reserves frames [first, first+count) for pages [firstPage, ...) of a source. */
    public void reserve(long first, long count, int source, long firstPage) {
        Downcall.checkedLong("qs_reserve", () -> "reserving frames " + first + "+" + count, () ->
                (long) NativeCalls.Reserve.H.invokeExact(handle, first, count, source, firstPage));
    }

    /** Releases frames: page assignment and bytes dropped; later faults are refused (RELEASED). */
    public long release(long first, long count) {
        return Downcall.checkedLong("qs_release", () -> "releasing frames " + first + "+" + count, () ->
                (long) NativeCalls.Release.H.invokeExact(handle, first, count));
    }

    /**
     * Evicts the clean frames of a run (PROT_NONE, page stays reserved, the next access re-reads it);
     * with {@code discardDirty} also dirty frames and their pre-images. The frames' memory is freed
     * (punched out of the memfd). Returns how many.
     */
    public long evict(long first, long count, boolean discardDirty) {
        return evict(first, count, discardDirty, false);
    }

    /**
     * {@link #evict(long, long, boolean)}, optionally keeping the frames' memory: with {@code
     * keepMemory} the memory stays allocated and mapped, so the next load of each frame reads straight
     * into it instead of allocating and zeroing memory inside the fault (the bigger part of a read
     * fault's cost). The kept bytes are stale and never visible through the view; the alias view shows
     * them until the frame is loaded again. Use it when the frames will be reloaded soon (a buffer pool
     * that recycles its memory). A plain evict of the range, or {@link #release}, frees the memory.
     */
    public long evict(long first, long count, boolean discardDirty, boolean keepMemory) {
        int flags = (discardDirty ? 1 : 0) | (keepMemory ? 2 : 0);
        return Downcall.checkedLong("qs_evict", () -> "evicting frames " + first + "+" + count, () ->
                (long) NativeCalls.Evict.H.invokeExact(handle, first, count, flags));
    }

    /**
     * QuickStore's simplified clock: every frame to PROT_NONE in as few mprotect calls as possible;
     * resident frames keep their bytes and take a cheap reference fault on their next access. Under minor faults
     * ({@link FrameLoading#selectMinorFaults}, without page locking) the resident frames' page-table entries are
     * zapped instead, the view keeping its protection: the reference fault is then a minor fault (docs/native.md,
     * "Cold loads by minor faults"). Returns the number of resident frames reprotected.
     */
    public long reprotectAll() {
        return Downcall.checkedLong("qs_reprotect_all", () -> "reprotecting the arena", () ->
                (long) NativeCalls.ReprotectAll.H.invokeExact(handle));
    }

    /**
     * The classic clock's hand: reprotects frames [first, first+count) to PROT_NONE with one mprotect
     * per run, like {@link #reprotectAll()} for a part of the arena (resident frames keep their bytes and
     * take a reference fault on their next access; zapped instead under minor faults, as there). Returns the number
     * of resident frames reprotected.
     */
    public long reprotect(long first, long count) {
        return Downcall.checkedLong("qs_reprotect", () -> "reprotecting frames " + first + "+" + count, () ->
                (long) NativeCalls.Reprotect.H.invokeExact(handle, first, count));
    }

    public FrameState state(long frame) {
        return FrameState.of(rawState(frame) & 0xff);
    }

    /** Whether a resident frame was reprotected by the clock and not referenced since. */
    public boolean reprotected(long frame) {
        return ((rawState(frame) >>> 8) & 0x1) != 0;
    }

    /** State (bits 0..7) and flags (bits 8..) of a frame. */
    int rawState(long frame) {
        checkFrame(frame);
        return Downcall.intValue("qs_frame_state", () -> (int) NativeCalls.FrameState.H.invokeExact(handle, frame));
    }

    /** The page a frame is reserved for. */
    public long page(long frame) {
        checkFrame(frame);
        return Downcall.longValue("qs_frame_page", () -> (long) NativeCalls.FramePage.H.invokeExact(handle, frame));
    }

    /** How many times the frame's page was read from its source. */
    public int loads(long frame) {
        checkFrame(frame);
        return Downcall.intValue("qs_frame_loads", () -> (int) NativeCalls.FrameLoads.H.invokeExact(handle, frame));
    }

    /** The indices of all resident (CLEAN or DIRTY) frames, ascending. */
    public long[] residentFrameList() {
        return frameList.list(NativeCalls.ResidentList.H, "qs_resident_list");
    }

    // ---- counters ----------------------------------------------------------------------------

    /** A counter that grows when the fault path exceeded a soft budget; Java's replacer should run. */
    public long pressure() {
        return Downcall.longValue("qs_arena_pressure", () -> (long) NativeCalls.ArenaPressure.H.invokeExact(handle));
    }

    /** Frames currently holding bytes. */
    public long residentFrames() {
        return Downcall.longValue("qs_arena_resident", () -> (long) NativeCalls.ArenaResident.H.invokeExact(handle));
    }

    public FaultCounters counters() {
        long[] values = new long[FaultCounters.COUNT];
        int n = Downcall.intValue("qs_counters", () -> {
            try (Arena tmp = Arena.ofConfined()) {
                MemorySegment out = tmp.allocate(JAVA_LONG, values.length);
                int count = (int) NativeCalls.Counters.H.invokeExact(handle, out, values.length);
                MemorySegment.copy(out, JAVA_LONG, 0, values, 0, values.length);
                return count;
            }
        });
        if (n != FaultCounters.COUNT) {
            throw new NativeLibraryException("library has " + n + " counters, binding expects " + FaultCounters.COUNT);
        }
        return FaultCounters.of(values);
    }

    /** Closes the views (FFM guarantees no access is in flight), then unmaps and frees everything. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        views.close();
        Downcall.run("qs_arena_close", () -> {
            NativeCalls.ArenaClose.H.invokeExact(handle);
        });
    }

    void checkFrame(long frame) {
        if (frame < 0 || frame >= frameCount()) {
            throw new IndexOutOfBoundsException("frame " + frame + " outside the arena's " + frameCount() + " frames");
        }
    }
}
