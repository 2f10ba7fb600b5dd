package dev.quickstore.core.inspect;

import java.util.Map;

/**
 * Space usage of a volume, from a scan of its pages as stored.
 *
 * @param pageCount pages in the volume (header's page count)
 * @param fileBytes size of the volume file
 * @param allocatedPages pages whose space-map bit is set
 * @param freePages pages whose space-map bit is clear
 * @param pagesByType page count per page type (pages past the end of the file count as {@code free})
 * @param damagedPages pages whose checksum, version, id or type is wrong
 * @param liveObjects live objects on slotted pages plus large objects
 * @param slottedFreeBytes sum over slotted pages of the largest object that still fits
 */
public record SpaceUsage(
        long pageCount,
        long fileBytes,
        long allocatedPages,
        long freePages,
        Map<String, Long> pagesByType,
        long damagedPages,
        long liveObjects,
        long slottedFreeBytes) {}
