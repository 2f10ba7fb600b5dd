package dev.quickstore.core;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
final class MappingManager {
    /** Pages [firstPage, firstPage + pages) in frames [firstFrame, ...). */
    record Descriptor(long firstPage, long pages, long firstFrame) {
        boolean holdsFrame(long frame) {
            return frame >= firstFrame && frame < firstFrame + pages;
        }
    }

    final long diskBase;
    final long runtimeBase;
    final int pageSize;
    private final int pageShift;
    /** Frames at and above this hold relocated pages; disk pages must lie below it. */
    final long relocatedRegion;

    private final TreeMap<Long, Descriptor> byFrame = new TreeMap<>();
    private final Map<Long, Descriptor> byPage = new HashMap<>();
    private long nextRelocatedFrame;

    // translation ranges over disk addresses (sorted, disjoint) and their inverse over runtime addresses
    private long[] lo = new long[0];
    private long[] hi = new long[0];
    private long[] delta = new long[0];
    private long[] rlo = new long[0];
    private long[] rhi = new long[0];
    private long[] rdelta = new long[0];

    MappingManager(long diskBase, long runtimeBase, int pageSize, long frameCount) {
        this.diskBase = diskBase;
        this.runtimeBase = runtimeBase;
        this.pageSize = pageSize;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
        this.relocatedRegion = frameCount / 2;
        this.nextRelocatedFrame = relocatedRegion;
    }

    /** Places page {@code page} at a frame of the relocated region (splitting/extending descriptors). */
    long place(long page) {
        if (page >= relocatedRegion) {
            throw new StoreException("page " + page + " lies beyond the identity half of the arena (" + relocatedRegion
                    + " pages): open with a larger Options.arenaBytes to relocate");
        }
        long frame = nextRelocatedFrame++;
        Descriptor prev = byPage.get(page - 1);
        Descriptor d;
        if (prev != null && prev.firstPage + prev.pages == page && prev.firstFrame + prev.pages == frame) {
            d = new Descriptor(prev.firstPage, prev.pages + 1, prev.firstFrame); // extend the run
            for (long p = prev.firstPage; p < page; p++) {
                byPage.put(p, d);
            }
        } else {
            d = new Descriptor(page, 1, frame);
        }
        byFrame.put(d.firstFrame, d);
        byPage.put(page, d);
        return frame;
    }

    boolean relocated(long page) {
        return byPage.containsKey(page);
    }

    /** Number of page descriptors of relocated runs (identity runs need none). */
    int descriptors() {
        return byFrame.size();
    }

    List<Descriptor> relocatedRuns() {
        return new ArrayList<>(byFrame.values());
    }

    long frameOf(long page) {
        Descriptor d = byPage.get(page);
        return d == null ? page : d.firstFrame + (page - d.firstPage);
    }

    /** The page in {@code frame}, or -1 if the frame holds none (a released identity frame). */
    long pageOfFrame(long frame) {
        if (frame < relocatedRegion) {
            return byPage.containsKey(frame) ? -1 : frame;
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
    boolean buildRanges() {
        List<long[]> r = new ArrayList<>();
        long identityDelta = runtimeBase - diskBase;
        long p = 0;
        for (Descriptor d : byFrame.values().stream()
                .sorted((a, b) -> Long.compare(a.firstPage, b.firstPage))
                .toList()) {
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
        return n > 0;
    }

    long[][] ranges() {
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
    long toRuntime(long diskAddress) {
        return lookup(lo, hi, delta, diskAddress);
    }

    /** A runtime address to the disk address it is stored as (unswizzling). */
    long toDisk(long runtimeAddress) {
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

    /** Translates the pointer words of an image in place, disk to runtime ({@code toRuntime}) or back. */
    void translate(MemorySegment page, boolean toRuntime) {
        BitSet words = pointerWords(page);
        for (int k = words.nextSetBit(0); k >= 0; k = words.nextSetBit(k + 1)) {
            long v = page.get(PageHeader.LONG, 8L * k);
            page.set(PageHeader.LONG, 8L * k, toRuntime ? toRuntime(v) : toDisk(v));
        }
    }
}
