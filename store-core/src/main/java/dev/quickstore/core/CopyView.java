package dev.quickstore.core;

import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.space.LargeObjects;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * An application view of a store made by copying: what the object API binds to when the store runs with
 * {@code FramesMode.EXPLICIT} (no mapped arena, no signal handler; tests and tools), where the MMU-driven
 * {@link Store#view()} does not exist. Same contract as that view: the object at
 * address {@code a} lives at {@link #segment()} offset {@code a - }{@link #base()}, and plain loads and stores
 * through the segment read and change objects. The mechanism differs and is honest about its cost:
 *
 * <ul>
 *   <li>{@link #attach} copies every slotted and large-object page into an off-heap segment (O(store size));
 *   <li>new objects must be announced ({@link #allocated}, {@link #allocatedLarge}) so their bytes read as
 *       zero (the segment may hold bytes of an object deleted earlier);
 *   <li>{@link #writeBack} (call it just before commit, inside the transaction) compares every live object
 *       and every large-object data region with the store's page and writes differing objects back through
 *       the buffer pool, which captures pre-images; the WAL then logs the changed bytes by page diffing as
 *       usual. This is O(store size) per commit, where the mapped view is O(dirty pages);
 *   <li>{@link #reload} (after an abort) copies the pages again.
 * </ul>
 *
 * Only object bytes are authoritative in the segment: page headers, slot tables and pointer maps there may
 * be stale and are never written back. Stores made through other channels (the {@link Transaction} copy API)
 * while a view is attached are overwritten by the next {@link #writeBack} if the view's copy differs, so a
 * program uses one or the other for a given object.
 */
public final class CopyView {
    private final Store store;
    private final int pageSize;
    private MemorySegment segment;

    private CopyView(Store store) {
        this.store = store;
        this.pageSize = store.pageSize;
    }

    /** Copies the store's object pages into a fresh view; outside or inside a transaction. */
    public static CopyView attach(Store store) {
        CopyView v = new CopyView(store);
        v.reload();
        return v;
    }

    /** The view; replaced (by a larger copy) when the store grows, so do not cache it across allocations. */
    public MemorySegment segment() {
        return segment;
    }

    public long base() {
        return store.arenaBase();
    }

    private void ensure(long endOffset) {
        if (segment == null || endOffset > segment.byteSize()) {
            long size = Math.max(endOffset, segment == null ? 16L * pageSize : segment.byteSize() * 2);
            size = (size + pageSize - 1) / pageSize * pageSize;
            MemorySegment bigger = Arena.ofAuto().allocate(size, 4096);
            if (segment != null) {
                bigger.copyFrom(segment);
            }
            segment = bigger;
        }
    }

    /** Copies every object page of the store into the view (at attach and after an abort). */
    public void reload() {
        store.run(() -> {
            long pages = store.extents.pageCount();
            ensure(pages * pageSize);
            segment.fill((byte) 0);
            for (long p = 1; p < pages; p++) {
                if (!store.extents.isAllocated(p)) {
                    continue;
                }
                MemorySegment page = store.pool.fix(p);
                int type = PageHeader.type(page);
                if (type == PageHeader.SLOTTED || type == PageHeader.LARGE) {
                    MemorySegment.copy(page, 0, segment, p * pageSize, pageSize);
                }
                store.pool.unpin(p);
            }
            return null;
        });
    }

    /** A small object of {@code size} bytes was allocated at {@code ref}: it reads as zeros. */
    public void allocated(long ref, int size) {
        long off = ref - base();
        ensure(off + size);
        segment.asSlice(off, size).fill((byte) 0);
    }

    /**
     * A small object of {@code size} bytes at {@code ref} was freed: it reads as zeros, as in the store's page (a
     * freed object is no longer live, so {@link #writeBack} ignores its bytes).
     */
    public void freed(long ref, int size) {
        segment.asSlice(ref - base(), size).fill((byte) 0);
    }

    /** A large object of {@code size} bytes was allocated at {@code ref}: its data reads as zeros. */
    public void allocatedLarge(long ref, long size) {
        int pages = store.largeObjects.pagesFor(size);
        long headStart = ref - base() - LargeObjects.HEAD_DATA;
        ensure(headStart + (long) pages * pageSize);
        segment.asSlice(headStart + LargeObjects.HEAD_DATA, (long) pages * pageSize - LargeObjects.HEAD_DATA)
                .fill((byte) 0);
    }

    /**
     * Writes every object whose bytes in the view differ from the store's page back into the page (inside
     * {@code tx}, before its commit). Returns the number of objects written.
     */
    public long writeBack(Transaction tx) {
        return tx.mutate(() -> {
            long pages = store.extents.pageCount();
            long written = 0;
            for (long p = 1; p < pages && p * pageSize < segment.byteSize(); p++) {
                if (!store.extents.isAllocated(p)) {
                    continue;
                }
                MemorySegment page = store.pool.fix(p);
                long at = p * pageSize;
                int type = PageHeader.type(page);
                boolean dirty = false;
                if (type == PageHeader.SLOTTED) {
                    int slots = SlottedPage.slotCount(page);
                    for (int i = 0; i < slots; i++) {
                        int off = SlottedPage.slotOffset(page, i);
                        if (off == 0) {
                            continue;
                        }
                        int len = SlottedPage.slotLength(page, i);
                        if (MemorySegment.mismatch(segment, at + off, at + off + len, page, off, off + len) >= 0) {
                            if (!dirty) {
                                page = store.pool.fixForWrite(p);
                                dirty = true;
                            }
                            MemorySegment.copy(segment, at + off, page, off, len);
                            written++;
                        }
                    }
                } else if (type == PageHeader.LARGE) {
                    int from = PageHeader.aux(page) == p ? LargeObjects.HEAD_DATA : PageHeader.SIZE;
                    if (MemorySegment.mismatch(segment, at + from, at + pageSize, page, from, pageSize) >= 0) {
                        page = store.pool.fixForWrite(p);
                        MemorySegment.copy(segment, at + from, page, from, pageSize - from);
                        written++;
                    }
                }
                store.pool.unpin(p);
            }
            return written;
        });
    }
}
