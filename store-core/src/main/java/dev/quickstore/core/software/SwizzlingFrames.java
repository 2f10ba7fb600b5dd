package dev.quickstore.core.software;

import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * The frames of software persistence ({@code FramesMode.SOFTWARE}; E / EPVM 3.0, White and DeWitt 1994,
 * section 4.5.1: "EPVM 3.0 accesses memory-resident persistent objects directly in the ESM client buffer
 * pool"): pages are read explicitly by the buffer pool into one contiguous off-heap <em>frame region</em>
 * (frame i at region offset {@code i * pageSize}; no mapping, no protection, no signals), and reference words
 * inside resident objects are swizzled in place to the target object's region offset by {@link Swizzler}.
 * This class keeps what swizzling needs consistent with the pool's residency decisions
 * (docs/software-mode.md):
 *
 * <ul>
 *   <li>the {@link OidTable} of resident objects (OID to region offset), entered lazily by {@link #enter} and
 *       purged when the object's page is evicted;
 *   <li>per frame, the <em>referrers</em>: region offsets of reference words swizzled to point into the frame.
 *       Before the frame's page is dropped ({@link #evict}) every referrer that still holds such a pointer is
 *       unswizzled back to the OID, so no swizzled pointer ever outlives its target's residency;
 *   <li>the disk form: {@link #toDisk} replaces every swizzled word of a page image (the words its pointer map
 *       marks) by the target's OID; {@link #stableImage} (write-back, commit's diff) is always disk form, and
 *       pre-images are taken in disk form at {@link #markDirty}, so the WAL never sees a swizzled pointer and
 *       abort restores OIDs (re-swizzled lazily).
 * </ul>
 *
 * Swizzling is not a change: it does not dirty a page, and a clean page is dropped without write-back (its
 * volume copy holds the OIDs). Writes are detected in software: the object API announces the first write to a
 * page (the buffer pool's {@code fixForWrite}, which calls {@link #markDirty}); nothing is ever protected.
 *
 * <p>The buffer pool drives it through {@code core.buffer.SoftwareFrames}, its {@code PageFrames} seam (this
 * package is exported for generated code; the buffer pool's seam is not); the methods keep the seam's names and
 * contract.
 *
 * <p>Limits of this first landing: only slotted pages (their pointer maps) hold swizzled words; a reference
 * word in a large object is resolved but never swizzled in place.
 */
public final class SwizzlingFrames implements AutoCloseable {
    /** {@link OidTable}'s answer for an OID that is not resident. */
    public static final long NOT_RESIDENT = -1L;

    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED; // native order; copies are byte[]
    private static final ValueLayout.OfInt TAG = ValueLayout.JAVA_INT_UNALIGNED;

    private final Arena arena = Arena.ofShared();
    private final int pageSize;
    private final int capacity;
    private final MemorySegment region;
    private final MemorySegment preImages;
    private final Map<Long, Integer> frameOf = new HashMap<>();
    private final long[] pageOf; // frame -> page id, -1 = free
    private final int[] freeFrames;
    private int freeCount;
    private final TreeSet<Long> dirty = new TreeSet<>();
    private final byte[] frameDirty; // frame -> 1 while its page is transaction-dirty (the write barrier's test)
    private final OidTable oids;
    private final long[][] referrers; // frame -> region offsets of words swizzled into it
    private final int[] referrerCount;
    private final long[][] entered; // frame -> OIDs entered into the table for it
    private final int[] enteredCount;
    private long unswizzledAtEviction;
    private final char[][] slotIndex; // frame -> (in-page offset / 8) -> slot + 1 of an entered object, 0 unknown
    private long evictions;
    private long restores;
    private final byte[] frameReferenced; // frame -> 1 when an OID in it was resolved since the clock's hand passed

    public SwizzlingFrames(int pageSize, int capacity) {
        if (Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("page size " + pageSize + " is not a power of two");
        }
        this.pageSize = pageSize;
        this.capacity = capacity;
        this.region = arena.allocate((long) pageSize * capacity, 4096);
        this.preImages = arena.allocate((long) pageSize * capacity, 4096);
        this.pageOf = new long[capacity];
        this.freeFrames = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            pageOf[i] = -1;
            freeFrames[freeCount++] = capacity - 1 - i;
        }
        this.frameDirty = new byte[capacity];
        this.oids = new OidTable(capacity * 16, NOT_RESIDENT);
        this.referrers = new long[capacity][];
        this.referrerCount = new int[capacity];
        this.entered = new long[capacity][];
        this.enteredCount = new int[capacity];
        this.slotIndex = new char[capacity][];
        this.frameReferenced = new byte[capacity];
    }

    /** The frame region: the segment generated accessors read in software mode (object = region offset). */
    public MemorySegment region() {
        return region;
    }

    public int pageSize() {
        return pageSize;
    }

    public int capacity() {
        return capacity;
    }

    public int residentCount() {
        return frameOf.size();
    }

    /** Region offset of the frame holding {@code pageId}, or {@link #NOT_RESIDENT}. */
    public long frameOffset(long pageId) {
        Integer f = frameOf.get(pageId);
        return f == null ? NOT_RESIDENT : (long) f * pageSize;
    }

    /** The page held by the frame containing region offset {@code at}, or -1 when the frame is free. */
    public long pageAt(long at) {
        return pageOf[(int) (at / pageSize)];
    }

    /** Region offset of the resident object {@code oid}, or {@link #NOT_RESIDENT} (one table probe). */
    public long lookup(long oid) {
        return oids.get(oid);
    }

    /**
     * Pages evicted since the frames were made: every region offset handed out before an eviction may now
     * name another page's bytes, so a holder of one (an object API proxy) compares this count with the one it
     * saw and resolves its OID again when they differ.
     */
    public long evictions() {
        return evictions;
    }

    /**
     * Evictions plus page restorations ({@link #restoring}) since the frames were made: a region offset obtained
     * while it had some value is valid while it still has it.
     */
    public long epoch() {
        return evictions + restores;
    }

    /**
     * Sets the reference bit of the frame holding region offset {@code at}: what the out-of-line resolution of an
     * OID does (one store), so the buffer pool's clock sees pages used through the residency check.
     */
    public void referenced(long at) {
        frameReferenced[(int) (at / pageSize)] = 1;
    }

    /** Reads and clears the reference bit of {@code pageId}'s frame (the clock's hand); false if not resident. */
    public boolean takeReference(long pageId) {
        Integer f = frameOf.get(pageId);
        if (f == null || frameReferenced[f] == 0) {
            return false;
        }
        frameReferenced[f] = 0;
        return true;
    }

    /** Resident objects entered in the OID table. */
    public int enteredObjects() {
        return oids.size();
    }

    /** Reference words unswizzled because their target's page was evicted (since the frames were made). */
    public long unswizzledAtEviction() {
        return unswizzledAtEviction;
    }

    /**
     * Enters the object {@code oid} of the resident page at frame offset {@code frame}: checks its slot and
     * uniquifier and returns its region offset. Throws naming the page and slot when the OID is dangling.
     */
    public long enter(long oid, long frame) {
        MemorySegment page = region.asSlice(frame, pageSize);
        long pageId = Oid.page(oid);
        int slot = Oid.slot(oid);
        if (PageHeader.type(page) != PageHeader.SLOTTED || slot >= SlottedPage.slotCount(page)) {
            throw new IllegalArgumentException("dangling reference " + Oid.toString(oid) + ": page " + pageId
                    + " is a " + PageHeader.typeName(PageHeader.type(page)) + " page"
                    + (PageHeader.type(page) == PageHeader.SLOTTED
                            ? " of " + SlottedPage.slotCount(page) + " slots"
                            : ""));
        }
        int off = SlottedPage.slotOffset(page, slot);
        if (off == 0) {
            throw new IllegalArgumentException(
                    "dangling reference " + Oid.toString(oid) + ": slot " + slot + " of page " + pageId + " is free");
        }
        int tag = page.get(TAG, off);
        if (!Oid.matches(oid, tag)) {
            throw new IllegalArgumentException(String.format(
                    "dangling reference %s: page %d slot %d (offset %d) holds an object of type tag 0x%x",
                    Oid.toString(oid), pageId, slot, off, tag));
        }
        long at = frame + off;
        int f = (int) (frame / pageSize);
        oids.put(oid, at);
        entered[f] = append(entered[f], enteredCount[f]++, oid);
        if (slotIndex[f] == null) {
            slotIndex[f] = new char[pageSize / 8];
        }
        slotIndex[f][off >>> 3] = (char) (slot + 1);
        return at;
    }

    /** A deleted object leaves the OID table (its slot may be reused by another object). */
    public void forget(long oid) {
        oids.remove(oid);
    }

    /**
     * The object {@code oid}, resident at region offset {@code at}, is being deleted: every pointer swizzled to it
     * from a resident page becomes its OID again, then it leaves the OID table. A reference left to a deleted
     * object is the application's dangling reference; as an OID it fails when resolved, naming the page and slot,
     * and the page holding it can still be unswizzled to its disk form (a swizzled word pointing at a freed slot
     * could not: {@link #oidAt} finds no object there; OO7 SM2 on medium hit exactly that). The words written are
     * the disk form already, so this is not a change: nothing is marked dirty or logged.
     */
    public void deleted(long oid, long at) {
        int f = (int) (at / pageSize);
        long[] refs = referrers[f];
        for (int i = 0; i < referrerCount[f]; i++) {
            long word = refs[i];
            if (region.get(WORD, word) == at && isPointerWord(word)) {
                region.set(WORD, word, oid);
            }
        }
        forget(oid);
    }

    /** The OID of the live object at region offset {@code at} (its page resident), for storing a reference. */
    public long oidAt(long at) {
        int f = (int) (at / pageSize);
        long pageId = pageOf[f];
        if (pageId < 0) {
            throw new IllegalStateException("region offset " + at + " is in free frame " + f);
        }
        long frame = (long) f * pageSize;
        MemorySegment page = region.asSlice(frame, pageSize);
        int off = (int) (at - frame);
        char[] index = slotIndex[f];
        int slot = index == null ? 0 : index[off >>> 3] - 1;
        if (slot < 0 || SlottedPage.slotOffset(page, slot) != off) { // not entered, or its slot was reused
            slot = SlottedPage.slotAt(page, off);
        }
        if (slot < 0) {
            throw new IllegalArgumentException("no live object at offset " + off + " of page " + pageId);
        }
        return Oid.of(pageId, slot, page.get(TAG, off));
    }

    /** Records that the reference word at region offset {@code word} now holds a pointer to {@code target}. */
    public void swizzled(long word, long target) {
        int f = (int) (target / pageSize);
        referrers[f] = append(referrers[f], referrerCount[f]++, word);
    }

    private static long[] append(long[] a, int n, long v) {
        if (a == null) {
            a = new long[8];
        } else if (n == a.length) {
            a = Arrays.copyOf(a, n * 2);
        }
        a[n] = v;
        return a;
    }

    public MemorySegment resident(long pageId) {
        Integer f = frameOf.get(pageId);
        return f == null ? null : region.asSlice((long) f * pageSize, pageSize);
    }

    public MemorySegment install(long pageId, MemorySegment image) {
        if (frameOf.containsKey(pageId)) {
            throw new IllegalStateException("page " + pageId + " already resident");
        }
        if (freeCount == 0) {
            throw new IllegalStateException("no free frame (capacity " + capacity + "); evict first");
        }
        int f = freeFrames[--freeCount];
        frameOf.put(pageId, f);
        pageOf[f] = pageId;
        MemorySegment frame = region.asSlice((long) f * pageSize, pageSize);
        frame.copyFrom(image); // the volume's form: references are OIDs, swizzled lazily on first use
        return frame;
    }

    /**
     * Drops a clean page: first every pointer swizzled into it from a resident page is unswizzled to its OID
     * (the referrer's frame must still hold a pointer word of that value, else the entry is stale and skipped),
     * then its objects leave the OID table.
     */
    public void evict(long pageId) {
        if (dirty.contains(pageId)) {
            throw new IllegalStateException("page " + pageId + " is dirty; log it before evicting");
        }
        Integer boxed = frameOf.remove(pageId);
        if (boxed == null) {
            return;
        }
        int f = boxed;
        dropObjects(f, pageId);
        frameReferenced[f] = 0;
        evictions++;
        pageOf[f] = -1;
        freeFrames[freeCount++] = f;
    }

    /**
     * Resident page {@code pageId}'s bytes are about to be replaced by older ones (abort copies the pre-image back,
     * undo applies a compensation): its objects leave the OID table and every pointer swizzled into it becomes
     * its OID again, exactly as at eviction, but the page stays resident. Without this an object the aborted
     * transaction created would stay in the table, and a new object of the same type given the same slot at
     * another offset would resolve to the old offset. Region offsets handed out before are invalid after it
     * ({@link #epoch} moves).
     */
    public void restoring(long pageId) {
        Integer f = frameOf.get(pageId);
        if (f != null) {
            dropObjects(f, pageId);
            restores++;
        }
    }

    /** Unswizzles the referrers into frame {@code f} (holding {@code pageId}) and forgets its objects. */
    private void dropObjects(int f, long pageId) {
        long lo = (long) f * pageSize;
        long hi = lo + pageSize;
        MemorySegment page = region.asSlice(lo, pageSize);
        long[] refs = referrers[f];
        for (int i = 0; i < referrerCount[f]; i++) {
            long word = refs[i];
            long target = region.get(WORD, word);
            if (target >= lo && target < hi && !Oid.isOid(target) && isPointerWord(word)) {
                int off = (int) (target - lo);
                int slot = SlottedPage.slotAt(page, off);
                region.set(WORD, word, slot < 0 ? 0 : Oid.of(pageId, slot, page.get(TAG, off)));
                unswizzledAtEviction++;
            }
        }
        for (int i = 0; i < enteredCount[f]; i++) {
            oids.remove(entered[f][i]);
        }
        referrers[f] = null;
        referrerCount[f] = 0;
        entered[f] = null;
        enteredCount[f] = 0;
        slotIndex[f] = null;
    }

    /** Whether region offset {@code word} is a pointer word of a resident slotted page (its pointer map). */
    public boolean isPointerWord(long word) {
        int f = (int) (word / pageSize);
        if (pageOf[f] < 0 || (word & 7) != 0) {
            return false;
        }
        MemorySegment page = region.asSlice((long) f * pageSize, pageSize);
        return PageHeader.type(page) == PageHeader.SLOTTED && SlottedPage.isPointer(page, (int) (word % pageSize) / 8);
    }

    private MemorySegment pre(long pageId) {
        Integer f = frameOf.get(pageId);
        if (f == null) {
            throw new IllegalStateException("page " + pageId + " not resident");
        }
        return preImages.asSlice((long) f * pageSize, pageSize);
    }

    /** Software write detection's first write to the page: the pre-image, in disk form. */
    public void markDirty(long pageId) {
        if (dirty.add(pageId)) {
            toDisk(pre(pageId).copyFrom(resident(pageId)));
            frameDirty[frameOf.get(pageId)] = 1;
        }
    }

    /** Whether the page holding region offset {@code at} is dirty in the running transaction. */
    public boolean isFrameDirty(long at) {
        return frameDirty[(int) (at / pageSize)] != 0;
    }

    public boolean isDirty(long pageId) {
        return dirty.contains(pageId);
    }

    public MemorySegment preImage(long pageId) {
        return dirty.contains(pageId) ? pre(pageId) : null;
    }

    public void clearDirty(long pageId) {
        if (dirty.remove(pageId)) {
            frameDirty[frameOf.get(pageId)] = 0;
        }
    }

    public long[] dirtyPages() {
        return dirty.stream().mapToLong(Long::longValue).toArray();
    }

    /** A copy of the page in disk form (no swizzled pointer): what is written back and diffed at commit. */
    public MemorySegment stableImage(long pageId, MemorySegment buffer) {
        MemorySegment copy = buffer != null ? buffer : MemorySegment.ofArray(new byte[pageSize]);
        return toDisk(copy.copyFrom(resident(pageId)));
    }

    /**
     * Unswizzles a page image in place: every word its pointer map marks that holds a swizzled pointer (not 0,
     * bit 0 clear, inside the frame region) becomes the target's OID; any other value is left as it is. Idempotent; other page types are returned as they are.
     */
    public MemorySegment toDisk(MemorySegment copy) {
        if (PageHeader.type(copy) != PageHeader.SLOTTED) {
            return copy;
        }
        int words = pageSize / 8;
        int firstData = SlottedPage.dataStart(pageSize) / 8;
        for (int w = firstData; w < words; w++) {
            if (SlottedPage.isPointer(copy, w)) {
                long v = copy.get(WORD, (long) w * 8);
                if (v != 0 && !Oid.isOid(v) && v > 0 && v < region.byteSize()) {
                    copy.set(WORD, (long) w * 8, oidAt(v));
                }
            }
        }
        return copy;
    }

    public long[] residentPages() {
        return frameOf.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    }

    @Override
    public void close() {
        arena.close();
    }
}
