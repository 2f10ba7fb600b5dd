package dev.quickstore.core.inspect;

import java.util.List;

/**
 * One object found from its address, decoded with what the storage layer knows: where it lives, its
 * size, and its pointer fields (from the page's pointer map, or none for a large object). Typed field
 * decoding needs the schema catalog, which this layer does not have.
 *
 * @param address the object's address, hex
 * @param pageId page holding the object (for a large object, its head page)
 * @param offset offset of the object in that page
 * @param kind {@code small} (in a slotted page) or {@code large} (a run of pages)
 * @param slot slot number of a small object, -1 for a large one
 * @param length object size in bytes
 * @param pages pages the object spans (1 for a small object)
 * @param pointers the pointer fields, in offset order
 */
public record ObjectView(
        String address,
        long pageId,
        int offset,
        String kind,
        int slot,
        long length,
        long pages,
        List<PointerField> pointers) {

    /**
     * A pointer field of an object.
     *
     * @param fieldOffset offset of the 8-byte field inside the object
     * @param value the stored reference, hex ({@code 0x0} = null); in the committed address space for a store
     *     relocated once (QS-OR: {@code placement.qs})
     * @param targetPage page of the referenced address (-1 for null)
     * @param targetOffset offset of the referenced address in its page (-1 for null)
     * @param target what is there: {@code null}, {@code object (slot S)}, {@code large object}, or
     *     what is wrong with it ({@code dangling: ...})
     */
    public record PointerField(int fieldOffset, String value, long targetPage, int targetOffset, String target) {}
}
