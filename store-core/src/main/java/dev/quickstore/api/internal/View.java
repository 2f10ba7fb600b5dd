package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MutableCallSite;
import java.util.function.LongConsumer;

/**
 * The application view generated accessors read and write: the object at address {@code a} lives at
 * {@code segment()} offset {@code a - base()}. One per process, like the arena it will map (design notes
 * section 5): at most one {@code PersistentStore} is bound at a time. Unbound, the view is a zero-length
 * segment, so a proxy used after its store closed throws {@link IndexOutOfBoundsException} instead of
 * touching foreign memory.
 *
 * <p>The fields are plain statics (not volatile): a hot getter is one static load of the segment, one of the
 * base, and the bounds-checked load itself, which C2 hoists out of loops.
 *
 * <p><b>The constant view</b> ({@code -Dqs.api.constantView=true}; issue 13, docs/results.md "Hot path (issue
 * 13)"). The segment and its base are then also held by one immutable {@link Bound} record that a {@link
 * MutableCallSite} returns: C2 inlines the call site's current target as a constant and records a dependency on
 * it, so in compiled code {@link #segment()} and {@link #base()} are constants, the segment's length and its
 * session fold into compile-time values, and an access is a compare against a constant and the load. With the
 * plain statics the profile of a hot tree walk spends about 30 % of its samples in the segment's session
 * and bounds checks, which C2 cannot hoist across recursion or calls. The price: binding another segment (every
 * store open and close, a grown copying view) sets a new target, which deoptimizes all code compiled against
 * the old one, so the first run after a reopen is interpreted (OO7's cold runs reopen the store before every
 * operation and got several times slower). Hence off by default: for processes that keep one store open and
 * hot.
 *
 * <p><b>Write barrier</b> (Hosking and Moss 1993, section 3, card marking). Every write of the object API
 * calls {@link #mark} (or {@link #markRange}) with the address it is about to store to, before the store:
 * {@code if (cards[(address - cardBase) >>> cardShift] == 0) slowPath(address)}. Under card marking the table is
 * the store's card table (one byte per 2^k-byte card of the arena) and the slow path ({@code
 * Store.markCard}) captures the page's pre-image on its first mark and sets the byte, so a repeated store to a
 * marked card costs a shift, a byte load and a not-taken branch. Under page protection (and when unbound) the
 * table is one byte that is always 1 with shift 63, so every address maps to it: the barrier is one load and a
 * never-taken branch, and the write fault does the detection.
 */
public final class View {
    /**
     * {@code -Dqs.api.strict=true}: every generated getter also checks that its transaction is still
     * active (setters always check). Off by default: a per-field check costs about a nanosecond.
     */
    public static final boolean STRICT = Boolean.getBoolean("qs.api.strict");

    /** {@code -Dqs.api.constantView=true}: the view is a JIT-time constant (see the class comment). */
    public static final boolean CONSTANT = Boolean.getBoolean("qs.api.constantView");

    private static MemorySegment segment = MemorySegment.NULL;
    private static long base;

    /** The bound segment and the arena address at its offset 0; a record, so C2 trusts its final fields. */
    private record Bound(MemorySegment segment, long base) {}

    private static final MutableCallSite BOUND =
            new MutableCallSite(MethodHandles.constant(Bound.class, new Bound(MemorySegment.NULL, 0)));
    private static final MethodHandle CURRENT = BOUND.dynamicInvoker();

    private static int pageSize = 8192;
    private static Object owner;

    /** Page protection's table: one byte, always 1 ("always dirty": the barrier never takes its slow path). */
    private static final MemorySegment ALWAYS_DIRTY = Arena.global().allocate(1).fill((byte) 1);

    private static MemorySegment cards = ALWAYS_DIRTY;
    private static long cardBase;
    private static int cardShift = 63;
    private static LongConsumer slowPath = a -> {};
    /** Null: {@link #markRange} marks card by card; else the scheme takes range stores whole. */
    private static RangeBarrier rangeSlowPath;

    /** A scheme's slow path for range stores (object marking, remembered sets: they need the length). */
    @FunctionalInterface
    public interface RangeBarrier {
        void mark(long address, long length);
    }

    /** Where {@link #announceWrites} goes (the store's, under page protection with a mapped view); null: nowhere. */
    private static RangeBarrier announcer;

    private View() {}

    /**
     * Binds the store's announcement of multi-page stores ({@code Store.announceWrites}) for {@code currentOwner}'s
     * view, or none ({@code null}).
     */
    public static synchronized void bindAnnouncer(Object currentOwner, RangeBarrier a) {
        if (owner == currentOwner) {
            announcer = a;
        }
    }

    /**
     * A hint before storing {@code length} bytes from {@code address} across several pages (a large object's run):
     * under page protection the store makes the clean pages writable together instead of one write fault each. Not
     * a barrier: every store still goes through {@link #mark}/{@link #markRange}.
     */
    public static void announceWrites(long address, long length) {
        RangeBarrier a = announcer;
        if (a != null) {
            a.mark(address, length);
        }
    }

    /** The write barrier: call before storing at {@code address} (see the class comment). */
    public static void mark(long address) {
        if (cards.get(JAVA_BYTE, (address - cardBase) >>> cardShift) == 0) {
            slowPath.accept(address);
        }
    }

    /** The write barrier for a store of {@code length} bytes from {@code address}: marks every card covered. */
    public static void markRange(long address, long length) {
        if (length <= 0) {
            return;
        }
        RangeBarrier r = rangeSlowPath;
        if (r != null) {
            r.mark(address, length);
            return;
        }
        long first = (address - cardBase) >>> cardShift;
        long last = (address + length - 1 - cardBase) >>> cardShift;
        for (long c = first; c <= last; c++) {
            if (cards.get(JAVA_BYTE, c) == 0) {
                slowPath.accept(Math.max(address, cardBase + (c << cardShift)));
            }
        }
    }

    /**
     * Installs card marking for the bound store: {@code table} byte {@code (a - tableBase) >>> shift} belongs to
     * address a; {@code slow} marks a card whose byte is 0. {@code table} NULL restores page protection's
     * always-dirty table.
     */
    public static synchronized void bindBarrier(
            Object currentOwner, MemorySegment table, long tableBase, int shift, LongConsumer slow) {
        bindBarrier(currentOwner, table, tableBase, shift, slow, null);
    }

    /** {@link #bindBarrier}, range stores going to {@code ranges} whole when it is not null. */
    public static synchronized void bindBarrier(
            Object currentOwner,
            MemorySegment table,
            long tableBase,
            int shift,
            LongConsumer slow,
            RangeBarrier ranges) {
        if (owner != currentOwner) {
            return;
        }
        if (table == null || table.equals(MemorySegment.NULL) || shift == 0) {
            resetBarrier();
        } else {
            rangeSlowPath = ranges;
            slowPath = slow;
            cardBase = tableBase;
            cardShift = shift;
            cards = table;
        }
    }

    private static void resetBarrier() {
        cards = ALWAYS_DIRTY;
        cardBase = 0;
        cardShift = 63;
        slowPath = a -> {};
        rangeSlowPath = null;
    }

    private static Bound current() {
        try {
            return (Bound) CURRENT.invokeExact();
        } catch (Throwable impossible) { // a constant method handle throws nothing
            throw new AssertionError(impossible);
        }
    }

    /**
     * Publishes a new binding; under {@link #CONSTANT} compiled code that folded the old one is deoptimized (see
     * the class comment).
     */
    private static void publish(MemorySegment seg, long arenaBase) {
        segment = seg;
        base = arenaBase;
        FlatView.publish(seg, arenaBase);
        if (CONSTANT) {
            BOUND.setTarget(MethodHandles.constant(Bound.class, new Bound(seg, arenaBase)));
            MutableCallSite.syncAll(new MutableCallSite[] {BOUND});
        }
    }

    public static MemorySegment segment() {
        return CONSTANT ? current().segment() : segment;
    }

    public static long base() {
        return CONSTANT ? current().base() : base;
    }

    static int pageSize() {
        return pageSize;
    }

    /** Binds the process's view to {@code newOwner}'s store; fails if another store is bound. */
    public static synchronized void bind(Object newOwner, MemorySegment seg, long arenaBase, int pages) {
        if (owner != null && owner != newOwner) {
            throw new IllegalStateException("another persistent store is open in this process (" + owner
                    + "); one application view per process: close it first");
        }
        owner = newOwner;
        pageSize = pages;
        publish(seg, arenaBase);
    }

    /** Replaces the segment of the bound store (the copying view grows by copying). */
    static synchronized void rebind(Object currentOwner, MemorySegment seg) {
        if (owner == currentOwner && seg != segment()) {
            publish(seg, base());
        }
    }

    public static synchronized void unbind(Object currentOwner) {
        if (owner == currentOwner) {
            owner = null;
            publish(MemorySegment.NULL, 0);
            resetBarrier();
            announcer = null;
        }
    }
}
