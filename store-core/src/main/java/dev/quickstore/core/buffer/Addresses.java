package dev.quickstore.core.buffer;

/**
 * The one place that maps between a store address (what user code holds as a pointer) and a
 * (page id, byte offset) pair: {@code address = arenaBase + pageId * pageSize + offset}. QuickStore
 * (White and DeWitt 1994, section 3) stores pointers as virtual addresses; because objects never move
 * within their page, an address stays valid for the object's lifetime.
 */
public final class Addresses {
    private final long arenaBase;
    /** Set when pages are relocated: page to frame, and disk/runtime address translation. */
    private MappingManager mapping;

    /** Texas mode: page to frame through the native table, stored references in persistent form. */
    private dev.quickstore.mmu.TexasSwizzling texas;

    private final int pageShift;
    private final int pageSize;

    public Addresses(long arenaBase, int pageSize) {
        if (Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("page size " + pageSize);
        }
        this.arenaBase = arenaBase;
        this.pageSize = pageSize;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
    }

    public long arenaBase() {
        return arenaBase;
    }

    public void relocated(MappingManager m) {
        this.mapping = m;
    }

    /** Texas mode: frames come from the native page-id to frame table ({@link MappedFrames#texas}). */
    public void texas(dev.quickstore.mmu.TexasSwizzling t) {
        this.texas = t;
    }

    public long address(long pageId, int offset) {
        assert offset >= 0 && offset < pageSize;
        if (texas != null) {
            return arenaBase + (texas.frameOf(pageId) << pageShift) + offset;
        }
        return arenaBase + ((mapping == null ? pageId : mapping.frameOf(pageId)) << pageShift) + offset;
    }

    public long pageOf(long address) {
        check(address);
        long frame = (address - arenaBase) >>> pageShift;
        if (texas != null) {
            long p = texas.pageOfFrame(frame);
            if (p < 0) {
                throw new IllegalArgumentException(String.format("address 0x%x lies in no page's frame", address));
            }
            return p;
        }
        if (mapping == null) {
            return frame;
        }
        long p = mapping.pageOfFrame(frame);
        if (p < 0) {
            throw new IllegalArgumentException(String.format("address 0x%x lies in no page's frame", address));
        }
        return p;
    }

    /** A runtime reference as stored on disk (roots, index values) under continual relocation. */
    public long toDisk(long ref) {
        if (texas != null) {
            return ref == 0 ? 0 : texas.toDisk(ref);
        }
        return mapping == null || ref == 0 ? ref : mapping.toDisk(ref);
    }

    /** A stored reference (root, index value) as a runtime address. */
    public long toRuntime(long stored) {
        if (texas != null) {
            return stored == 0 ? 0 : texas.toRuntime(stored);
        }
        return mapping == null || stored == 0 ? stored : mapping.toRuntime(stored);
    }

    public int offsetOf(long address) {
        check(address);
        return (int) ((address - arenaBase) & (pageSize - 1));
    }

    private void check(long address) {
        if (address < arenaBase) {
            throw new IllegalArgumentException(String.format(
                    "address 0x%x is below the arena base 0x%x (not a store reference)", address, arenaBase));
        }
    }
}
