package dev.quickstore.core.space;

import dev.quickstore.core.Verifier;
import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Page allocation by extents and allocation bitmaps (Cricket, Shekita and Zwilling 1990, section
 * 5.1.4). The volume grows in whole extents of {@code extentPages} pages. Pages are grouped: group g
 * covers pages [g*G, (g+1)*G), G = the number of bits a space-map page holds rounded down to whole
 * extents, and its space-map page is page 1 for group 0 (page 0 is the volume header) and page g*G
 * otherwise.
 *
 * <pre>
 * space-map page: {@link PageHeader} (type {@link PageHeader#SPACE_MAP}) then a bitmap from byte 32:
 *                 bit i (byte 32 + i/8, bit i%8) = page g*G + i is allocated
 * </pre>
 *
 * <p>Placement ({@code DBmalloc(size, nearHint)}): runs are searched first from the start of the
 * hint's extent upward, then from the start of the volume; failing both the volume grows. Every bitmap
 * and header change is made through the buffer pool, so it is logged and recovered like data; they are the
 * store's own writes ({@link BufferPool#fixForStoreWrite}: the application never stores to these pages through
 * the view, which a mapped store therefore leaves write-protected).
 * Invariants: reserved pages (header, space maps) are marked allocated; a page is allocated iff its
 * type is not {@link PageHeader#FREE} (checked by the {@link Verifier}).
 */
public final class ExtentAllocator {
    private final BufferPool pool;
    private final int pageSize;
    private final int extentPages;
    private final long groupPages;
    private long cursor;
    /**
     * The volume's page count as page 0 held it when this allocator last read or wrote it, or -1; valid while {@link
     * #pageCountStamp} equals the pool's root stamp, which grows when a transaction ends (an abort restores page 0)
     * and is -1 under a fix observer (a page server's client, whose page 0 the server's commits replace). Within a
     * transaction only {@link #setPageCount} changes the count; {@link #reset} (every transaction's end, a served
     * store's applied client commit, which writes page 0 from the client's bytes) forgets it. {@link #pageCount} was
     * a fix of page 0 per call, five calls per object placed in the OO7 small build (2.9 % of it in the residency
     * check alone; docs/results.md, "The page count without a fix").
     */
    private long knownPageCount = -1;

    private long pageCountStamp = -1;

    public ExtentAllocator(BufferPool pool, int pageSize, int extentPages) {
        this.pool = pool;
        this.pageSize = pageSize;
        this.extentPages = extentPages;
        this.groupPages = ((long) (pageSize - PageHeader.SIZE) * 8 / extentPages) * extentPages;
    }

    public long groupPages() {
        return groupPages;
    }

    long mapPage(long group) {
        return group == 0 ? 1 : group * groupPages;
    }

    public long pageCount() throws IOException {
        long stamp = pool.stamps().rootStamp();
        if (knownPageCount >= 0 && stamp == pageCountStamp && stamp != -1) {
            assert knownPageCount == readPageCount()
                    : "kept page count " + knownPageCount + ", page 0 holds " + readPageCount();
            return knownPageCount;
        }
        long n = readPageCount();
        knownPageCount = n;
        pageCountStamp = stamp;
        return n;
    }

    private long readPageCount() throws IOException {
        return pool.fix(0).get(PageHeader.LONG, VolumeHeader.PAGE_COUNT_OFFSET);
    }

    private void setPageCount(long n) throws IOException {
        pool.fixForStoreWrite(0).set(PageHeader.LONG, VolumeHeader.PAGE_COUNT_OFFSET, n);
        knownPageCount = n;
        pageCountStamp = pool.stamps().rootStamp();
    }

    /** Formats the first extent on a volume that has only its header page. Runs inside a transaction. */
    public void bootstrap() throws IOException {
        if (pageCount() > 1) {
            return;
        }
        setPageCount(extentPages);
        MemorySegment map = pool.fixForStoreWrite(1);
        PageHeader.format(map, 1, PageHeader.SPACE_MAP);
        setBit(0, true);
        setBit(1, true);
    }

    public boolean isAllocated(long page) throws IOException {
        long g = page / groupPages;
        int bit = (int) (page - g * groupPages);
        MemorySegment map = pool.fix(mapPage(g));
        return (map.get(ValueLayout.JAVA_BYTE, PageHeader.SIZE + bit / 8) & (1 << (bit % 8))) != 0;
    }

    /**
     * How many pages right after {@code page} are free, at most {@code max} and within the volume: the pages an
     * allocation near {@code page} takes next ({@link #allocate} searches the hint's extent upward). A hint for
     * write-ahead ({@link BufferPool#fixNew(long, BufferPool.FreePagesAfter)}).
     */
    public int freePagesAfter(long page, int max) throws IOException {
        long count = pageCount();
        int n = 0;
        while (n < max && page + 1 + n < count && !isAllocated(page + 1 + n)) {
            n++;
        }
        return n;
    }

    private void setBit(long page, boolean on) throws IOException {
        long g = page / groupPages;
        int bit = (int) (page - g * groupPages);
        MemorySegment map = pool.fixForStoreWrite(mapPage(g));
        long at = PageHeader.SIZE + bit / 8;
        byte b = map.get(ValueLayout.JAVA_BYTE, at);
        assert ((b & (1 << (bit % 8))) != 0) != on : "page " + page + " allocation bit already " + on;
        map.set(ValueLayout.JAVA_BYTE, at, (byte) (on ? b | (1 << (bit % 8)) : b & ~(1 << (bit % 8))));
    }

    /**
     * Allocates {@code n} contiguous pages near {@code hintPage} (0 = no hint: continue where the last
     * allocation ended). The pages' contents are not touched.
     */
    public long allocate(int n, long hintPage) throws IOException {
        if (n < 1 || n > groupPages - 1) {
            throw new IllegalArgumentException("run of " + n + " pages not in 1.." + (groupPages - 1));
        }
        long count = pageCount();
        long from = hintPage > 0 && hintPage < count ? (hintPage / extentPages) * extentPages : cursor;
        long r = findRun(n, from, count);
        if (r < 0 && from > 0) {
            r = findRun(n, 0, Math.min(count, from + n));
        }
        if (r < 0) {
            r = grow(n, count);
        }
        for (long p = r; p < r + n; p++) {
            setBit(p, true);
        }
        cursor = r;
        return r;
    }

    /**
     * Allocates exactly the pages [start, start+n) if they are all free (growing the volume if they lie
     * past its end); returns false, changing nothing, otherwise. Used to grow a large object in place.
     */
    boolean claim(long start, int n) throws IOException {
        long count = pageCount();
        for (long p = start; p < start + n; p++) {
            if (p % groupPages == 0 || p == 1 || (p < count && isAllocated(p))) {
                return false;
            }
        }
        if (start + n > count) {
            extendTo(((start + n + extentPages - 1) / extentPages) * extentPages, count);
        }
        for (long p = start; p < start + n; p++) {
            setBit(p, true);
        }
        return true;
    }

    /**
     * Frees pages {@code [first, first + n)}: clears their allocation bits. The caller formats them {@link
     * PageHeader#FREE} first (the invariant above: a page is allocated iff its type is not FREE).
     */
    public void free(long first, int n) throws IOException {
        for (long p = first; p < first + n; p++) {
            setBit(p, false);
        }
        if (first < cursor) {
            cursor = (first / extentPages) * extentPages;
        }
    }

    /** Forgets the cached placement state and page count (at every transaction's end). */
    public void reset() {
        cursor = 0;
        knownPageCount = -1;
    }

    /** First page of a run of n free pages inside [from, to), or -1. */
    private long findRun(int n, long from, long to) throws IOException {
        long run = 0;
        long p = from;
        while (p < to) {
            long g = p / groupPages;
            int bit = (int) (p - g * groupPages);
            MemorySegment map = pool.fix(mapPage(g));
            if (bit % 8 == 0
                    && map.get(ValueLayout.JAVA_BYTE, PageHeader.SIZE + bit / 8) == (byte) 0xff
                    && p + 8 <= to) {
                run = 0;
                p += 8;
                continue;
            }
            boolean used = (map.get(ValueLayout.JAVA_BYTE, PageHeader.SIZE + bit / 8) & (1 << (bit % 8))) != 0;
            run = used ? 0 : run + 1;
            p++;
            if (run == n) {
                return p - n;
            }
        }
        return -1;
    }

    /** Grows the volume so that a run of n pages fits at (or after) the old end; returns its start. */
    private long grow(int n, long count) throws IOException {
        long start = count;
        // a run may not contain a space-map page (the first page of every group after group 0)
        long nextGroup = (start / groupPages + 1) * groupPages;
        if (start % groupPages == 0 && start > 0) {
            start++;
        } else if (start + n > nextGroup) {
            start = nextGroup + 1;
        }
        extendTo(((start + n + extentPages - 1) / extentPages) * extentPages, count);
        return start;
    }

    /** Grows the volume from {@code count} to {@code newCount} pages, formatting new space-map pages. */
    private void extendTo(long newCount, long count) throws IOException {
        setPageCount(newCount);
        for (long g = (count + groupPages - 1) / groupPages; g * groupPages < newCount; g++) {
            if (g == 0) {
                continue;
            }
            long mp = g * groupPages;
            PageHeader.format(pool.fixForStoreWrite(mp), mp, PageHeader.SPACE_MAP);
            setBit(mp, true);
        }
    }
}
