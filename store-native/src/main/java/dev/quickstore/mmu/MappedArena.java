package dev.quickstore.mmu;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;

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
 * and the refusal is recorded; {@link #checkPending()} - cheap, call it at API boundaries - throws
 * {@link FaultRefusedException} naming the address, page and reason. See docs/native.md.
 *
 * <p>Thread safety: all methods may be called from any thread. {@link #close()} must not race with
 * accesses; it closes the views' {@link Arena} first, which FFM makes safe against concurrent access.
 */
@SuppressWarnings("restricted") // reinterpret() of the native views
public final class MappedArena implements AutoCloseable {
    /** Default frame size: 8 KiB, the page size of QuickStore. */
    public static final int DEFAULT_FRAME_SIZE = 8192;

    private static final VarHandle LONG_ACQUIRE = JAVA_LONG.varHandle();

    private final long handle;
    private final long size;
    private final int frameSize;
    private final int frameShift;
    private final boolean atPreferredBase;
    private final Arena views;
    private final MemorySegment view;
    private final MemorySegment alias;
    private final MemorySegment pending;
    private volatile boolean closed;

    private MappedArena(long handle, long size, int frameSize) throws Throwable {
        this.handle = handle;
        this.size = size;
        this.frameSize = frameSize;
        this.frameShift = Integer.numberOfTrailingZeros(frameSize);
        this.atPreferredBase = (int) NativeCalls.ARENA_AT_PREFERRED.invokeExact(handle) != 0;
        this.views = Arena.ofShared();
        long base = (long) NativeCalls.ARENA_BASE.invokeExact(handle);
        long aliasBase = (long) NativeCalls.ARENA_ALIAS.invokeExact(handle);
        this.view = MemorySegment.ofAddress(base).reinterpret(size, views, null);
        this.alias = MemorySegment.ofAddress(aliasBase).reinterpret(size, views, null);
        long pendingAddr = (long) NativeCalls.ARENA_PENDING_ADDR.invokeExact(handle);
        this.pending = MemorySegment.ofAddress(pendingAddr).reinterpret(8, views, null);
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
        installSignalHandler();
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment out = tmp.allocate(JAVA_LONG);
            int rc = (int) NativeCalls.ARENA_OPEN.invokeExact(size, frameSize, preferredBase, mode, out);
            if (rc < 0) {
                throw ArenaException.of(
                        "opening an arena of " + size + " bytes with " + frameSize + "-byte frames", -rc);
            }
            return new MappedArena(out.get(JAVA_LONG, 0), size, frameSize);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_open", t);
        }
    }

    /** Installs the SIGSEGV/SIGBUS handler next to the JVM's (idempotent; also done by open). */
    public static void installSignalHandler() {
        int rc;
        try {
            rc = (int) NativeCalls.SIGNAL_INSTALL.invokeExact();
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_signal_install", t);
        }
        if (rc != 0) {
            throw ArenaException.of("installing the fault handler", -rc);
        }
    }

    /**
     * Restores the previous handlers if ours is still the installed one (idempotent). Only call it
     * when no arena is open. Returns whether the handlers were restored.
     */
    public static boolean uninstallSignalHandler() {
        try {
            return (int) NativeCalls.SIGNAL_UNINSTALL.invokeExact() == 1;
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_signal_uninstall", t);
        }
    }

    /** How the handler is installed. */
    public enum SignalMode {
        /** Not installed. */
        NONE,
        /** Our handler is the kernel's; the JVM's is called for faults outside arenas. */
        INTERPOSED,
        /** Another handler runs first and chains to ours (HotSpot with libjsig preloaded). */
        CHAINED
    }

    public static SignalMode signalMode() {
        try {
            int m = (int) NativeCalls.SIGNAL_MODE.invokeExact();
            return SignalMode.values()[Math.max(0, Math.min(2, m))];
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_signal_mode", t);
        }
    }

    /** Signals the handler passed on to the previous handler (faults outside every arena). */
    public static long forwardedSignals() {
        try {
            return (long) NativeCalls.SIGNAL_FORWARDED.invokeExact();
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_signal_forwarded", t);
        }
    }

    /** CRC32C of the bytes of a segment (heap or native), computed by the library's C code. */
    public static int crc32c(MemorySegment bytes) {
        try {
            return (int) NativeCalls.CRC32C.invokeExact(bytes, bytes.byteSize());
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_crc32c", t);
        }
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
        try (Arena tmp = Arena.ofConfined()) {
            int rc = (int)
                    NativeCalls.SOURCE_OPEN_FILE.invokeExact(handle, tmp.allocateFrom(file.toString()), baseOffset);
            if (rc < 0) {
                throw ArenaException.of("opening page source " + file, -rc);
            }
            return rc;
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_source_open_file", t);
        }
    }

    /** Turns CRC32C verification of loaded pages on or off (on by default). */
    public void verifyChecksums(boolean on) {
        try {
            NativeCalls.ARENA_SET_VERIFY.invokeExact(handle, on ? 1 : 0);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_set_verify", t);
        }
    }

    /** Marks the arena in or out of a transaction; faults outside a transaction are refused. */
    public void transaction(boolean active) {
        try {
            NativeCalls.ARENA_SET_TXN.invokeExact(handle, active ? 1 : 0);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_set_txn", t);
        }
    }

    /**
     * Soft budgets of the fault path (0 = unlimited): beyond maxResidentFrames a fault evicts a clean
     * frame not referenced since the last {@link #reprotectAll()} or, if there is none, overcommits;
     * beyond preimageBytes pre-images still are taken. Both bump {@link #pressure()}.
     */
    public void budgets(long maxResidentFrames, long preimageBytes) {
        try {
            NativeCalls.ARENA_SET_BUDGETS.invokeExact(handle, maxResidentFrames, preimageBytes);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_set_budgets", t);
        }
    }

    // ---- frame table -------------------------------------------------------------------------------

    /** Reserves frames [first, first+count) for pages [firstPage, ...) of a source. */
    public void reserve(long first, long count, int source, long firstPage) {
        long rc;
        try {
            rc = (long) NativeCalls.RESERVE.invokeExact(handle, first, count, source, firstPage);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_reserve", t);
        }
        if (rc < 0) {
            throw ArenaException.of("reserving frames " + first + "+" + count, (int) -rc);
        }
    }

    /** Releases frames: page assignment and bytes dropped; later faults are refused (RELEASED). */
    public long release(long first, long count) {
        return checked("releasing frames " + first + "+" + count, () ->
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
        return checked("evicting frames " + first + "+" + count, () ->
                (long) NativeCalls.EVICT.invokeExact(handle, first, count, flags));
    }

    /**
     * Allocates the memory of frames [first, first+count) and maps it ahead of their first load, off
     * the fault path, so that their read faults do not allocate memory. Changes no bytes and no state.
     * Returns count.
     */
    public long populate(long first, long count) {
        return checked("populating frames " + first + "+" + count, () ->
                (long) NativeCalls.POPULATE.invokeExact(handle, first, count));
    }

    /** Replaces the scratch pages of REFUSED frames by the arena again (RESERVED or FREE). */
    public long resetRefused(long first, long count) {
        return checked("resetting frames " + first + "+" + count, () ->
                (long) NativeCalls.RESET_REFUSED.invokeExact(handle, first, count));
    }

    /**
     * Buffer replacement run by the data plane (qs_clock.c) whenever a load - an application fault, {@link
     * #install} or {@link #prefetch} - would exceed the resident budget of {@link #budgets}. Victims are
     * clean frames without a {@linkplain #hold hold}; dirty frames stay (Java steals them).
     */
    public enum Policy {
        /** A bounded scan for an unreferenced clean frame (the behaviour before ABI 6). */
        FALLBACK,
        /** QuickStore's simplified clock: the first disabled frame; none: reprotect the whole arena. */
        SIMPLIFIED,
        /** Second chance; the hand clears a reference bit by reprotecting the frame (runs coalesced). */
        CLASSIC
    }

    /** Selects the replacement policy of the data plane. */
    public void policy(Policy p) {
        int rc;
        try {
            rc = (int) NativeCalls.SET_POLICY.invokeExact(handle, p.ordinal());
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_set_policy", t);
        }
        if (rc != 0) {
            throw ArenaException.of("qs_arena_set_policy(" + p + ")", -rc);
        }
    }

    /**
     * Evicts one frame chosen by the policy (the same hand the fault path uses); returns its index, or -1
     * if no frame is evictable (every resident frame dirty, held or busy).
     */
    public long clockEvict() {
        long rc;
        try {
            rc = (long) NativeCalls.CLOCK_EVICT.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_clock_evict", t);
        }
        if (rc < -1) {
            throw ArenaException.of("qs_clock_evict (select Policy.SIMPLIFIED or CLASSIC first)", (int) -rc);
        }
        return rc;
    }

    /** Hold bit: the frame is fixed by the running store operation (a store fix is also a reference). */
    public static final int HOLD_PINNED = 0x20;
    /** Hold bit: committed changes of the frame are only in the log; Java writes it back first. */
    public static final int HOLD_WAL = 0x40;

    /** Sets or clears hold bits on a frame: the replacement clock never evicts a held frame. */
    public void hold(long frame, int bits, boolean on) {
        int rc;
        try {
            rc = (int) NativeCalls.FRAME_HOLD.invokeExact(handle, frame, bits, on ? 1 : 0);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_frame_hold", t);
        }
        if (rc != 0) {
            throw ArenaException.of(
                    "qs_frame_hold(frame " + frame + " of " + frameCount() + ", bits 0x" + Integer.toHexString(bits)
                            + "; bits must be HOLD_PINNED|HOLD_WAL)",
                    -rc);
        }
    }

    /**
     * QuickStore's simplified clock: every frame to PROT_NONE in as few mprotect calls as possible;
     * resident frames keep their bytes and take a cheap reference fault on their next access.
     * Returns the number of resident frames reprotected.
     */
    public long reprotectAll() {
        return checked("reprotecting the arena", () -> (long) NativeCalls.REPROTECT_ALL.invokeExact(handle));
    }

    /**
     * The classic clock's hand: reprotects frames [first, first+count) to PROT_NONE with one mprotect
     * per run, like {@link #reprotectAll()} for a part of the arena (resident frames keep their bytes and
     * take a reference fault on their next access). Returns the number of resident frames reprotected.
     */
    public long reprotect(long first, long count) {
        return checked("reprotecting frames " + first + "+" + count, () ->
                (long) NativeCalls.REPROTECT.invokeExact(handle, first, count));
    }

    /** Loads a reserved frame ahead of use and makes it readable; errors throw, nothing is refused. */
    public void prefetch(long frame) {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment err = tmp.allocate(JAVA_INT);
            int r = (int) NativeCalls.PREFETCH.invokeExact(handle, frame, err);
            if (r != 0) {
                int e = err.get(JAVA_INT, 0);
                RefusalReason reason = RefusalReason.of(r);
                if (reason == RefusalReason.VMA_LIMIT || e == ArenaException.ENOMEM) {
                    throw ArenaException.of("prefetching frame " + frame + ": mprotect", e);
                }
                throw new ArenaException(
                        "prefetching frame " + frame + " (page " + page(frame) + "): " + reason.description()
                                + (e != 0 ? " (errno " + e + ")" : ""),
                        e);
            }
        } catch (ArenaException e) {
            throw e;
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_prefetch", t);
        }
    }

    public FrameState state(long frame) {
        return FrameState.of(rawState(frame) & 0xff);
    }

    /** Whether a resident frame was reprotected by the clock and not referenced since. */
    public boolean reprotected(long frame) {
        return ((rawState(frame) >>> 8) & 0x1) != 0;
    }

    private int rawState(long frame) {
        Objects.checkFrame(frame, frameCount());
        try {
            return (int) NativeCalls.FRAME_STATE.invokeExact(handle, frame);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_frame_state", t);
        }
    }

    /** The page a frame is reserved for. */
    public long page(long frame) {
        Objects.checkFrame(frame, frameCount());
        try {
            return (long) NativeCalls.FRAME_PAGE.invokeExact(handle, frame);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_frame_page", t);
        }
    }

    /** How many times the frame's page was read from its source. */
    public int loads(long frame) {
        Objects.checkFrame(frame, frameCount());
        try {
            return (int) NativeCalls.FRAME_LOADS.invokeExact(handle, frame);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_frame_loads", t);
        }
    }

    /** The indices of all DIRTY frames, ascending. */
    public long[] dirtyFrames() {
        return list(NativeCalls.DIRTY_LIST, "qs_dirty_list");
    }

    private long[] list(java.lang.invoke.MethodHandle call, String name) {
        long[] result = new long[0];
        try (Arena tmp = Arena.ofConfined()) {
            int batch = 1024;
            MemorySegment buf = tmp.allocate(JAVA_LONG, batch);
            long from = 0;
            for (; ; ) {
                long n = (long) call.invokeExact(handle, from, buf, (long) batch);
                int old = result.length;
                result = Arrays.copyOf(result, old + (int) n);
                for (int k = 0; k < n; k++) {
                    result[old + k] = buf.getAtIndex(JAVA_LONG, k);
                }
                if (n < batch) {
                    return result;
                }
                from = result[result.length - 1] + 1;
            }
        } catch (Throwable t) {
            throw NativeCalls.fail(name, t);
        }
    }

    /**
     * The pre-image of a DIRTY frame (its bytes at the first write fault), or empty if it is not
     * dirty. Valid until the frame is cleaned, evicted or released.
     */
    public MemorySegment preimage(long frame) {
        Objects.checkFrame(frame, frameCount());
        long addr;
        try {
            addr = (long) NativeCalls.PREIMAGE_OF.invokeExact(handle, frame);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_preimage_of", t);
        }
        return addr == 0 ? MemorySegment.NULL : MemorySegment.ofAddress(addr).reinterpret(frameSize, views, null);
    }

    /** After write-back: DIRTY to CLEAN, pre-image freed, writes fault again. Returns whether it was dirty. */
    public boolean markClean(long frame) {
        int rc;
        try {
            rc = (int) NativeCalls.MARK_CLEAN.invokeExact(handle, frame);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_mark_clean", t);
        }
        if (rc < 0) {
            throw ArenaException.of("marking frame " + frame + " clean", -rc);
        }
        return rc == 1;
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
        Objects.checkFrame(frame, frameCount());
        if (!page.isNative() || page.byteSize() < frameSize) {
            throw new IllegalArgumentException("install needs " + frameSize + " bytes of native memory");
        }
        int rc;
        try {
            rc = (int) NativeCalls.INSTALL.invokeExact(handle, frame, page);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_install", t);
        }
        if (rc < 0) {
            throw ArenaException.of("installing frame " + frame, -rc);
        }
        return rc == 1;
    }

    /**
     * The caller is about to write a resident frame through the {@linkplain #alias() alias view}
     * (which never faults): captures its pre-image exactly as a write fault would and makes the
     * application view writable. Returns true if captured, false if the frame was DIRTY already.
     *
     * @throws ArenaException if the frame is not resident or no pre-image slot could be mapped
     */
    public boolean markDirty(long frame) {
        Objects.checkFrame(frame, frameCount());
        int rc;
        try {
            rc = (int) NativeCalls.MARK_DIRTY.invokeExact(handle, frame);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_mark_dirty", t);
        }
        if (rc < 0) {
            throw ArenaException.of("marking frame " + frame + " dirty", -rc);
        }
        return rc == 1;
    }

    // ---- write detection: card marking (qs_cards.c; Hosking and Moss 1993, section 3) ------------------

    private int cardShift;
    private MemorySegment cards = MemorySegment.NULL;

    /**
     * Switches the arena to card marking before any frame is resident: an accessible clean frame is
     * mapped READ|WRITE (application stores never fault), and the application's write barrier marks
     * cards of {@code 2^cardShift} bytes in {@link #cards()} through {@link #markCard}. {@code cardShift}
     * 0 keeps page protection.
     *
     * @throws ArenaException with EINVAL for a card size outside [64, frameSize] or more than 64 cards per
     *     frame, EBUSY if frames are resident or card marking is on already
     */
    public void cardMarking(int cardShift) {
        int rc;
        try {
            rc = (int) NativeCalls.SET_WRITE_DETECTION.invokeExact(handle, cardShift);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_set_write_detection", t);
        }
        if (rc < 0) {
            throw ArenaException.of("selecting card marking with 2^" + cardShift + "-byte cards", -rc);
        }
        if (cardShift != 0) {
            long addr;
            try {
                addr = (long) NativeCalls.ARENA_CARDS.invokeExact(handle);
            } catch (Throwable t) {
                throw NativeCalls.fail("qs_arena_cards", t);
            }
            this.cardShift = cardShift;
            this.cards = MemorySegment.ofAddress(addr).reinterpret(size >>> cardShift, views, null);
        }
    }

    /** log2 of the card size, or 0 under page protection. */
    public int cardShift() {
        return cardShift;
    }

    /**
     * The card table: byte {@code (address - base()) >>> cardShift()} is 1 while that card was marked in a
     * DIRTY frame, else 0 (cleared whenever the frame's pre-image is freed). Empty under page protection.
     */
    public MemorySegment cards() {
        return cards;
    }

    /**
     * The write barrier's slow path for a store at view offset {@code offset}: the frame's pre-image is
     * captured on its first mark (it becomes DIRTY, protection unchanged) and the card is marked. Returns 1
     * if the frame became dirty, 0 if it was dirty already (or refused), -1 if it is not resident (touch it
     * through the view, which loads it, and retry).
     *
     * @throws ArenaException if no pre-image slot could be mapped or the arena is not in card mode
     */
    public int markCard(long offset) {
        int rc;
        try {
            rc = (int) NativeCalls.MARK_CARD.invokeExact(handle, offset);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_mark_card", t);
        }
        if (rc == -2 /* ENOENT */) {
            return -1;
        }
        if (rc < 0) {
            throw ArenaException.of("marking the card of view offset " + offset, -rc);
        }
        return rc;
    }

    /** {@code QS_F_WHOLE} of qs_arena.h (frame flags are bits 8.. of the raw state); keep in sync. */
    private static final int FLAG_WHOLE = 0x80;

    /** Whether a DIRTY frame was (also) dirtied by the store itself ({@link #markDirty}) in card mode. */
    public boolean dirtiedWhole(long frame) {
        return ((rawState(frame) >>> 8) & FLAG_WHOLE) != 0;
    }

    /** The indices of all resident (CLEAN or DIRTY) frames, ascending. */
    public long[] residentFrameList() {
        return list(NativeCalls.RESIDENT_LIST, "qs_resident_list");
    }

    /**
     * Repairs REFUSED frames without losing bytes (unlike {@link #resetRefused}): a frame refused while
     * resident becomes resident again (reprotected, so its next access takes a reference fault); others
     * go back to RESERVED or FREE. Returns how many frames were repaired.
     */
    public long repairRefused(long first, long count) {
        return checked("repairing frames " + first + "+" + count, () ->
                (long) NativeCalls.REPAIR_REFUSED.invokeExact(handle, first, count));
    }

    /**
     * Pages of the VMA reserve in place (at most 32): single-page mappings the fault path unmaps when it
     * cannot map a refused frame's scratch page at the vm.max_map_count limit; refilled by {@link
     * #repairRefused} and {@link #resetRefused}.
     */
    public int vmaReserve() {
        try {
            return (int) NativeCalls.VMA_RESERVE_COUNT.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_vma_reserve_count", t);
        }
    }

    /** Tests: the next {@code n} scratch mappings of the refusal path fail with ENOMEM. */
    void failScratchMappings(int n) {
        try {
            NativeCalls.TEST_FAIL_SCRATCH.invokeExact(handle, n);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_test_fail_scratch", t);
        }
    }

    // ---- pointer translation -------------------------------------------------------------------

    /**
     * Registers a translation table: a pointer value v in [lo[k], hi[k]) becomes v + delta[k] when a
     * relocated page is loaded. Ranges must be non-empty and disjoint. Returns the table id.
     */
    public int addTranslationTable(long[] lo, long[] hi, long[] delta) {
        if (lo.length != hi.length || lo.length != delta.length) {
            throw new IllegalArgumentException("lo, hi and delta must have the same length");
        }
        try (Arena tmp = Arena.ofConfined()) {
            int rc = (int) NativeCalls.XLATE_TABLE_ADD.invokeExact(
                    handle,
                    tmp.allocateFrom(JAVA_LONG, lo),
                    tmp.allocateFrom(JAVA_LONG, hi),
                    tmp.allocateFrom(JAVA_LONG, delta),
                    lo.length);
            if (rc < 0) {
                throw ArenaException.of("adding a translation table (ranges must be non-empty and disjoint)", -rc);
            }
            return rc;
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_xlate_table_add", t);
        }
    }

    /**
     * Declares that a non-resident frame's page must be relocated when loaded: bit k of
     * {@code pointerWords} set = the little-endian 8-byte word at offset 8k is a pointer translated
     * through table {@code table}; {@code table < 0} removes the relocation.
     */
    public void setRelocation(long frame, BitSet pointerWords, int table) {
        byte[] bits = Arrays.copyOf(pointerWords.toByteArray(), frameSize / 64);
        if (pointerWords.length() > frameSize / 8) {
            throw new IllegalArgumentException("pointer map has bits beyond the frame's " + frameSize / 8 + " words");
        }
        try (Arena tmp = Arena.ofConfined()) {
            int rc = (int) NativeCalls.FRAME_SET_RELOCATION.invokeExact(
                    handle, frame, tmp.allocateFrom(JAVA_BYTE, bits), table);
            if (rc < 0) {
                throw ArenaException.of("setting the relocation of frame " + frame, -rc);
            }
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_frame_set_relocation", t);
        }
    }

    // ---- refusals and counters ---------------------------------------------------------------

    /** Whether a refusal is waiting to be taken by {@link #checkPending()} (one acquire load). */
    public boolean hasPending() {
        return (long) LONG_ACQUIRE.getAcquire(pending, 0L) != 0;
    }

    /**
     * Throws {@link FaultRefusedException} if the fault path refused an access since the last check:
     * the calling thread's oldest refusal if it has one, otherwise the oldest of any thread. Each
     * refusal is thrown exactly once. Costs one acquire load when nothing is pending.
     */
    public void checkPending() {
        if ((long) LONG_ACQUIRE.getAcquire(pending, 0L) != 0) {
            throwPending();
        }
    }

    private void throwPending() {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment out = tmp.allocate(JAVA_LONG, 7);
            int rc = (int) NativeCalls.REFUSAL_TAKE.invokeExact(handle, out);
            if (rc == 0) {
                return; // another thread took it
            }
            long[] r = out.toArray(JAVA_LONG);
            throw new FaultRefusedException(
                    r[3], r[4], r[5], RefusalReason.of(r[0]), (int) r[1], (int) r[2], r[6] == 1);
        } catch (FaultRefusedException e) {
            throw e;
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_refusal_take", t);
        }
    }

    /** A counter that grows when the fault path exceeded a soft budget; Java's replacer should run. */
    public long pressure() {
        try {
            return (long) NativeCalls.ARENA_PRESSURE.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_pressure", t);
        }
    }

    /** Frames currently holding bytes. */
    public long residentFrames() {
        try {
            return (long) NativeCalls.ARENA_RESIDENT.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_resident", t);
        }
    }

    public FaultCounters counters() {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment out = tmp.allocate(JAVA_LONG, FaultCounters.COUNT);
            int n = (int) NativeCalls.COUNTERS.invokeExact(handle, out, FaultCounters.COUNT);
            if (n != FaultCounters.COUNT) {
                throw new NativeLibraryException(
                        "library has " + n + " counters, binding expects " + FaultCounters.COUNT);
            }
            return FaultCounters.of(out.toArray(JAVA_LONG));
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_counters", t);
        }
    }

    /** The Linux thread id of the calling thread (as recorded in refusals). */
    public static int nativeThreadId() {
        try {
            return (int) NativeCalls.GETTID.invokeExact();
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_gettid", t);
        }
    }

    /** Closes the views (FFM guarantees no access is in flight), then unmaps and frees everything. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        views.close();
        try {
            NativeCalls.ARENA_CLOSE.invokeExact(handle);
        } catch (Throwable t) {
            throw NativeCalls.fail("qs_arena_close", t);
        }
    }

    @FunctionalInterface
    private interface LongCall {
        long call() throws Throwable;
    }

    private static long checked(String what, LongCall c) {
        long rc;
        try {
            rc = c.call();
        } catch (Throwable t) {
            throw NativeCalls.fail(what, t);
        }
        if (rc < 0) {
            throw ArenaException.of(what, (int) -rc);
        }
        return rc;
    }

    private static final class Objects {
        static void checkFrame(long frame, long count) {
            if (frame < 0 || frame >= count) {
                throw new IndexOutOfBoundsException("frame " + frame + " outside the arena's " + count + " frames");
            }
        }
    }
}
