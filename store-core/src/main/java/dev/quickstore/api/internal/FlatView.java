package dev.quickstore.api.internal;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_CHAR_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Field loads and stores of the generated {@code $Impl} accessors: one unsigned range compare against the bound
 * view, then the access at the absolute address through a constant segment, so a hot getter costs what a
 * QuickStore getter costs in the paper (White and DeWitt 1994, section 3.1: a persistent object is accessed
 * through a plain virtual-memory pointer; residency is the MMU's job, the fault path's, not the accessor's).
 *
 * <p>Why (issue 13, docs/results.md "Hot path, third landing"): {@code View.segment().get(layout, a -
 * View.base())} reloads a segment held in a plain static on every access and runs the segment's own checks on
 * it (its session's state and owner, its length, its address for the alignment test), which C2 cannot hoist out
 * of a reference-following loop that allocates a proxy per node, nor across the recursion of a tree walk (the
 * first landing's profile: about 30 % of a hot tree walk). The opt-in constant view ({@link View#CONSTANT})
 * folds them but deoptimizes on every store open and close. Here the segment is a {@code static final}
 * constant ({@link #ALL}, global scope, base address 0), so its checks fold to constants in compiled code, and
 * the only per-access work left is {@code address - lo <=u limit - size} and the load; binding another view
 * changes three plain longs and deoptimizes nothing.
 *
 * <p>The layouts are the unaligned ones: generated layouts align every field (docs/formats.md), so on x86-64 the
 * load is the same instruction, and the segment's alignment test (8 % of a hot tree walk's samples with the
 * aligned layouts) is not paid per access; a misaligned wild reference inside the view reads garbage instead of
 * throwing, as a wild reference to an aligned address does anyway.
 *
 * <p>The guarantee of design notes section 2a is kept: the range compare is the bound. An address outside the
 * bound view (a wild or zero reference, a proxy used after its store closed: the view is then unbound and
 * every access refused) throws {@link IndexOutOfBoundsException} naming the address and the view before any
 * memory is touched; {@link #ALL} itself never leaves this class. What is given up: the bound segment's arena
 * session is not consulted per access, so a proxy read on one thread while another thread closes the store may
 * read an unmapped page (as with the plain statics of {@link View}, which another thread may also see stale:
 * the object API is single-threaded per store).
 *
 * <p>The {@code (lo, limit, delta)} triple is published by {@link View} whenever it binds a segment: {@code lo}
 * is the arena address of the segment's first byte, {@code limit} its length, {@code delta} the segment's
 * native address minus {@code lo} (0 for the mapped view, which is the arena itself; the copying view's copy
 * lives elsewhere). Unbound (or a view that is not native memory, none today),
 * the range is 8 zero bytes at arena address {@code Long.MIN_VALUE}, which no user-space reference can hold, so
 * the compare stays one unsigned compare and every real address is refused (a wild access at exactly that
 * address reads or writes those 8 bytes, harmlessly).
 */
public final class FlatView {
    /**
     * Every address, global scope: the constant every access goes through after its range compare (a restricted
     * method, like the mapping the view itself comes from: {@code --enable-native-access} is required anyway).
     */
    @SuppressWarnings("restricted")
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /**
     * Arena address of the bound view's first byte. Unbound: {@link Long#MIN_VALUE} (never a user-space address),
     * over {@link #NOWHERE}, so that one unsigned compare refuses every real address.
     */
    private static long lo = Long.MIN_VALUE;
    /** The bound view's length in bytes (at least 8). */
    private static long limit = 8;
    /** Native address of the view's byte at {@link #lo}, minus {@link #lo}. */
    private static long delta;
    /** False while no store is bound (for the message of a refused access only). */
    private static boolean bound;

    /** The 8 zero bytes an unbound view maps at {@code Long.MIN_VALUE}: what keeps the compare single. */
    private static final MemorySegment NOWHERE = Arena.global().allocate(8, 8);

    static {
        publish(MemorySegment.NULL, 0);
    }

    private FlatView() {}

    /** Binds {@code seg}, whose offset 0 is arena address {@code base}; NULL, a heap or a tiny segment unbinds. */
    static void publish(MemorySegment seg, long base) {
        if (seg.isNative() && seg.byteSize() >= 8) {
            lo = base;
            delta = seg.address() - base;
            limit = seg.byteSize();
            bound = true;
        } else {
            bound = false;
            lo = Long.MIN_VALUE;
            delta = NOWHERE.address() - Long.MIN_VALUE;
            limit = 8;
        }
    }

    /**
     * The absolute address of arena address {@code a} for an access of {@code n} bytes, after the range compare
     * ({@code n} is a constant at every call site and {@code limit >= 8}, so this is a subtraction, one unsigned
     * compare and an add).
     */
    private static long at(long a, int n) {
        if (Long.compareUnsigned(a - lo, limit - n) > 0) {
            throw outside(a, n);
        }
        return a + delta;
    }

    private static IndexOutOfBoundsException outside(long a, int n) {
        return new IndexOutOfBoundsException(
                bound
                        ? String.format(
                                "%d-byte access at address 0x%x is outside the bound view [0x%x, 0x%x): a wild or"
                                        + " stale reference",
                                n, a, lo, lo + limit)
                        : String.format(
                                "address 0x%x: no store is bound to the view (closed?); no foreign memory is read", a));
    }

    /**
     * The int at {@code a} (an object's type tag) after one range compare over the whole object, {@code
     * [a, a + size)}: the arrival check of a generated cursor (docs/results.md, "Reference following: the floor"),
     * after which the {@code ...In} loads read the object's fields without a compare of their own.
     */
    public static int tagOf(long a, int size) {
        return ALL.get(JAVA_INT_UNALIGNED, at(a, size));
    }

    /** Checks that {@code [a, a + size)} is inside the bound view (the arrival check of {@link #tagOf}). */
    public static void checkObject(long a, int size) {
        at(a, size);
    }

    /*
     * Loads without a range compare, at an address inside an object that tagOf or checkObject accepted in a
     * transaction the caller has just checked is still active (so its store is still bound, and the view, which
     * only grows while a store is bound, still holds the object). One compare per object instead of one per
     * field: per load, the compare is about 30 % of a checked raw tree walk (docs/results.md, "Reference
     * following: the floor").
     */

    public static byte getByteIn(long a) {
        return ALL.get(JAVA_BYTE, a + delta);
    }

    public static short getShortIn(long a) {
        return ALL.get(JAVA_SHORT_UNALIGNED, a + delta);
    }

    public static char getCharIn(long a) {
        return ALL.get(JAVA_CHAR_UNALIGNED, a + delta);
    }

    public static int getIntIn(long a) {
        return ALL.get(JAVA_INT_UNALIGNED, a + delta);
    }

    public static long getLongIn(long a) {
        return ALL.get(JAVA_LONG_UNALIGNED, a + delta);
    }

    public static float getFloatIn(long a) {
        return ALL.get(JAVA_FLOAT_UNALIGNED, a + delta);
    }

    public static double getDoubleIn(long a) {
        return ALL.get(JAVA_DOUBLE_UNALIGNED, a + delta);
    }

    public static byte getByte(long a) {
        return ALL.get(JAVA_BYTE, at(a, 1));
    }

    public static short getShort(long a) {
        return ALL.get(JAVA_SHORT_UNALIGNED, at(a, 2));
    }

    public static char getChar(long a) {
        return ALL.get(JAVA_CHAR_UNALIGNED, at(a, 2));
    }

    public static int getInt(long a) {
        return ALL.get(JAVA_INT_UNALIGNED, at(a, 4));
    }

    public static long getLong(long a) {
        return ALL.get(JAVA_LONG_UNALIGNED, at(a, 8));
    }

    public static float getFloat(long a) {
        return ALL.get(JAVA_FLOAT_UNALIGNED, at(a, 4));
    }

    public static double getDouble(long a) {
        return ALL.get(JAVA_DOUBLE_UNALIGNED, at(a, 8));
    }

    public static void setByte(long a, byte v) {
        ALL.set(JAVA_BYTE, at(a, 1), v);
    }

    public static void setShort(long a, short v) {
        ALL.set(JAVA_SHORT_UNALIGNED, at(a, 2), v);
    }

    public static void setChar(long a, char v) {
        ALL.set(JAVA_CHAR_UNALIGNED, at(a, 2), v);
    }

    public static void setInt(long a, int v) {
        ALL.set(JAVA_INT_UNALIGNED, at(a, 4), v);
    }

    public static void setLong(long a, long v) {
        ALL.set(JAVA_LONG_UNALIGNED, at(a, 8), v);
    }

    public static void setFloat(long a, float v) {
        ALL.set(JAVA_FLOAT_UNALIGNED, at(a, 4), v);
    }

    public static void setDouble(long a, double v) {
        ALL.set(JAVA_DOUBLE_UNALIGNED, at(a, 8), v);
    }
}
