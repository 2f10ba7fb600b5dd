package dev.quickstore.core.space;

import dev.quickstore.core.buffer.Addresses;
import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.verify.VerifyReport;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Multi-page objects in runs of contiguous pages (so, with store-native, contiguous frames). Growable
 * and shrinkable: a run grows in place when the following pages are free, and otherwise moves to a new
 * run (the reference changes; {@link #resize} returns the new one). Large objects hold bytes, not
 * pointers (the OO7 manual and documents).
 *
 * <pre>
 * every page of the run: {@link PageHeader} with type {@link PageHeader#LARGE}, aux = head page id
 * head page:   32 8 length (bytes)
 *              40 4 runPages (pages in the run)
 *              44 4 reserved
 *              48 .. data
 * other pages: 32 .. data
 * </pre>
 *
 * The reference of a large object is the address of its first data byte ({@code head page, offset
 * 48}). Every page carries the common header (the checksum contract with store-native), so the object's
 * bytes are contiguous only per page; reads and writes go through {@link #read}/{@link #write}.
 */
public final class LargeObjects {
    public static final int HEAD_DATA = 48;
    /** Head page: offset of the object's length in bytes (long). */
    public static final int HEAD_LENGTH = 32;
    /** Head page: offset of the number of pages in the run (int). */
    public static final int HEAD_RUN_PAGES = 40;

    private final BufferPool pool;
    private final ExtentAllocator extents;
    private final Addresses addresses;
    private final int pageSize;

    public LargeObjects(BufferPool pool, ExtentAllocator extents, Addresses addresses) {
        this.pool = pool;
        this.extents = extents;
        this.addresses = addresses;
        this.pageSize = pool.pageSize();
    }

    public int pagesFor(long size) {
        long first = pageSize - HEAD_DATA;
        if (size <= first) {
            return 1;
        }
        return Math.toIntExact(1 + (size - first + (pageSize - PageHeader.SIZE) - 1) / (pageSize - PageHeader.SIZE));
    }

    public long allocate(long size, long nearHint) throws IOException {
        if (size < 0) {
            throw new IllegalArgumentException("size " + size);
        }
        int n = pagesFor(size);
        long hint = nearHint != 0 ? addresses.pageOf(nearHint) : 0;
        long head = extents.allocate(n, hint);
        formatRun(head, head, n);
        MemorySegment h = pool.fixForWrite(head);
        h.set(PageHeader.LONG, HEAD_LENGTH, size);
        h.set(PageHeader.INT, HEAD_RUN_PAGES, n);
        return addresses.address(head, HEAD_DATA);
    }

    private void formatRun(long head, long first, int n) throws IOException {
        for (long p = first; p < first + n; p++) {
            MemorySegment s = pool.fixNew(p); // just allocated (or claimed): not read, logged as a NEW_PAGE
            PageHeader.format(s, p, PageHeader.LARGE);
            PageHeader.setAux(s, head);
            pool.unpin(p);
        }
    }

    long headOf(long ref) throws IOException {
        long head = addresses.pageOf(ref);
        if (addresses.offsetOf(ref) != HEAD_DATA
                || head <= 1
                || head >= extents.pageCount()
                || !extents.isAllocated(head)) {
            throw new IllegalArgumentException(String.format("0x%x is not a large object reference", ref));
        }
        MemorySegment h = pool.fix(head);
        if (PageHeader.type(h) != PageHeader.LARGE || PageHeader.aux(h) != head) {
            throw new IllegalArgumentException(String.format(
                    "0x%x is not a large object reference (page %d is %s)",
                    ref, head, PageHeader.typeName(PageHeader.type(h))));
        }
        return head;
    }

    public long size(long ref) throws IOException {
        return pool.fix(headOf(ref)).get(PageHeader.LONG, HEAD_LENGTH);
    }

    private int runPages(long head) throws IOException {
        return pool.fix(head).get(PageHeader.INT, HEAD_RUN_PAGES);
    }

    /** Copies bytes [offset, offset+len) of the object from/to {@code buf} at {@code bufOff}. */
    public void transfer(long ref, long offset, byte[] buf, int bufOff, int len, boolean write) throws IOException {
        long head = headOf(ref);
        long size = pool.fix(head).get(PageHeader.LONG, HEAD_LENGTH);
        if (offset < 0 || len < 0 || offset + len > size) {
            throw new IndexOutOfBoundsException(
                    "range " + offset + "+" + len + " outside large object of " + size + " bytes");
        }
        long pos = offset;
        int done = 0;
        while (done < len) {
            long page;
            int inPage;
            int room;
            if (pos < pageSize - HEAD_DATA) {
                page = head;
                inPage = (int) (HEAD_DATA + pos);
                room = (int) (pageSize - HEAD_DATA - pos);
            } else {
                long rest = pos - (pageSize - HEAD_DATA);
                int per = pageSize - PageHeader.SIZE;
                page = head + 1 + rest / per;
                inPage = (int) (PageHeader.SIZE + rest % per);
                room = (int) (per - rest % per);
            }
            int n = Math.min(room, len - done);
            MemorySegment p = write ? pool.fixForWrite(page) : pool.fix(page);
            if (write) {
                MemorySegment.copy(buf, bufOff + done, p, ValueLayout.JAVA_BYTE, inPage, n);
            } else {
                MemorySegment.copy(p, ValueLayout.JAVA_BYTE, inPage, buf, bufOff + done, n);
            }
            if (page != head) {
                pool.unpin(page);
            }
            done += n;
            pos += n;
        }
    }

    /** Changes the size; new bytes read as zero. Returns the (possibly new) reference. */
    public long resize(long ref, long newSize) throws IOException {
        if (newSize < 0) {
            throw new IllegalArgumentException("size " + newSize);
        }
        long head = headOf(ref);
        long oldSize = size(ref);
        int n = runPages(head);
        int m = pagesFor(newSize);
        if (newSize < oldSize) {
            // bytes past the end of the kept pages stay zero, so growing again reads zeros
            long keptCapacity = (pageSize - HEAD_DATA) + (long) (m - 1) * (pageSize - PageHeader.SIZE);
            zero(ref, newSize, Math.min(oldSize, keptCapacity));
        }
        if (m < n) {
            freeRun(head + m, n - m);
        } else if (m > n) {
            if (extents.claim(head + n, m - n)) {
                formatRun(head, head + n, m - n);
            } else {
                long newRef = allocate(newSize, ref);
                copy(ref, newRef, Math.min(oldSize, newSize));
                freeRun(head, n);
                return newRef;
            }
        }
        MemorySegment h = pool.fixForWrite(head);
        h.set(PageHeader.LONG, HEAD_LENGTH, newSize);
        h.set(PageHeader.INT, HEAD_RUN_PAGES, m);
        return ref;
    }

    private void zero(long ref, long from, long to) throws IOException {
        byte[] zeros = new byte[(int) Math.min(to - from, 1 << 16)];
        for (long p = from; p < to; p += zeros.length) {
            transfer(ref, p, zeros, 0, (int) Math.min(zeros.length, to - p), true);
        }
    }

    private void copy(long from, long to, long bytes) throws IOException {
        byte[] buf = new byte[1 << 16];
        for (long p = 0; p < bytes; p += buf.length) {
            int n = (int) Math.min(buf.length, bytes - p);
            transfer(from, p, buf, 0, n, false);
            transfer(to, p, buf, 0, n, true);
        }
    }

    private void freeRun(long first, int n) throws IOException {
        for (long p = first; p < first + n; p++) {
            PageHeader.format(pool.fixForStoreWrite(p), p, PageHeader.FREE);
            pool.unpin(p);
        }
        extents.free(first, n);
    }

    public void delete(long ref) throws IOException {
        long head = headOf(ref);
        freeRun(head, runPages(head));
    }

    /** Checks a run starting at {@code head}; returns its length in pages. */
    public int check(long head, MemorySegment h, VerifyReport report) throws IOException {
        long size = h.get(PageHeader.LONG, HEAD_LENGTH);
        int n = h.get(PageHeader.INT, HEAD_RUN_PAGES);
        if (n < 1 || pagesFor(size) != n) {
            report.problem(
                    head,
                    "large object of " + size + " bytes has a run of " + n + " pages, expected " + pagesFor(size));
            return Math.max(1, n);
        }
        for (long p = head + 1; p < head + n; p++) {
            MemorySegment s = pool.fix(p);
            if (PageHeader.type(s) != PageHeader.LARGE || PageHeader.aux(s) != head) {
                report.problem(
                        p,
                        "page " + (p - head) + " of the large object at page " + head + " is "
                                + PageHeader.typeName(PageHeader.type(s)) + " with head " + PageHeader.aux(s));
            }
            if (!extents.isAllocated(p)) {
                report.problem(p, "page of the large object at page " + head + " is not marked allocated");
            }
            pool.unpin(p);
        }
        return n;
    }
}
