package dev.quickstore.core.inspect;

import java.util.List;

/**
 * One slot of a slotted page.
 *
 * @param slot slot number
 * @param offset page offset of the object (0 = free slot)
 * @param length object length in bytes
 * @param address the object's store address, hex (null for a free slot)
 * @param pointerOffsets object-relative offsets of the 8-byte words the page's pointer map marks as pointers
 */
public record SlotView(int slot, int offset, int length, String address, List<Integer> pointerOffsets) {
    public boolean free() {
        return offset == 0;
    }
}
