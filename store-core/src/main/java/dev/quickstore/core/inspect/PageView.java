package dev.quickstore.core.inspect;

import java.util.List;
import java.util.Map;

/**
 * One page as stored in the volume file, decoded.
 *
 * @param pageId the page asked for
 * @param type type name ({@code free}, {@code volume-header}, {@code space-map}, {@code slotted},
 *     {@code large-object}, {@code btree-meta}, {@code btree-inner}, {@code btree-leaf})
 * @param typeCode the type byte
 * @param version the page format version byte
 * @param headerPageId the page id field (equals {@code pageId} on a sound page)
 * @param lsn page LSN: the last log record applied to the page
 * @param aux type-specific header word (large object: head page; B+tree leaf: next leaf)
 * @param storedChecksum CRC32C in bytes 0..3, hex
 * @param computedChecksum CRC32C of bytes 4..pageSize-1, hex
 * @param state {@code ok}, {@code never-written} (all zero), {@code past-end-of-file} (allocated in
 *     the header's page count but never written back) or {@code damaged}
 * @param problem what is wrong when {@code state} is {@code damaged}, else null
 * @param fields type-specific decoded fields, in layout order
 * @param slots the slot array of a slotted page (empty for other types)
 */
public record PageView(
        long pageId,
        String type,
        int typeCode,
        int version,
        long headerPageId,
        long lsn,
        long aux,
        String storedChecksum,
        String computedChecksum,
        String state,
        String problem,
        Map<String, Object> fields,
        List<SlotView> slots) {}
