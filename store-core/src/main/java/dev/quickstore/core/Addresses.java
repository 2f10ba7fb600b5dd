package dev.quickstore.core;

/**
 * The one place that maps between a store address (what user code holds as a pointer) and a
 * (page id, byte offset) pair: {@code address = arenaBase + pageId * pageSize + offset}. QuickStore
 * (White and DeWitt 1994, section 3) stores pointers as virtual addresses; because objects never move
 * within their page, an address stays valid for the object's lifetime.
 */
final class Addresses {
    private final long arenaBase;
    private final int pageShift;
    private final int pageSize;

    Addresses(long arenaBase, int pageSize) {
        if (Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("page size " + pageSize);
        }
        this.arenaBase = arenaBase;
        this.pageSize = pageSize;
        this.pageShift = Integer.numberOfTrailingZeros(pageSize);
    }

    long arenaBase() {
        return arenaBase;
    }

    long address(long pageId, int offset) {
        assert offset >= 0 && offset < pageSize;
        return arenaBase + (pageId << pageShift) + offset;
    }

    long pageOf(long address) {
        check(address);
        return (address - arenaBase) >>> pageShift;
    }

    int offsetOf(long address) {
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
