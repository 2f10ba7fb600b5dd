package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Arrays;

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
 * <p>This class is the frame table ({@code qs_arena.c}, {@code qs_frames.c}, {@code qs_source.c},
 * {@code qs_counters.c}); the other mechanisms of the data plane have their own classes along the C
 * files' lines: {@link SignalHandler} ({@code qs_signal.c}), {@link ReplacementClock} ({@code
 * qs_clock.c}), {@link CardTable} ({@code qs_cards.c}), {@link PointerTranslation} ({@code qs_xlate.c})
 * and {@link RefusalQueue} ({@code qs_refusal.c}). Every downcall goes through {@link Downcall}, which
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
    private final PointerTranslation translation;
    private final TexasSwizzling texas;
    /**
     * All of the address space, scoped to {@link #views}: pre-images are sliced from it ({@code asSlice}) instead
     * of {@code reinterpret}ed one by one, a restricted method whose caller check walks the stack on every call
     * (1.8% of a one-page durable commit's CPU samples, docs/results.md "Durable commit latency: where the time
     * goes").
     */
    private final MemorySegment addressSpace;
    /** Reused native list buffer of {@link #list} and {@link #markCleanList} (guarded by {@link #frameListLock}). */
    private final MemorySegment frameList;

    private final Object frameListLock = new Object();
    /** Frames {@link #frameList} holds. */
    static final int FRAME_LIST = 1024;

    private volatile boolean closed;

    private MappedArena(long handle, long size, int frameSize) {
        this.handle = handle;
        this.size = size;
        this.frameSize = frameSize;
        this.frameShift = Integer.numberOfTrailingZeros(frameSize);
        this.atPreferredBase = Downcall.intValue(
                        "qs_arena_at_preferred", () -> (int) NativeCalls.ARENA_AT_PREFERRED.invokeExact(handle))
                != 0;
        this.views = Arena.ofShared();
        long base = Downcall.longValue("qs_arena_base", () -> (long) NativeCalls.ARENA_BASE.invokeExact(handle));
        long aliasBase = Downcall.longValue("qs_arena_alias", () -> (long) NativeCalls.ARENA_ALIAS.invokeExact(handle));
        this.view = MemorySegment.ofAddress(base).reinterpret(size, views, null);
        this.alias = MemorySegment.ofAddress(aliasBase).reinterpret(size, views, null);
        long pendingAddr = Downcall.longValue(
                "qs_arena_pending_addr", () -> (long) NativeCalls.ARENA_PENDING_ADDR.invokeExact(handle));
        this.refusals =
                new RefusalQueue(handle, MemorySegment.ofAddress(pendingAddr).reinterpret(8, views, null));
        this.clock = new ReplacementClock(this, handle);
        this.cardTable = new CardTable(this, handle, views);
        this.translation = new PointerTranslation(this, handle);
        this.texas = new TexasSwizzling(this, handle);
        this.addressSpace = MemorySegment.NULL.reinterpret(Long.MAX_VALUE, views, null);
        this.frameList = views.allocate(JAVA_LONG, FRAME_LIST);
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
                        int rc = (int) NativeCalls.ARENA_OPEN.invokeExact(size, frameSize, preferredBase, mode, out);
                        handle[0] = out.get(JAVA_LONG, 0);
                        return rc;
                    }
                });
        return new MappedArena(handle[0], size, frameSize);
    }

    /** CRC32C of the bytes of a segment (heap or native), computed by the library's C code. */
    public static int crc32c(MemorySegment bytes) {
        return Downcall.intValue("qs_crc32c", () -> (int) NativeCalls.CRC32C.invokeExact(bytes, bytes.byteSize()));
    }

    /** The Linux thread id of the calling thread (as recorded in refusals). */
    public static int nativeThreadId() {
        return Downcall.intValue("qs_gettid", () -> (int) NativeCalls.GETTID.invokeExact());
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

    /** Pointer relocation at load time ({@code qs_xlate.c}). */
    public PointerTranslation translation() {
        return translation;
    }

    /** Texas mode: persistent pointers swizzled at fault time ({@code qs_texas.c}); off until enabled. */
    public TexasSwizzling texas() {
        return texas;
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

    /**
     * Adds a page source reading {@code file} (opened read-only by the library), page p at
     * {@code baseOffset + p * frameSize}. Returns its id for {@link #reserve}.
     */
    public int addFileSource(Path file, long baseOffset) {
        return Downcall.checkedInt("qs_source_open_file", () -> "opening page source " + file, () -> {
            try (Arena tmp = Arena.ofConfined()) {
                return (int)
                        NativeCalls.SOURCE_OPEN_FILE.invokeExact(handle, tmp.allocateFrom(file.toString()), baseOffset);
            }
        });
    }

    /**
     * Adds a page-server source (qs_socket.c): faults on frames reserved with it ask the server over {@code
     * connection}, which must be connected and authenticated, and which the arena owns from now on (closed
     * with the arena). Each request must be answered within {@code timeoutMs}, or the fault is refused and
     * the source is {@linkplain #sourceBroken broken}.
     */
    public int addSocketSource(PageServerSocket connection, int timeoutMs) {
        int fd = connection.handOver();
        int id;
        try {
            id = Downcall.checkedInt("qs_source_open_socket", () -> "adding a page-server source", () ->
                    (int) NativeCalls.SOURCE_OPEN_SOCKET.invokeExact(handle, fd, timeoutMs));
        } catch (RuntimeException e) {
            PageServerSocket.closeFd(fd);
            throw e;
        }
        return id;
    }

    /**
     * Whether page-server source {@code id} broke (a timeout, a closed connection or a protocol error): every
     * later fault on its frames is refused until frames are reserved with a new source.
     */
    public boolean sourceBroken(int id) {
        return Downcall.checkedInt("qs_source_broken", () -> "reading page-server source " + id, () ->
                        (int) NativeCalls.SOURCE_BROKEN.invokeExact(handle, id))
                != 0;
    }

    /** Turns CRC32C verification of loaded pages on or off (on by default). */
    public void verifyChecksums(boolean on) {
        Downcall.run("qs_arena_set_verify", () -> {
            NativeCalls.ARENA_SET_VERIFY.invokeExact(handle, on ? 1 : 0);
        });
    }

    /**
     * Clustered read-ahead in the fault path ({@code qs_readahead.c}; docs/native.md "Read-ahead"): a read fault on
     * a reserved frame also loads up to {@code frames - 1} following reserved frames that hold the following pages
     * of the same file source, with one {@code pread} and one {@code mprotect}, as long as the resident budget
     * allows without eviction. Every page is verified and relocated as a single load is; a neighbour that fails
     * its checksum or lies beyond the end of the file stays reserved. Off under page locking, for page-server
     * sources and when pre-images are taken at load (scanning). 0 or 1 turns it off (the default).
     *
     * @param frames the most frames one fault loads, 0..64
     */
    public void readAhead(int frames) {
        Downcall.checkedInt("qs_arena_set_readahead", () -> "setting read-ahead to " + frames + " frames (0..64)", () ->
                (int) NativeCalls.ARENA_SET_READAHEAD.invokeExact(handle, frames));
    }

    /**
     * Page locks from the fault path: frames of a source that locks (a page server under locking) take a shared
     * lock at their first read in a transaction and an exclusive one at their first write, and a cached copy
     * the server has since changed is reloaded; a refused lock is a refusal with reason {@link
     * RefusalReason#LOCK}.
     */
    public void locking(boolean on) {
        Downcall.run("qs_arena_set_locking", () -> {
            NativeCalls.ARENA_SET_LOCKING.invokeExact(handle, on ? 1 : 0);
        });
    }

    /** Marks the arena in or out of a transaction; faults outside a transaction are refused. */
    public void transaction(boolean active) {
        Downcall.run("qs_arena_set_txn", () -> {
            NativeCalls.ARENA_SET_TXN.invokeExact(handle, active ? 1 : 0);
        });
    }

    /**
     * Soft budgets of the fault path (0 = unlimited): beyond maxResidentFrames a load first evicts by the
     * {@linkplain ReplacementClock#policy policy} or, if nothing is evictable, overcommits; beyond
     * preimageBytes pre-images still are taken. Both bump {@link #pressure()}.
     */
    public void budgets(long maxResidentFrames, long preimageBytes) {
        Downcall.run("qs_arena_set_budgets", () -> {
            NativeCalls.ARENA_SET_BUDGETS.invokeExact(handle, maxResidentFrames, preimageBytes);
        });
    }

    // ---- frame table -------------------------------------------------------------------------------

    /** Reserves frames [first, first+count) for pages [firstPage, ...) of a source. */
    public void reserve(long first, long count, int source, long firstPage) {
        Downcall.checkedLong("qs_reserve", () -> "reserving frames " + first + "+" + count, () ->
                (long) NativeCalls.RESERVE.invokeExact(handle, first, count, source, firstPage));
    }

    /** Releases frames: page assignment and bytes dropped; later faults are refused (RELEASED). */
    public long release(long first, long count) {
        return Downcall.checkedLong("qs_release", () -> "releasing frames " + first + "+" + count, () ->
                (long) NativeCalls.RELEASE.invokeExact(handle, first, count));
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
                (long) NativeCalls.EVICT.invokeExact(handle, first, count, flags));
    }

    /**
     * Allocates the memory of frames [first, first+count) and maps it ahead of their first load, off
     * the fault path, so that their read faults do not allocate memory. Changes no bytes and no state.
     * Returns count.
     */
    public long populate(long first, long count) {
        return Downcall.checkedLong("qs_populate", () -> "populating frames " + first + "+" + count, () ->
                (long) NativeCalls.POPULATE.invokeExact(handle, first, count));
    }

    /**
     * Allocates the memory of frames [first, first+count) without mapping it ({@code fallocate} on the memfd),
     * off the fault path: their loads then allocate and zero nothing. Unlike {@link #populate} it takes no lock
     * of the address space, so a concurrent fault's {@code mprotect} does not wait for it. Changes no bytes and no
     * state. Returns count.
     */
    public long allocate(long first, long count) {
        return Downcall.checkedLong("qs_allocate", () -> "allocating frames " + first + "+" + count, () ->
                (long) NativeCalls.ALLOCATE.invokeExact(handle, first, count));
    }

    /** Replaces the scratch pages of REFUSED frames by the arena again (RESERVED or FREE). */
    public long resetRefused(long first, long count) {
        return Downcall.checkedLong("qs_reset_refused", () -> "resetting frames " + first + "+" + count, () ->
                (long) NativeCalls.RESET_REFUSED.invokeExact(handle, first, count));
    }

    /**
     * Repairs REFUSED frames without losing bytes (unlike {@link #resetRefused}): a frame refused while
     * resident becomes resident again (reprotected, so its next access takes a reference fault); others
     * go back to RESERVED or FREE. Returns how many frames were repaired.
     */
    public long repairRefused(long first, long count) {
        return Downcall.checkedLong("qs_repair_refused", () -> "repairing frames " + first + "+" + count, () ->
                (long) NativeCalls.REPAIR_REFUSED.invokeExact(handle, first, count));
    }

    /**
     * QuickStore's simplified clock: every frame to PROT_NONE in as few mprotect calls as possible;
     * resident frames keep their bytes and take a cheap reference fault on their next access.
     * Returns the number of resident frames reprotected.
     */
    public long reprotectAll() {
        return Downcall.checkedLong("qs_reprotect_all", () -> "reprotecting the arena", () ->
                (long) NativeCalls.REPROTECT_ALL.invokeExact(handle));
    }

    /**
     * The classic clock's hand: reprotects frames [first, first+count) to PROT_NONE with one mprotect
     * per run, like {@link #reprotectAll()} for a part of the arena (resident frames keep their bytes and
     * take a reference fault on their next access). Returns the number of resident frames reprotected.
     */
    public long reprotect(long first, long count) {
        return Downcall.checkedLong("qs_reprotect", () -> "reprotecting frames " + first + "+" + count, () ->
                (long) NativeCalls.REPROTECT.invokeExact(handle, first, count));
    }

    /**
     * The store's own access to frame {@code frame} (through the alias), resolved exactly as an application
     * fault on it would be (qs_fault.c {@code qs_touch}): a reserved frame is loaded from its source, a
     * reprotected one takes its reference fault (under page locking: its lock), a write captures the pre-image.
     * An access that must be refused is refused as a fault is: take it from {@link #refusals()}.
     */
    public void touch(long frame, boolean write) {
        checkFrame(frame);
        Downcall.intValue("qs_touch", () -> (int) NativeCalls.TOUCH.invokeExact(handle, frame, write ? 1 : 0));
    }

    /** Loads a reserved frame ahead of use and makes it readable; errors throw, nothing is refused. */
    public void prefetch(long frame) {
        int[] err = new int[1];
        int r = Downcall.intValue("qs_prefetch", () -> {
            try (Arena tmp = Arena.ofConfined()) {
                MemorySegment e = tmp.allocate(JAVA_INT);
                int rc = (int) NativeCalls.PREFETCH.invokeExact(handle, frame, e);
                err[0] = e.get(JAVA_INT, 0);
                return rc;
            }
        });
        if (r != 0) { // a refusal reason, not an errno
            int e = err[0];
            RefusalReason reason = RefusalReason.of(r);
            if (reason == RefusalReason.VMA_LIMIT || e == ArenaException.ENOMEM) {
                throw ArenaException.of("prefetching frame " + frame + ": mprotect", e);
            }
            throw new ArenaException(
                    "prefetching frame " + frame + " (page " + page(frame) + "): " + reason.description()
                            + (e != 0 ? " (errno " + e + ")" : ""),
                    e);
        }
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
        return Downcall.intValue("qs_frame_state", () -> (int) NativeCalls.FRAME_STATE.invokeExact(handle, frame));
    }

    /** The page a frame is reserved for. */
    public long page(long frame) {
        checkFrame(frame);
        return Downcall.longValue("qs_frame_page", () -> (long) NativeCalls.FRAME_PAGE.invokeExact(handle, frame));
    }

    /** How many times the frame's page was read from its source. */
    public int loads(long frame) {
        checkFrame(frame);
        return Downcall.intValue("qs_frame_loads", () -> (int) NativeCalls.FRAME_LOADS.invokeExact(handle, frame));
    }

    /** The indices of all DIRTY frames, ascending. */
    public long[] dirtyFrames() {
        return list(NativeCalls.DIRTY_LIST, "qs_dirty_list");
    }

    /** The indices of all resident (CLEAN or DIRTY) frames, ascending. */
    public long[] residentFrameList() {
        return list(NativeCalls.RESIDENT_LIST, "qs_resident_list");
    }

    /** One downcall per {@value #FRAME_LIST} frames into the reused {@link #frameList}: nothing allocated natively. */
    private long[] list(MethodHandle call, String name) {
        long[][] result = {EMPTY};
        Downcall.run(name, () -> {
            synchronized (frameListLock) {
                long from = 0;
                for (; ; ) {
                    long n = (long) call.invokeExact(handle, from, frameList, (long) FRAME_LIST);
                    int old = result[0].length;
                    result[0] = n == 0 ? result[0] : Arrays.copyOf(result[0], old + (int) n);
                    MemorySegment.copy(frameList, JAVA_LONG, 0, result[0], old, (int) n);
                    if (n < FRAME_LIST) {
                        return;
                    }
                    from = result[0][result[0].length - 1] + 1;
                }
            }
        });
        return result[0];
    }

    private static final long[] EMPTY = new long[0];

    /**
     * The pre-image of a DIRTY frame (its bytes at the first write fault), or empty if it is not
     * dirty. Valid until the frame is cleaned, evicted or released.
     */
    public MemorySegment preimage(long frame) {
        checkFrame(frame);
        long addr =
                Downcall.longValue("qs_preimage_of", () -> (long) NativeCalls.PREIMAGE_OF.invokeExact(handle, frame));
        return addr == 0 ? MemorySegment.NULL : addressSpace.asSlice(addr, frameSize);
    }

    /**
     * {@link #markClean} for {@code frames[from..from+count)} (ascending), with one {@code mprotect} per run
     * instead of one per frame (qs_frames.c {@code qs_mark_clean_list}): a run is listed frames and the clean,
     * read-only frames between them, at most {@code bridge} in a row (their protection is READ already). What a
     * commit does to the dirty pages it logged. Frames not dirty are left alone. Returns the frames cleaned.
     *
     * @throws ArenaException for a frame outside the arena or a list not strictly ascending
     */
    public long markCleanList(long[] frames, int from, int count, int bridge) {
        if (from < 0 || count < 0 || from + count > frames.length || bridge < 0) {
            throw new IndexOutOfBoundsException(
                    "frames " + from + "+" + count + " of " + frames.length + ", bridge " + bridge);
        }
        if (count > FRAME_LIST) {
            try (Arena tmp = Arena.ofConfined()) {
                return markCleanList(tmp.allocate(JAVA_LONG, count), frames, from, count, bridge);
            }
        }
        synchronized (frameListLock) { // the common case (a commit's runs of at most 64 pages): nothing allocated
            return markCleanList(frameList, frames, from, count, bridge);
        }
    }

    private long markCleanList(MemorySegment list, long[] frames, int from, int count, int bridge) {
        MemorySegment.copy(frames, from, list, JAVA_LONG, 0, count);
        return Downcall.checkedLong(
                "qs_mark_clean_list",
                () -> "marking " + count + " frames clean from frame " + (count > 0 ? frames[from] : -1),
                () -> (long) NativeCalls.MARK_CLEAN_LIST.invokeExact(handle, list, (long) count, bridge));
    }

    /** After write-back: DIRTY to CLEAN, pre-image freed, writes fault again. Returns whether it was dirty. */
    public boolean markClean(long frame) {
        return Downcall.checkedInt("qs_mark_clean", () -> "marking frame " + frame + " clean", () ->
                        (int) NativeCalls.MARK_CLEAN.invokeExact(handle, frame))
                == 1;
    }

    // ---- the store's own I/O through the alias view ------------------------------------------------

    /**
     * Installs a page the caller read and verified itself: {@code page} ({@link #frameSize()} bytes of
     * native memory, never an application-view slice) is copied into the alias view, then the frame
     * becomes readable and CLEAN. A REFUSED frame is repaired first. Returns true if installed, false if
     * the frame was already resident (a fault loaded it meanwhile; its bytes are kept).
     *
     * @throws ArenaException if the frame is not reserved for a page or mprotect failed
     */
    public boolean install(long frame, MemorySegment page) {
        checkFrame(frame);
        if (!page.isNative() || page.byteSize() < frameSize) {
            throw new IllegalArgumentException("install needs " + frameSize + " bytes of native memory");
        }
        return Downcall.checkedInt("qs_install", () -> "installing frame " + frame, () ->
                        (int) NativeCalls.INSTALL.invokeExact(handle, frame, page))
                == 1;
    }

    /**
     * The caller is about to write a resident frame through the {@linkplain #alias() alias view}
     * (which never faults): captures its pre-image exactly as a write fault would and makes the
     * application view writable. Returns true if captured, false if the frame was DIRTY already.
     *
     * @throws ArenaException if the frame is not resident or no pre-image slot could be mapped
     */
    public boolean markDirty(long frame) {
        checkFrame(frame);
        return Downcall.checkedInt("qs_mark_dirty", () -> "marking frame " + frame + " dirty", () ->
                        (int) NativeCalls.MARK_DIRTY.invokeExact(handle, frame))
                == 1;
    }

    /**
     * {@link #markDirty} for a frame the application never stores to through the view (the store's B+tree nodes):
     * captures the pre-image but leaves the view read-only (no {@code mprotect}, ~10 us each); should the
     * application store to it after all, the fault path opens the view then, and {@link #markDirty} opens it for a
     * frame reused for objects. Returns true if captured, false if the frame was DIRTY already.
     *
     * @throws ArenaException if the frame is not resident or no pre-image slot could be mapped
     */
    public boolean markDirtyAliasOnly(long frame) {
        checkFrame(frame);
        return Downcall.checkedInt("qs_mark_dirty_alias", () -> "marking frame " + frame + " dirty", () ->
                        (int) NativeCalls.MARK_DIRTY_ALIAS.invokeExact(handle, frame))
                == 1;
    }

    // ---- the VMA reserve of the refusal path (qs_arena.c) ---------------------------------------------

    /**
     * Pages of the VMA reserve in place (at most 32): single-page mappings the fault path unmaps when it
     * cannot map a refused frame's scratch page at the vm.max_map_count limit; refilled by {@link
     * #repairRefused} and {@link #resetRefused}.
     */
    public int vmaReserve() {
        return Downcall.intValue("qs_vma_reserve_count", () -> (int) NativeCalls.VMA_RESERVE_COUNT.invokeExact(handle));
    }

    /** Tests: the next {@code n} scratch mappings of the refusal path fail with ENOMEM. */
    void failScratchMappings(int n) {
        Downcall.run("qs_test_fail_scratch", () -> {
            NativeCalls.TEST_FAIL_SCRATCH.invokeExact(handle, n);
        });
    }

    // ---- counters ----------------------------------------------------------------------------

    /** A counter that grows when the fault path exceeded a soft budget; Java's replacer should run. */
    public long pressure() {
        return Downcall.longValue("qs_arena_pressure", () -> (long) NativeCalls.ARENA_PRESSURE.invokeExact(handle));
    }

    /** Frames currently holding bytes. */
    public long residentFrames() {
        return Downcall.longValue("qs_arena_resident", () -> (long) NativeCalls.ARENA_RESIDENT.invokeExact(handle));
    }

    public FaultCounters counters() {
        long[] values = new long[FaultCounters.COUNT];
        int n = Downcall.intValue("qs_counters", () -> {
            try (Arena tmp = Arena.ofConfined()) {
                MemorySegment out = tmp.allocate(JAVA_LONG, values.length);
                int count = (int) NativeCalls.COUNTERS.invokeExact(handle, out, values.length);
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
            NativeCalls.ARENA_CLOSE.invokeExact(handle);
        });
    }

    private void checkFrame(long frame) {
        if (frame < 0 || frame >= frameCount()) {
            throw new IndexOutOfBoundsException("frame " + frame + " outside the arena's " + frameCount() + " frames");
        }
    }
}
