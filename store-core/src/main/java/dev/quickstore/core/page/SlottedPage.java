package dev.quickstore.core.page;

import dev.quickstore.core.verify.VerifyReport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * A slotted page of small objects (Cricket, Shekita and Zwilling 1990, section 5.1.4; objects never
 * move within the page, as in QuickStore, so {@code arenaBase + pageId * pageSize + offset} is a stable
 * pointer). All integers little-endian.
 *
 * <pre>
 * offset              size        field
 *      0              32          {@link PageHeader} (type {@link PageHeader#SLOTTED})
 *     32              B           pointer map: bit i (byte i/8, bit i%8) set = the 8-byte word at page
 *                                 offset 8*i holds a store pointer; B = pageSize / 64
 *     32+B            2           slotCount   slots in the slot array (live or free)
 *     34+B            2           liveCount   live objects
 *     36+B            4           reserved    zero
 *     40+B ..                     object data, each object 8-byte aligned, never moved
 *     pageSize-4*(i+1) 4          slot i: u16 offset (0 = free slot), u16 length
 * </pre>
 *
 * <p>The pointer map is the per-page type information that lets the fault path find every pointer on
 * the page without knowing object types (QuickStore's per-page bitmaps). Invariants (checked by
 * {@link #check}): live objects lie in [dataStart, pageSize - 4*slotCount), are 8-aligned and do not
 * overlap; liveCount equals the number of live slots; the last slot is live (trailing free slots are
 * trimmed); pointer bits are set only inside live objects.
 */
public final class SlottedPage {
    public static final int SLOT_SIZE = 4;

    /** Each thread's array for {@link #slotWords} (an 8 KiB page has at most 2,048 slots; larger pages grow it). */
    private static final ThreadLocal<int[]> SLOT_SCRATCH = ThreadLocal.withInitial(() -> new int[2048]);

    public SlottedPage() {}

    static int bitmapBytes(int pageSize) {
        return pageSize / 64;
    }

    private static int countOffset(int pageSize) {
        return PageHeader.SIZE + bitmapBytes(pageSize);
    }

    public static int dataStart(int pageSize) {
        return countOffset(pageSize) + 8;
    }

    /** Largest object a slotted page can hold. */
    public static int maxObjectSize(int pageSize) {
        return (pageSize - dataStart(pageSize) - SLOT_SIZE) & ~7;
    }

    public static void format(MemorySegment page, long pageId) {
        PageHeader.format(page, pageId, PageHeader.SLOTTED);
    }

    public static int slotCount(MemorySegment p) {
        return Short.toUnsignedInt(p.get(PageHeader.SHORT, countOffset((int) p.byteSize())));
    }

    public static int liveCount(MemorySegment p) {
        return Short.toUnsignedInt(p.get(PageHeader.SHORT, countOffset((int) p.byteSize()) + 2));
    }

    /**
     * Both counts in one read: {@code slotCount | liveCount << 16} (each segment access is dear until C2 has compiled
     * its caller, {@link #slotWords}).
     */
    public static int counts(MemorySegment p) {
        return p.get(PageHeader.INT, countOffset((int) p.byteSize()));
    }

    private static void setCounts(MemorySegment p, int slots, int live) {
        p.set(PageHeader.INT, countOffset((int) p.byteSize()), slots | live << 16);
    }

    private static int slotPos(MemorySegment p, int slot) {
        return (int) p.byteSize() - SLOT_SIZE * (slot + 1);
    }

    public static int slotOffset(MemorySegment p, int slot) {
        return Short.toUnsignedInt(p.get(PageHeader.SHORT, slotPos(p, slot)));
    }

    public static int slotLength(MemorySegment p, int slot) {
        return Short.toUnsignedInt(p.get(PageHeader.SHORT, slotPos(p, slot) + 2));
    }

    private static void setSlot(MemorySegment p, int slot, int offset, int length) {
        p.set(PageHeader.INT, slotPos(p, slot), offset | length << 16); // u16 offset, then u16 length
    }

    /**
     * Slots {@code [0, n)} of the page read with one bulk copy: the slot array as it lies in memory, slot {@code i}
     * at index {@code n - 1 - i} (the array grows down from the page's end), each as {@code offset | length << 16}
     * ({@link #wordOffset}, {@link #wordLength}). A loop over the slot array then costs one copy and array loads
     * instead of one or two segment accesses per slot. Compiled by C2 both cost about a nanosecond a slot; before
     * that - what a store's first allocations, a fresh JVM's load and a rarely run operation execute - a segment
     * access costs about 40 ns in C1's profiling tier and 0.9 µs in the interpreter, an array load 3 and 27 ns
     * (docs/results.md, "Page scans before C2"). The array is the thread's scratch ({@link #SLOT_SCRATCH}; only
     * its first {@code n} elements are the page's), valid until the thread's next call: a new array per scan cost
     * C2's code its zeroing, 250-500 ns for 400 slots, more than a scan that stops at the first slot.
     */
    static int[] slotWords(MemorySegment p, int n) {
        int[] w = SLOT_SCRATCH.get();
        if (w.length < n) {
            w = new int[Math.max(n, 2 * w.length)];
            SLOT_SCRATCH.set(w);
        }
        MemorySegment.copy(p, PageHeader.INT, p.byteSize() - (long) SLOT_SIZE * n, w, 0, n);
        return w;
    }

    /** The offset in a {@link #slotWords} element (0: a free slot). */
    static int wordOffset(int word) {
        return word & 0xffff;
    }

    /** The length in a {@link #slotWords} element. */
    static int wordLength(int word) {
        return word >>> 16;
    }

    /**
     * The slot of the live object starting at {@code offset}, or -1. A binary search first: appending places objects in
     * slot order at rising offsets (the order {@link #placement} also relies on), so the live slots are usually in
     * offset order and the search takes a logarithmic number of probes ({@link #searchOrdered}: it steps over free
     * slots). A live offset is unique on the page, so a slot the search finds is the answer whatever the order; only a
     * miss falls back to the linear scan (a page whose freed slots were reused out of order, or an offset where no
     * object starts).
     */
    public static int slotAt(MemorySegment p, int offset) {
        if (offset == 0) {
            return -1;
        }
        int n = slotCount(p);
        int found = searchOrdered(p, offset, n);
        return found >= 0 ? found : scanSlots(p, offset, n);
    }

    /** Slots after the last freed one that {@link #slotNext} tries. */
    private static final int NEXT = 4;

    /**
     * The slot of the live object at {@code offset} when it is one of the {@value #NEXT} slots after slot {@code
     * last} or the one before it, else -1: a graph freed in the order it was created frees slots a short step
     * apart (OO7 SM2: 46 % of its deletes on the page of the last one are one to three slots after it), so the
     * search of {@link #slotAt} is not needed for them. A slotted page only.
     */
    public static int slotNext(MemorySegment p, int offset, int last) {
        assert PageHeader.type(p) == PageHeader.SLOTTED;
        if (offset == 0 || last < 0) {
            return -1; // 0 is a free slot's offset, never an object's
        }
        int end = Math.min(slotCount(p), last + 1 + NEXT);
        for (int s = last + 1; s < end; s++) {
            if (slotOffset(p, s) == offset) {
                return s;
            }
        }
        return last > 0 && slotOffset(p, last - 1) == offset ? last - 1 : -1;
    }

    /**
     * Fills {@code index} (at least {@code pageSize / 8} entries) so that entry {@code offset / 8} is one more than the
     * slot of the live object at {@code offset}, and 0 where no live object starts: one pass over the slot array,
     * after which {@link #indexedSlot} finds a slot by one read. A hint for a page that changes afterwards: an entry
     * is used only after the slot it names is read and found to hold that offset (a live offset is unique on the
     * page, so a slot that holds it is the answer), so a stale index can only miss, never mislead.
     */
    public static void indexSlots(MemorySegment p, char[] index) {
        int n = slotCount(p);
        int[] w = slotWords(p, n);
        java.util.Arrays.fill(index, 0, (int) p.byteSize() / 8, (char) 0);
        for (int i = 0; i < n; i++) {
            int off = wordOffset(w[n - 1 - i]);
            if (off != 0) {
                index[off / 8] = (char) (i + 1);
            }
        }
    }

    /** The slot of the live object at {@code offset} by {@code index} ({@link #indexSlots}), checked; else -1. */
    public static int indexedSlot(MemorySegment p, char[] index, int offset) {
        int s = index[offset >>> 3] - 1;
        return offset != 0 && (offset & 7) == 0 && s >= 0 && s < slotCount(p) && slotOffset(p, s) == offset ? s : -1;
    }

    /** Slots probed on each side of a free slot before {@link #searchOrdered} guesses it lies in a run of them. */
    private static final int NEAR = 4;

    /**
     * {@link #slotAt} assuming the live slots are in offset order: the slot found (verified), or -1.
     *
     * <p>A free slot (offset 0) says nothing about where the object lies, so a probe that lands on one looks for the
     * nearest live slot within {@link #NEAR} slots below it, then above it, and compares with that. When all of them
     * are free too, the probe is in a run of free slots, and the search guesses that the object lies above the run:
     * objects freed in creation order (a page emptied front to back, the common order of a bulk delete) leave such
     * runs below every live slot, and the search then stays logarithmic. (Stepping down to the nearest live slot, as
     * this search did before, read the whole run on every probe in it: deleting a page's objects in creation order
     * took a quadratic number of reads, 40 % of a 16-byte object's delete; docs/results.md, "Deleting in creation
     * order".) A guess can be wrong (live slots under the run); a search that guessed and missed runs again {@link
     * #searchStepping}, which steps down over free slots and never guesses.
     */
    static int searchOrdered(MemorySegment p, int offset, int n) {
        int lo = 0;
        int hi = n - 1;
        boolean guessed = false;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int live = -1;
            int off = 0;
            for (int s = mid, end = Math.max(lo, mid - NEAR); s >= end; s--) {
                if ((off = slotOffset(p, s)) != 0) {
                    live = s;
                    break;
                }
            }
            if (live < 0) {
                for (int s = mid + 1, end = Math.min(hi, mid + NEAR); s <= end; s++) {
                    if ((off = slotOffset(p, s)) != 0) {
                        live = s;
                        break;
                    }
                }
            }
            if (live < 0) {
                guessed |= mid - NEAR > lo; // slots below the probed ones are unknown: a guess
                lo = mid + NEAR + 1;
            } else if (off < offset) {
                lo = live + 1;
            } else if (off > offset) {
                hi = live - 1;
            } else {
                return live;
            }
        }
        return guessed ? searchStepping(p, offset, n) : -1;
    }

    /**
     * The ordered search without guesses: a probe on a free slot steps down to the nearest live slot at or above
     * {@code lo} (all of them free: the object is above the probe). Reads every free slot it steps over.
     */
    private static int searchStepping(MemorySegment p, int offset, int n) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int live = mid;
            int off = 0;
            while (live >= lo && (off = slotOffset(p, live)) == 0) {
                live--; // a free slot: the nearest live slot below it orders the search
            }
            if (live < lo || off < offset) {
                lo = mid + 1; // slots live+1..mid are free
            } else if (off > offset) {
                hi = live - 1;
            } else {
                return live;
            }
        }
        return -1;
    }

    private static int scanSlots(MemorySegment p, int offset, int n) {
        int[] w = slotWords(p, n);
        for (int i = 0; i < n; i++) {
            if (wordOffset(w[n - 1 - i]) == offset) {
                return i;
            }
        }
        return -1;
    }

    /** Live objects as [offset, length] pairs sorted by offset. */
    private static List<int[]> liveSorted(MemorySegment p) {
        int n = slotCount(p);
        int[] w = slotWords(p, n);
        List<int[]> live = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int word = w[n - 1 - i];
            if (wordOffset(word) != 0) {
                live.add(new int[] {wordOffset(word), wordLength(word)});
            }
        }
        live.sort((a, b) -> Integer.compare(a[0], b[0]));
        return live;
    }

    static int align8(int v) {
        return (v + 7) & ~7;
    }

    /**
     * Where {@link #allocate} would place an object of {@code length} bytes now: the first gap (in offset
     * order, from {@link #dataStart}) between live objects that holds it, else the space after the last one
     * up to the slot array (which grows by one slot unless a free slot is reused); -1 if it does not fit.
     * Changes nothing. One pass over the slot array (read in one copy, {@link #slotWords}) when the live slots are
     * in offset order (always, unless objects were freed and their slots reused); otherwise a bitmap of the page's
     * 8-byte units ({@code placementByUnits}).
     */
    public static int placement(MemorySegment p, int length) {
        int ps = (int) p.byteSize();
        int need = align8(length);
        int slots = slotCount(p);
        int cursor = dataStart(ps);
        int gap = -1;
        int lastOff = 0;
        int lastEnd = 0;
        boolean freeSlot = false;
        int[] w = slotWords(p, slots);
        for (int i = 0; i < slots; i++) {
            int word = w[slots - 1 - i];
            int off = wordOffset(word);
            if (off == 0) {
                freeSlot = true;
                continue;
            }
            if (off < lastOff) {
                return placementByUnits(w, need, ps, slots);
            }
            int len = wordLength(word);
            if (gap < 0 && off - cursor >= need) {
                gap = cursor;
            }
            lastOff = off;
            lastEnd = off + len;
            cursor = Math.max(cursor, align8(lastEnd));
        }
        return fit(ps, slots, freeSlot, lastEnd, gap, cursor, need);
    }

    /**
     * {@link #placement} when the live slots are not in offset order: first fit in offset order, as in the ordered
     * case, without sorting, through a {@link UnitMap} of the page's 8-byte units.
     */
    private static int placementByUnits(int[] w, int need, int ps, int slots) {
        return UnitMap.of(w, slots, ps).placement(need);
    }

    private static int fit(int ps, int slots, boolean freeSlot, int lastEnd, int gap, int cursor, int need) {
        int limit = ps - SLOT_SIZE * (freeSlot ? slots : slots + 1);
        if (!freeSlot && lastEnd > limit) {
            return -1; // the slot array cannot grow into an object
        }
        if (gap >= 0) {
            return gap;
        }
        return limit - cursor >= need ? cursor : -1;
    }

    /**
     * The end (8-aligned) of the live objects if the page is <em>densely packed</em>: no free slot, the live slots
     * in offset order and the objects back to back from {@link #dataStart} (what appending alone produces); -1
     * otherwise. On a densely packed page first fit has no gap to choose, so {@link #placement} of any object is
     * this end if the object and one more slot fit below the slot array, else -1 ({@link #denseFits}).
     */
    public static int denseEnd(MemorySegment p) {
        int ps = (int) p.byteSize();
        int slots = slotCount(p);
        int cursor = dataStart(ps);
        int[] w = slotWords(p, slots);
        for (int i = 0; i < slots; i++) {
            int word = w[slots - 1 - i];
            if (wordOffset(word) != cursor) {
                return -1; // a free slot, a gap or an object out of order
            }
            cursor = align8(cursor + wordLength(word));
        }
        return cursor;
    }

    /** Whether an object of {@code length} bytes fits at {@code end} of a densely packed page of {@code slots}. */
    public static boolean denseFits(int pageSize, int slots, int end, int length) {
        return pageSize - SLOT_SIZE * (slots + 1) - end >= align8(length);
    }

    /**
     * {@link #allocate} at an offset the caller computed: {@code offset} must be this page's {@link #placement} of
     * the object and {@code slot} the slot {@code allocate} would take (checked when assertions are on).
     */
    public static void allocateAt(MemorySegment p, int offset, int slot, int length, int[] pointerOffsets) {
        assert offset == placement(p, length) : "offset " + offset + " is not the placement " + placement(p, length);
        assert slot == firstFreeSlot(p) : "slot " + slot + " is not the first free slot " + firstFreeSlot(p);
        place(p, offset, slot, length, pointerOffsets);
    }

    private static int firstFreeSlot(MemorySegment p) {
        int slots = slotCount(p);
        int[] w = slotWords(p, slots);
        for (int i = 0; i < slots; i++) {
            if (wordOffset(w[slots - 1 - i]) == 0) {
                return i;
            }
        }
        return slots;
    }

    /**
     * Places an object of {@code length} bytes, zero-filled, with pointer words at {@code pointerOffsets}
     * (object-relative, multiples of 8), at its {@link #placement}.
     *
     * @return the object's page offset, or -1 if it does not fit
     */
    public static int allocate(MemorySegment p, int length, int[] pointerOffsets) {
        int ps = (int) p.byteSize();
        if (length <= 0 || length > maxObjectSize(ps)) {
            throw new IllegalArgumentException("object size " + length + " not in 1.." + maxObjectSize(ps));
        }
        int found = placement(p, length);
        if (found < 0) {
            return -1;
        }
        // the first free slot, else a new one (placement left room for it)
        place(p, found, firstFreeSlot(p), length, pointerOffsets);
        return found;
    }

    private static void place(MemorySegment p, int found, int slot, int length, int[] pointerOffsets) {
        for (int po : pointerOffsets) {
            if (po < 0 || po % 8 != 0 || po + 8 > length) {
                throw new IllegalArgumentException(
                        "pointer offset " + po + " is not an 8-aligned word inside an object of " + length + " bytes");
            }
        }
        int counts = counts(p); // both counts in one read
        int slots = counts & 0xffff;
        setSlot(p, slot, found, length);
        setCounts(p, slot == slots ? slots + 1 : slots, (counts >>> 16) + 1);
        p.asSlice(found, length).fill((byte) 0);
        // the bits of pointer words that share a byte of the map are set together: a reference array's node (a
        // pointer in every word) sets a byte per eight elements, not a read and a write per element
        for (int i = 0, n = pointerOffsets.length; i < n; ) {
            int b = (found + pointerOffsets[i]) / 64;
            int bits = 0;
            for (int word; i < n && (word = (found + pointerOffsets[i]) / 8) / 8 == b; i++) {
                bits |= 1 << (word % 8);
            }
            orMapByte(p, b, bits);
        }
    }

    /** ORs {@code bits} into byte {@code b} of the pointer map. */
    private static void orMapByte(MemorySegment p, int b, int bits) {
        int at = PageHeader.SIZE + b;
        p.set(ValueLayout.JAVA_BYTE, at, (byte) (p.get(ValueLayout.JAVA_BYTE, at) | bits));
    }

    /** Frees the object at {@code offset}; returns the remaining live count. */
    public static int free(MemorySegment p, int offset) {
        int slot = slotAt(p, offset);
        if (slot < 0) {
            throw new IllegalArgumentException(
                    "no object starts at offset " + offset + " of page " + PageHeader.pageId(p));
        }
        return freeSlot(p, slot, offset);
    }

    /**
     * {@link #free} of the object in {@code slot}, which the caller has just found with {@link #slotAt} for {@code
     * offset} on this unchanged page (checked when assertions are on): the slot search is not made twice.
     */
    public static int freeSlot(MemorySegment p, int slot, int offset) {
        assert offset != 0 && slotOffset(p, slot) == offset : "slot " + slot + " does not hold offset " + offset;
        int length = slotLength(p, slot);
        clearPointerBits(p, offset / 8, (offset + length + 7) / 8);
        p.asSlice(offset, length).fill((byte) 0);
        setSlot(p, slot, 0, 0);
        int slots = slotCount(p);
        while (slots > 0 && slotOffset(p, slots - 1) == 0) {
            slots--;
            setSlot(p, slots, 0, 0); // bytes of a trimmed slot become free data space: keep them zero
        }
        int live = liveCount(p) - 1;
        setCounts(p, slots, live);
        return live;
    }

    public static boolean isPointer(MemorySegment p, int word) {
        int b = PageHeader.SIZE + word / 8;
        return (p.get(ValueLayout.JAVA_BYTE, b) & (1 << (word % 8))) != 0;
    }

    /** Clears the pointer bits of words {@code [from, to)}: one read and write per byte of the map they touch. */
    private static void clearPointerBits(MemorySegment p, int from, int to) {
        for (int w = from; w < to; ) {
            int b = w / 8;
            int end = Math.min(to, (b + 1) * 8); // the words of this byte of the map
            int bits = (0xff << (w % 8)) & (0xff >>> (8 - (end - b * 8)));
            int at = PageHeader.SIZE + b;
            p.set(ValueLayout.JAVA_BYTE, at, (byte) (p.get(ValueLayout.JAVA_BYTE, at) & ~bits));
            w = end;
        }
    }

    /** Largest object that would fit now (a hint for the free-space cache). */
    public static int largestFit(MemorySegment p) {
        int ps = (int) p.byteSize();
        int slots = slotCount(p);
        boolean freeSlot = false;
        int[] w = slotWords(p, slots);
        for (int i = 0; i < slots; i++) {
            freeSlot |= wordOffset(w[i]) == 0;
        }
        int limit = ps - SLOT_SIZE * (freeSlot ? slots : slots + 1);
        int cursor = dataStart(ps);
        int best = 0;
        List<int[]> live = liveSorted(p);
        if (!freeSlot && !live.isEmpty() && live.get(live.size() - 1)[0] + live.get(live.size() - 1)[1] > limit) {
            return 0;
        }
        for (int[] o : live) {
            best = Math.max(best, o[0] - cursor);
            cursor = Math.max(cursor, align8(o[0] + o[1]));
        }
        best = Math.max(best, limit - cursor);
        return Math.max(0, best) & ~7;
    }

    /** Checks the structural invariants; adds problems to {@code report}. */
    public static void check(MemorySegment p, long pageId, VerifyReport report) {
        int ps = (int) p.byteSize();
        int slots = slotCount(p);
        int limit = ps - SLOT_SIZE * slots;
        if (limit < dataStart(ps)) {
            report.problem(pageId, "slot count " + slots + " overlaps the data area");
            return;
        }
        int live = 0;
        boolean[] covered = new boolean[ps / 8];
        int lastEnd = dataStart(ps);
        for (int[] o : liveSorted(p)) {
            live++;
            if (o[0] % 8 != 0 || o[0] < lastEnd || o[0] + o[1] > limit || o[1] == 0) {
                report.problem(
                        pageId,
                        "object at offset " + o[0] + " length " + o[1]
                                + " is misaligned, overlaps or exceeds the data area");
            }
            lastEnd = Math.max(lastEnd, o[0] + o[1]);
            for (int w = o[0] / 8; w < (o[0] + o[1] + 7) / 8 && w < covered.length; w++) {
                covered[w] = true;
            }
        }
        if (live != liveCount(p)) {
            report.problem(pageId, "live count " + liveCount(p) + " but " + live + " live slots");
        }
        if (slots > 0 && slotOffset(p, slots - 1) == 0) {
            report.problem(pageId, "trailing free slot " + (slots - 1) + " not trimmed");
        }
        for (int w = 0; w < ps / 8; w++) {
            if (isPointer(p, w) && !covered[w]) {
                report.problem(
                        pageId, "pointer-map bit for word " + w + " (offset " + 8 * w + ") outside every live object");
            }
        }
    }
}
