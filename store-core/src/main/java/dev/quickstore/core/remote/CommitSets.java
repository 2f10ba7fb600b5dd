package dev.quickstore.core.remote;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.log.PageDiff;
import dev.quickstore.mmu.MappedArena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a client's COMMIT carries, taken from its cache (White and DeWitt 1994, section 4.4; the backward validation
 * of {@link RemotePages}): the read set, every page touched in the transaction and not written with the LSN it was
 * read at, and the writes, the changed ranges of every dirty page against its pre-image with the LSN of the
 * pre-image. A page's checksum and LSN (header bytes 0..3 and 16..23) are the server's to set: a write that covers
 * them is refused.
 */
final class CommitSets {
    /** The page LSN, header bytes 16..23, little-endian. */
    static final ValueLayout.OfLong LSN = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Offset of the page LSN in a page. */
    static final int LSN_OFFSET = 16;

    private final MappedArena arena;
    private final int pageSize;

    CommitSets(MappedArena arena, int pageSize) {
        this.arena = arena;
        this.pageSize = pageSize;
    }

    /** Pages of the cache touched in this transaction and not written: (page, LSN read). */
    List<CommitMessages.PageVersion> readSet(long[] dirty) {
        Set<Long> written = new HashSet<>();
        for (long f : dirty) {
            written.add(f);
        }
        List<CommitMessages.PageVersion> reads = new ArrayList<>();
        for (long f : arena.residentFrameList()) {
            if (!written.contains(f) && !arena.reprotected(f)) {
                reads.add(new CommitMessages.PageVersion(f, lsnAt(arena.alias(), f)));
            }
        }
        return reads;
    }

    /** The changed ranges of each dirty page against its pre-image, with the LSN it was read at. */
    List<CommitMessages.PageWrite> writes(long[] dirty) {
        List<CommitMessages.PageWrite> writes = new ArrayList<>();
        int ps = pageSize;
        PageDiff.Ranges ranges = new PageDiff.Ranges();
        for (long f : dirty) {
            MemorySegment pre = arena.preimages().preimage(f);
            MemorySegment cur = arena.alias().asSlice(f * ps, ps);
            PageDiff.diff(pre, cur, PageDiff.mergeGap(1), ranges);
            int[] offsets = new int[ranges.count];
            byte[][] bytes = new byte[ranges.count][];
            for (int i = 0; i < ranges.count; i++) {
                int from = ranges.start(i);
                int to = ranges.end(i);
                if (from < 4 || (from < 24 && to > 16)) {
                    throw new StoreException("page " + f + ": the transaction changed bytes " + from + ".." + to
                            + ", which cover the page's checksum or LSN (page header bytes 0..3, 16..23)");
                }
                offsets[i] = from;
                bytes[i] = cur.asSlice(from, to - from).toArray(ValueLayout.JAVA_BYTE);
            }
            writes.add(new CommitMessages.PageWrite(f, pre.get(LSN, LSN_OFFSET), offsets, bytes));
        }
        return writes;
    }

    private long lsnAt(MemorySegment alias, long frame) {
        return alias.get(LSN, frame * pageSize + LSN_OFFSET);
    }
}
