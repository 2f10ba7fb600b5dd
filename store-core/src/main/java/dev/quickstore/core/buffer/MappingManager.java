package dev.quickstore.core.buffer;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.page.PageHeader;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.TreeMap;

/**
 * QuickStore's mapping manager (White and DeWitt 1994, sections 3.3-3.4) for a relocated arena: which
 * virtual frame each page of the volume occupies, and how pointers stored with the pages' <em>disk
 * addresses</em> ({@code diskBase + page * pageSize + offset}, the addresses they had when they were
 * committed) translate to <em>runtime addresses</em> ({@code runtimeBase + frame * pageSize + offset}).
 *
 * <p>Page descriptors cover runs of consecutive pages placed in consecutive frames. They are kept in a
 * balanced tree keyed by virtual address range (here: first frame; {@link #pageOfFrame}) and in a hash
 * table from disk address (page id; {@link #frameOf}). A multi-page large object placed in one run is one
 * descriptor; a descriptor is split when a page inside it is placed elsewhere ({@link #place}).
 *
 * <p>Placement (decided once, before any page can be faulted in - the Texas rule of reserving frames one
 * step ahead, taken to its limit: every existing page has a frame before the first fault, so no pointer can
 * be followed to a page without one): pages keep frame = page id unless relocated on purpose; relocated
 * pages get frames in the upper half of the arena, in page order. Pages created later (volume growth)
 * keep frame = page id. Identity-placed pages still need translation when the whole arena moved
 * ({@code runtimeBase != diskBase}).
 *
 * <p>Translation is idempotent: runtime addresses never fall inside a disk range with a non-zero delta
 * (relocated frames lie above every disk address, and a moved arena does not overlap its old range), so
 * translating an image that is partly translated already is harmless.
 */
public final class MappingManager {
    /** Pages [firstPage, firstPage + pages) in frames [firstFrame, ...). */
    public record Descriptor(long firstPage, long pages, long firstFrame) {
        boolean holdsFrame(long frame) {
            return frame >= firstFrame && frame < firstFrame + pages;
        }
    }

    final long diskBase;
    final long runtimeBase;
    final int pageSize;
    private final int pageShift;
    /** Frames at and above this hold relocated pages; disk pages must lie below it. */
    public final long relocatedRegion;

    private final TreeMap<Long, Descriptor> byFrame = new TreeMap<>();
    private final TreeMap<Long, Descriptor> byPage = new TreeMap<>();
    private long nextRelocatedFrame;

    // translation ranges over disk addresses (sorted, disjoint) and their inverse over runtime addresses
    private long[] lo = new long[0];
    private long[] hi = new long[0];
    private long[] delta = new long[0];
    private long[] rlo = new long[0];
    private long[] rhi = new long[0];
    private long[] rdelta = new long[0];

    public MappingManager(long diskBase, long runtimeBase, int pageSize, long frameCount) {
        this(diskBase, runtimeBase, pageSize, frameCount, frameCount / 2);
    }

    /** With the relocated region of a committed placement ({@link PlacementFile#relocatedRegion}). */
    public MappingManager(long diskBase, long runtimeBase, int pageSize, long frameCount, long relocatedRegion) {
        this.diskBase = diskBase;
        this.runtimeBase = runtimeBase;
        this.pageSize = pageSize;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
        this.frameCount = frameCount;
        this.relocatedRegion = relocatedRegion;
        this.nextRelocatedFrame = relocatedRegion;
    }

    private final long frameCount;

    /**
     * Places every page in {@code [0, pages)} that {@code chosen} selects at frames of the relocated region,
     * in page order: consecutive chosen pages form one run (one descriptor, consecutive frames). O(n log n).
     */
    public void placeAll(long pages, java.util.function.LongPredicate chosen) {
        long runStart = -1;
        for (long p = 0; p <= pages; p++) {
            boolean c = p < pages && chosen.test(p);
            if (c && runStart < 0) {
                runStart = p;
            } else if (!c && runStart >= 0) {
                addRun(new Descriptor(runStart, p - runStart, nextRelocatedFrame));
                runStart = -1;
            }
        }
    }

    /** Adds a relocated run (placement decided now or restored from a {@link PlacementFile}). */
    public void addRun(Descriptor d) {
        if (d.firstPage + d.pages > relocatedRegion) {
            throw new StoreException("page " + (d.firstPage + d.pages - 1) + " lies beyond the identity half of the"
                    + " arena (" + relocatedRegion + " pages): open with a larger Options.arenaBytes to relocate");
        }
        if (d.firstFrame < relocatedRegion || d.firstFrame + d.pages > frameCount) {
            throw new StoreException("relocated run " + d + " lies outside the relocated region of the arena (frames "
                    + relocatedRegion + ".." + frameCount + "): open with an Options.arenaBytes at least as large as"
                    + " the one it was placed with");
        }
        byFrame.put(d.firstFrame, d);
        byPage.put(d.firstPage, d);
        nextRelocatedFrame = Math.max(nextRelocatedFrame, d.firstFrame + d.pages);
    }

    private Descriptor runOf(long page) {
        var e = byPage.floorEntry(page);
        return e != null && page < e.getValue().firstPage + e.getValue().pages ? e.getValue() : null;
    }

    boolean relocated(long page) {
        return runOf(page) != null;
    }

    /** Number of page descriptors of relocated runs (identity runs need none). */
    public int descriptors() {
        return byFrame.size();
    }

    public List<Descriptor> relocatedRuns() {
        return new ArrayList<>(byFrame.values());
    }

    public long frameOf(long page) {
        Descriptor d = runOf(page);
        return d == null ? page : d.firstFrame + (page - d.firstPage);
    }

    /** The page in {@code frame}, or -1 if the frame holds none (a released identity frame). */
    public long pageOfFrame(long frame) {
        if (frame < relocatedRegion) {
            return relocated(frame) ? -1 : frame;
        }
        var e = byFrame.floorEntry(frame);
        return e != null && e.getValue().holdsFrame(frame)
                ? e.getValue().firstPage + (frame - e.getValue().firstFrame)
                : -1;
    }

    long diskAddress(long page) {
        return diskBase + (page << pageShift);
    }

    long runtimeAddress(long page) {
        return runtimeBase + (frameOf(page) << pageShift);
    }

    /**
     * Builds the translation ranges: one per relocated run, plus (if the arena moved) the identity pages
     * up to the relocated region, coalesced. Returns whether any translation is needed.
     */
    public boolean buildRanges() {
        List<long[]> r = new ArrayList<>();
        long identityDelta = runtimeBase - diskBase;
        long p = 0;
        for (Descriptor d : byPage.values()) {
            if (identityDelta != 0 && p < d.firstPage) {
                r.add(new long[] {diskAddress(p), diskAddress(d.firstPage), identityDelta});
            }
            long dd = runtimeBase + (d.firstFrame << pageShift) - diskAddress(d.firstPage);
            r.add(new long[] {diskAddress(d.firstPage), diskAddress(d.firstPage + d.pages), dd});
            p = d.firstPage + d.pages;
        }
        if (identityDelta != 0 && p < relocatedRegion) {
            r.add(new long[] {diskAddress(p), diskAddress(relocatedRegion), identityDelta});
        }
        int n = r.size();
        lo = new long[n];
        hi = new long[n];
        delta = new long[n];
        for (int i = 0; i < n; i++) {
            lo[i] = r.get(i)[0];
            hi[i] = r.get(i)[1];
            delta[i] = r.get(i)[2];
        }
        indexRanges();
        return n > 0;
    }

    /** Sorts the ranges by disk address and builds the inverse (runtime address) ranges. */
    private void indexRanges() {
        int n = lo.length;
        Integer[] byLo = new Integer[n];
        for (int i = 0; i < n; i++) {
            byLo[i] = i;
        }
        java.util.Arrays.sort(byLo, (a, b) -> Long.compareUnsigned(lo[a], lo[b]));
        long[] l = new long[n];
        long[] h = new long[n];
        long[] d = new long[n];
        for (int i = 0; i < n; i++) {
            l[i] = lo[byLo[i]];
            h[i] = hi[byLo[i]];
            d[i] = delta[byLo[i]];
        }
        lo = l;
        hi = h;
        delta = d;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compareUnsigned(lo[a] + delta[a], lo[b] + delta[b]));
        rlo = new long[n];
        rhi = new long[n];
        rdelta = new long[n];
        for (int i = 0; i < n; i++) {
            int k = order[i];
            rlo[i] = lo[k] + delta[k];
            rhi[i] = hi[k] + delta[k];
            rdelta[i] = -delta[k];
        }
    }

    /** Whether any translation range is registered. */
    boolean translates() {
        return lo.length > 0;
    }

    /** Uses persisted translation ranges (a {@link PlacementFile}'s legacy ranges) instead of building them. */
    public void setRanges(long[][] r) {
        lo = r[0].clone();
        hi = r[1].clone();
        delta = r[2].clone();
        indexRanges();
    }

    public long[][] ranges() {
        return new long[][] {lo.clone(), hi.clone(), delta.clone()};
    }

    private static long lookup(long[] l, long[] h, long[] d, long v) {
        int a = 0;
        int b = l.length;
        while (a < b) {
            int m = (a + b) >>> 1;
            if (Long.compareUnsigned(v, l[m]) < 0) {
                b = m;
            } else if (Long.compareUnsigned(v, h[m]) >= 0) {
                a = m + 1;
            } else {
                return v + d[m];
            }
        }
        return v;
    }

    /** A disk address (as stored) to the runtime address (null and foreign values unchanged). */
    public long toRuntime(long diskAddress) {
        return lookup(lo, hi, delta, diskAddress);
    }

    /** A runtime address to the disk address it is stored as (unswizzling). */
    public long toDisk(long runtimeAddress) {
        return lookup(rlo, rhi, rdelta, runtimeAddress);
    }

    /** The pointer words of a page image: a slotted page's pointer map; other page types carry none. */
    static BitSet pointerWords(MemorySegment page) {
        if (PageHeader.type(page) != PageHeader.SLOTTED) {
            return new BitSet();
        }
        int bytes = (int) page.byteSize() / 64;
        return BitSet.valueOf(page.asSlice(PageHeader.SIZE, bytes).toArray(ValueLayout.JAVA_BYTE));
    }

    /** Whether a page image holds a pointer word in a translated range (it must be translated on load). */
    boolean needsTranslation(MemorySegment page) {
        BitSet words = pointerWords(page);
        for (int k = words.nextSetBit(0); k >= 0; k = words.nextSetBit(k + 1)) {
            long v = page.get(PageHeader.LONG, 8L * k);
            if (toRuntime(v) != v) {
                return true;
            }
        }
        return false;
    }

    /**
     * Translates the pointer words of an image in place, disk to runtime ({@code toRuntime}) or back;
     * returns the number of words changed.
     */
    int translate(MemorySegment page, boolean toRuntime) {
        BitSet words = pointerWords(page);
        int changed = 0;
        for (int k = words.nextSetBit(0); k >= 0; k = words.nextSetBit(k + 1)) {
            long v = page.get(PageHeader.LONG, 8L * k);
            long t = toRuntime ? toRuntime(v) : toDisk(v);
            if (t != v) {
                page.set(PageHeader.LONG, 8L * k, t);
                changed++;
            }
        }
        return changed;
    }
}
