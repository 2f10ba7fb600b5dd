package dev.quickstore.core.buffer;

import dev.quickstore.core.log.PageDiff;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Object marking ({@link WriteDetection#OBJECT_MARKING}; Hosking and Moss, "Lightweight write detection and
 * checkpointing for fine-grained persistence", section 3, "Object-based schemes", the "objects" row of Table I):
 * the barrier marks the object it writes to, commit compares only the marked objects with their pre-images.
 *
 * <p>The paper sets a bit in the object's header and scans the cached objects at checkpoint to find the marked
 * ones. Our objects have no spare header bit (bytes 0..3 are the type tag) and no global object list, so the
 * "dirty bit" lives beside the page: one bit per 8-byte granule (the slotted page's allocation unit), set for
 * every granule of a marked object, in a bitmap per page written in the transaction. The slow path finds the
 * object holding the address in the page's slot array (a pass over the slots on an object's first store in the
 * transaction); later stores to the same object find its bit set and return. A store outside any slotted-page
 * object (a large object's page, free space) marks the whole page. Commit diffs the runs of marked granules:
 * exactly the marked objects, whatever their size (the paper's point against cards: an object's comparison is
 * bounded by its size, not by a card's).
 *
 * <p>Pre-images: the arena runs card marking natively with one card per page ({@link CardBarrier}), so the
 * barrier's first store to a page in a transaction (card byte 0) captures the page's pre-image exactly as a
 * card mark does, and clean pages are writable (no write faults). The object API's table is one zero byte
 * with shift 63: every store takes this slow path (its first test is the native card byte, then the bitmap).
 * Both are {@link PreimageCapturingBarrier}'s, shared with {@link RememberedSetBarrier}.
 */
public final class ObjectMarkingBarrier extends PreimageCapturingBarrier {
    private final MemorySegment alias;
    /**
     * Marked granules per frame of the transaction (bit g = bytes [8g, 8g + 8) belong to a marked object): an
     * open-addressing map from frame + 1 (0 = empty) to the frame's bitmap.
     */
    private long[] keys = new long[64];

    private long[][] maps = new long[64][];
    private int frameCount;

    private long lastFrame = -1;
    private long[] lastBits;
    private long marks;
    private long objectsMarked;
    private long wholePages;

    /** {@code frames}' arena must be in card mode with one card per page; {@code capture} marks those cards. */
    public ObjectMarkingBarrier(MappedFrames frames, CardBarrier capture) {
        super(frames, capture, "object marking needs");
        this.alias = frames.arena().alias();
    }

    @Override
    public WriteDetection detection() {
        return WriteDetection.OBJECT_MARKING;
    }

    @Override
    public long marks() {
        return marks;
    }

    /** Objects marked since the store was opened (each counted once per transaction that wrote it). */
    public long objectsMarked() {
        return objectsMarked;
    }

    /** Pages marked whole (a store outside any slotted-page object) since the store was opened. */
    public long wholePages() {
        return wholePages;
    }

    @Override
    public void mark(long address) {
        long off = address - base;
        long frame = off >>> pageShift;
        capturePreimage(frame, address); // the page's first store in the transaction (or since a steal)
        long[] bits = bits(frame);
        int g = (int) (off & (pageSize - 1)) >>> 3;
        if ((bits[g >>> 6] & (1L << g)) == 0) {
            markObject(frame, g, bits);
        }
    }

    @Override
    public void markRange(long address, long length) {
        long end = address + length;
        for (long a = address; a < end; ) {
            long off = a - base;
            long frame = off >>> pageShift;
            capturePreimage(frame, a);
            long[] bits = bits(frame);
            long pageEnd = base + ((frame + 1) << pageShift);
            int gEnd = (int) ((Math.min(end, pageEnd) - 1 - base) & (pageSize - 1)) >>> 3;
            for (int g = (int) (off & (pageSize - 1)) >>> 3; g <= gEnd; g++) {
                if ((bits[g >>> 6] & (1L << g)) == 0) {
                    markObject(frame, g, bits);
                }
            }
            a = pageEnd;
        }
    }

    private long[] bits(long frame) {
        if (frame != lastFrame) {
            long[] b = lookup(frame);
            if (b == null) {
                b = insert(frame);
            }
            lastBits = b;
            lastFrame = frame;
        }
        return lastBits;
    }

    private int slot(long frame) {
        long h = (frame + 1) * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & (keys.length - 1);
    }

    private long[] lookup(long frame) {
        for (int i = slot(frame); ; i = (i + 1) & (keys.length - 1)) {
            if (keys[i] == frame + 1) {
                return maps[i];
            }
            if (keys[i] == 0) {
                return null;
            }
        }
    }

    private long[] insert(long frame) {
        if (2 * (frameCount + 1) > keys.length) {
            long[] oldKeys = keys;
            long[][] oldMaps = maps;
            keys = new long[oldKeys.length * 2];
            maps = new long[oldKeys.length * 2][];
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != 0) {
                    int j = slot(oldKeys[i] - 1);
                    while (keys[j] != 0) {
                        j = (j + 1) & (keys.length - 1);
                    }
                    keys[j] = oldKeys[i];
                    maps[j] = oldMaps[i];
                }
            }
        }
        int i = slot(frame);
        while (keys[i] != 0) {
            i = (i + 1) & (keys.length - 1);
        }
        keys[i] = frame + 1;
        maps[i] = new long[pageSize / 8 / 64 + 1];
        frameCount++;
        return maps[i];
    }

    /** Marks the object holding granule {@code g} of the frame (the whole page if no slotted object holds it). */
    private void markObject(long frame, int g, long[] bits) {
        marks++;
        MemorySegment page = alias.asSlice(frame << pageShift, pageSize);
        int at = g << 3;
        if (page.get(BYTE, PageHeader.TYPE) == PageHeader.SLOTTED) {
            int n = SlottedPage.slotCount(page);
            for (int i = 0; i < n; i++) {
                int o = SlottedPage.slotOffset(page, i);
                int len = SlottedPage.slotLength(page, i);
                if (o != 0 && at >= o && at < o + len) {
                    setBits(bits, o >>> 3, (o + len + 7) >>> 3);
                    objectsMarked++;
                    return;
                }
            }
        }
        setBits(bits, 0, pageSize >>> 3);
        wholePages++;
    }

    private static void setBits(long[] bits, int from, int to) {
        for (int g = from; g < to; g++) {
            bits[g >>> 6] |= 1L << g;
        }
    }

    @Override
    public boolean regions(long pageId, PageDiff.Ranges out) {
        long[] bits = lookup(frames.frameOfPage(pageId));
        if (bits == null) {
            return false;
        }
        out.count = 0;
        int granules = pageSize >>> 3;
        for (int g = 0; g < granules; ) {
            if ((bits[g >>> 6] & (1L << g)) == 0) {
                g++;
                continue;
            }
            int s = g;
            while (g < granules && (bits[g >>> 6] & (1L << g)) != 0) {
                g++;
            }
            out.add(s << 3, g << 3);
        }
        return true;
    }

    @Override
    public void end() {
        if (frameCount > 0) {
            Arrays.fill(keys, 0);
            Arrays.fill(maps, null);
            frameCount = 0;
        }
        lastFrame = -1;
        lastBits = null;
    }
}
