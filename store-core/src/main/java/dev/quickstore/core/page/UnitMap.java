package dev.quickstore.core.page;

import java.lang.foreign.MemorySegment;
import java.util.BitSet;

/**
 * A slotted page's free space as first fit sees it, learned in one pass over the slot array and then kept beside the
 * page by the one writer that changes it: which 8-byte units hold live objects, which slots are free, the slot and
 * live counts, and the end of the object at the highest offset. {@link #placement} is {@link SlottedPage#placement}
 * of the page in its present state and {@link #firstFreeSlot} the slot {@link SlottedPage#allocate} would take, both
 * without a pass over the slot array; {@link #placed} records an allocation made there.
 *
 * <p>Why: a page that objects were deleted from (OO7 SM2) and that new objects are placed on again (SM1) is not densely
 * packed, so each placement on it marked every live object in a bitmap of the page's units and each allocation
 * searched the slot array for its first free slot: about 5 % of SM1+SM2 at a few hundred slots a page (issue 13,
 * docs/results.md, "Owned fields at offsets computed once, placement from a kept unit map"). Cricket and ESM keep a
 * page's free space the same way beside the page for the allocator (Shekita and Zwilling 1990, section 5.1.4).
 *
 * <p>Invariant: while {@link #describes} holds for the page and only its keeper has changed the page since {@link
 * #of} (through {@link #placed} allocations and {@link #freeing} deletes; a delete it refuses drops the map), the map
 * equals what {@link #of} would learn from the page now. {@link SlottedPage#allocateAt} checks each placement and
 * slot against the page when assertions are on.
 */
public final class UnitMap {
    private final int pageSize;
    /** Bit u: the 8-byte unit at page offset {@code 8u} belongs to a live object. */
    private final BitSet used;
    /** Bit s: slot s is free (offset 0), below {@link #slots}. */
    private final BitSet freeSlots;

    private int slots;
    private int live;
    /** The offset of the live object at the highest offset (0: none) and that object's end. */
    private int lastOff;

    private int lastEnd;

    private UnitMap(int pageSize) {
        this.pageSize = pageSize;
        this.used = new BitSet(pageSize / 8);
        this.freeSlots = new BitSet();
    }

    /** The map of slotted page {@code p} as it is now (one pass over its slot array). */
    public static UnitMap of(MemorySegment p) {
        int n = SlottedPage.slotCount(p);
        return of(SlottedPage.slotWords(p, n), n, (int) p.byteSize());
    }

    /** The map of a page of {@code pageSize} bytes whose slot array {@link SlottedPage#slotWords} read as {@code w}. */
    static UnitMap of(int[] w, int slots, int pageSize) {
        UnitMap m = new UnitMap(pageSize);
        m.slots = slots;
        for (int i = 0; i < slots; i++) {
            int word = w[slots - 1 - i];
            int off = SlottedPage.wordOffset(word);
            if (off == 0) {
                m.freeSlots.set(i);
            } else {
                m.live++;
                m.mark(off, off + SlottedPage.wordLength(word));
            }
        }
        return m;
    }

    /**
     * The map of a {@linkplain SlottedPage#denseEnd densely packed} page of {@code pageSize} bytes without a pass over
     * its slot array: {@code slots} live slots in offset order, their objects back to back from the data start up to
     * {@code end} (8-aligned), the last of them at {@code lastOff}, ending at {@code lastEnd}. What {@link #of} would
     * learn from that page.
     */
    public static UnitMap ofDense(int pageSize, int slots, int end, int lastOff, int lastEnd) {
        assert slots > 0 && end == SlottedPage.align8(lastEnd)
                : slots + " slots, end " + end + ", last ends " + lastEnd;
        UnitMap m = new UnitMap(pageSize);
        m.slots = slots;
        m.live = slots;
        m.used.set(SlottedPage.dataStart(pageSize) / 8, end / 8);
        m.lastOff = lastOff;
        m.lastEnd = lastEnd;
        return m;
    }

    /** Assertions: whether this map is what {@link #of} learns from page {@code p} now. */
    public boolean matches(MemorySegment p) {
        UnitMap o = of(p);
        return slots == o.slots
                && live == o.live
                && lastOff == o.lastOff
                && lastEnd == o.lastEnd
                && used.equals(o.used)
                && freeSlots.equals(o.freeSlots);
    }

    private void mark(int off, int end) {
        if (off > lastOff) {
            lastOff = off;
            lastEnd = end;
        }
        used.set(off / 8, Math.min(pageSize, SlottedPage.align8(end)) / 8);
    }

    /**
     * Where {@link SlottedPage#allocate} would place an object of {@code length} bytes on the page now, or -1: the
     * first run of free units, from the data start up to the slot array (which grows by a slot unless one is free),
     * that holds it. The runs are found a word at a time ({@link BitSet#nextClearBit}, {@link BitSet#nextSetBit}).
     */
    public int placement(int length) {
        boolean freeSlot = !freeSlots.isEmpty();
        int limit = pageSize - SlottedPage.SLOT_SIZE * (freeSlot ? slots : slots + 1);
        if (!freeSlot && lastEnd > limit) {
            return -1; // the slot array cannot grow into an object
        }
        int units = SlottedPage.align8(length) / 8;
        int end = limit / 8;
        for (int u = used.nextClearBit(SlottedPage.dataStart(pageSize) / 8); u + units <= end; ) {
            int taken = used.nextSetBit(u);
            if (taken < 0 || taken - u >= units) {
                return u * 8; // the free run [u, taken) holds the object (nothing live after u: up to the limit)
            }
            u = used.nextClearBit(taken);
        }
        return -1;
    }

    /** The slot an allocation takes now: the first free one, else a new one at the end of the slot array. */
    public int firstFreeSlot() {
        int s = freeSlots.nextSetBit(0);
        return s < 0 ? slots : s;
    }

    /** An object of {@code length} bytes was placed at {@code offset} in {@code slot} (the two answers above). */
    public void placed(int offset, int slot, int length) {
        assert slot == firstFreeSlot() && offset == placement(length) : "placed off the map";
        if (slot == slots) {
            slots++;
        } else {
            freeSlots.clear(slot);
        }
        live++;
        mark(offset, offset + length);
    }

    /**
     * The live object of {@code length} bytes at {@code offset} in {@code slot} is about to be freed ({@link
     * SlottedPage#freeSlot}): its units and slot become free, and trailing free slots are trimmed as the page trims
     * them. Returns false, changing nothing, when the object is the one at the highest offset (the end the slot array
     * may not grow into would have to be learned again from the page): the caller drops the map then.
     */
    public boolean freeing(int offset, int slot, int length) {
        assert slot < slots && !freeSlots.get(slot) && live > 0 : "slot " + slot + " is not live on the map";
        if (offset == lastOff) {
            return false;
        }
        used.clear(offset / 8, Math.min(pageSize, SlottedPage.align8(offset + length)) / 8);
        freeSlots.set(slot);
        while (slots > 0 && freeSlots.get(slots - 1)) {
            slots--;
            freeSlots.clear(slots);
        }
        live--;
        return true;
    }

    /** Whether page {@code p} is still a slotted page with this map's slot and live counts (checked before a use). */
    public boolean describes(MemorySegment p) {
        return PageHeader.type(p) == PageHeader.SLOTTED && SlottedPage.counts(p) == (slots | live << 16);
    }
}
