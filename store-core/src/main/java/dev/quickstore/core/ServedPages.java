package dev.quickstore.core;

import dev.quickstore.core.buffer.SoftwareFrames;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.page.PageHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * The pages a page server ships of its store ({@link Store#readCommittedPage}; QuickStore on ESM, White and
 * DeWitt 1994 section 4.4): a page's committed image with its checksum sealed, as a volume file would hold it
 * after a checkpoint, read through the buffer pool so that a page committed but not yet written back is served as
 * committed. Invariant: no transaction of the handle runs while a page is served (its pages are not committed);
 * references are in disk form (a SOFTWARE store's OIDs, never swizzled pointers).
 */
final class ServedPages {
    private ServedPages() {}

    /** Copies page {@code pageId}'s committed image into {@code dst} (one page long); latch held. */
    static void readCommitted(Store s, long pageId, byte[] dst) throws IOException {
        assert s.latch.isHeldByCurrentThread();
        if (s.running() != null) {
            throw new StoreException("store " + s.dir + ": committed pages are not served while a transaction runs");
        }
        long count = s.extents.pageCount();
        if (pageId < 0 || pageId >= count) {
            throw new IllegalArgumentException(
                    "page " + pageId + " does not exist in " + s.dir + " (pages 0.." + (count - 1) + ")");
        }
        MemorySegment out = MemorySegment.ofArray(dst);
        out.copyFrom(s.pool.fix(pageId));
        if (s.pool.frames() instanceof SoftwareFrames software) {
            software.toDisk(out); // references as stored: OIDs, never swizzled pointers
        }
        PageHeader.prepareForWrite(out, pageId);
    }
}
