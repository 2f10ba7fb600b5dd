package dev.quickstore.core.buffer;

import dev.quickstore.core.log.PageDiff;
import dev.quickstore.core.options.WriteDetection;
import java.util.Arrays;

/**
 * Remembered sets ({@link WriteDetection#REMEMBERED_SETS}; Hosking and Moss, "Lightweight write detection and
 * checkpointing for fine-grained persistence", section 3, "Object-based schemes", the "remsets" row of Table I):
 * the barrier records the location it updates in a {@link RememberedSet}, and commit compares exactly the
 * recorded locations with the pre-image. The paper's remembered set holds the updated objects (a dynamic hash
 * table, with an inline filter that skips transient objects); ours holds the updated 8-byte words (every field
 * store of the object API stays inside one aligned word, objects being 8-aligned and fields naturally aligned),
 * so commit compares 8 bytes per distinct location however large the object. Range stores (strings, blobs,
 * reference arrays) record every word they cover.
 *
 * <p>Pre-images as for {@link ObjectMarkingBarrier} ({@link PreimageCapturingBarrier}): the arena runs card marking
 * natively with one card per page, and a store to a page whose card byte is 0 first captures its pre-image through
 * {@link CardBarrier}; the object API's table is one zero byte with shift 63, so every store takes this slow path.
 */
public final class RememberedSetBarrier extends PreimageCapturingBarrier {
    private final RememberedSet set = new RememberedSet();
    private long[] sorted; // the set's words ascending, from the first regions() of a commit to end()
    private long marks;
    private long loggedWords;

    /** {@code frames}' arena must be in card mode with one card per page; {@code capture} marks those cards. */
    public RememberedSetBarrier(MappedFrames frames, CardBarrier capture) {
        super(frames, capture, "remembered sets need");
    }

    @Override
    public WriteDetection detection() {
        return WriteDetection.REMEMBERED_SETS;
    }

    /** Stores recorded (every barrier call counts: the store buffer keeps duplicates until it drains). */
    @Override
    public long marks() {
        return marks;
    }

    /** Distinct words handed to commit since the store was opened. */
    public long loggedWords() {
        return loggedWords;
    }

    @Override
    public void mark(long address) {
        capturePreimage(address); // the page's first store in the transaction (or since a steal)
        marks++;
        set.add(address & ~7L);
    }

    @Override
    public void markRange(long address, long length) {
        if (length <= 0) {
            return;
        }
        long last = (address + length - 1) & ~7L;
        for (long w = address & ~7L; w <= last; w += 8) {
            if ((w & (pageSize - 1)) == 0 || w == (address & ~7L)) {
                long a = Math.max(w, address);
                capturePreimage(a);
            }
            marks++;
            set.add(w);
        }
    }

    @Override
    public boolean regions(long pageId, PageDiff.Ranges out) {
        if (sorted == null) {
            sorted = set.sorted();
            loggedWords += sorted.length;
        }
        long start = base + (frames.frameOfPage(pageId) << pageShift);
        int i = Arrays.binarySearch(sorted, start);
        if (i < 0) {
            i = -i - 1;
        }
        out.count = 0;
        long end = start + pageSize;
        for (; i < sorted.length && sorted[i] < end; i++) {
            int s = (int) (sorted[i] - start);
            if (out.count > 0 && out.end(out.count - 1) == s) {
                out.bounds[2 * out.count - 1] = s + 8; // the next word: one region
            } else {
                out.add(s, s + 8);
            }
        }
        return out.count > 0;
    }

    @Override
    public void end() {
        set.clear();
        sorted = null;
    }
}
