package dev.quickstore.core.buffer;

import dev.quickstore.mmu.FrameState;
import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.ReplacementClock;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The relocation state of {@link MappedFrames} (White and DeWitt 1994, section 3.4, and section 5.5 for QS-OR):
 * which frame holds which page once the store could not be mapped at its preferred base or placed runs of pages
 * elsewhere ({@link MappingManager}), the translation table the C fault path translates pointers through, and
 * the frames whose next load (or current residence) involves translation. Under QS-CR page images leave memory
 * in disk form (the store's own write-backs are untranslated); under QS-OR translated pages are converted once
 * ({@link OneTimeRelocation}). Identity placement ({@link #relocated()} false) has none of this.
 *
 * <p>Invariants: {@link #translates()} only if {@link #relocated()}; a frame is in {@code relocatedFrames} exactly
 * while the fault path holds a relocation map for it ({@link #setRelocation}). Called by {@link MappedFrames}
 * under the store latch.
 */
final class FrameRelocation {
    private final MappedFrames frames;
    private final MappedArena arena;
    private final int pageSize;
    private final int source;

    /** Null: identity placement at the preferred base; otherwise pages and pointers are relocated. */
    private MappingManager mapping;

    private int table = -1;

    /** QS-OR's conversion of translated pages (null under QS-CR and identity placement). */
    private OneTimeRelocation oneTime;

    /** Whether a transaction is running (QS-OR converts evicted pages only inside one). */
    private BooleanSupplier inTransaction = () -> false;

    private final Set<Long> relocatedFrames = new HashSet<>();

    /** QS-CR: frames whose image was written in disk form with translated pointers (reload translates). */
    private final Set<Long> unswizzled = new HashSet<>();

    private int unswizzledWords;

    FrameRelocation(MappedFrames frames, MappedArena arena, int pageSize, int source) {
        this.frames = frames;
        this.arena = arena;
        this.pageSize = pageSize;
        this.source = source;
    }

    /** Whether pages are placed by a {@link MappingManager} (not at their identity frames). */
    boolean relocated() {
        return mapping != null;
    }

    /** Whether the fault path translates pointers (a translation table is registered). */
    boolean translates() {
        return table >= 0;
    }

    /** The frame of a page (the page itself under identity placement). */
    long frameOf(long pageId) {
        return mapping == null ? pageId : mapping.frameOf(pageId);
    }

    /** The page of a frame (the frame itself under identity placement). */
    long pageOfFrame(long frame) {
        return mapping == null ? frame : mapping.pageOfFrame(frame);
    }

    /** See {@link MappedFrames#relocate}. */
    void relocate(MappingManager m, long pages, MappedFrames.PageReader images, boolean oneTime) throws IOException {
        if (arena.residentFrames() != 0) {
            long[] r = arena.residentFrameList();
            throw new IllegalStateException("relocate with resident frames " + Arrays.toString(r) + " "
                    + (r.length > 0 ? arena.state(r[0]) : "") + " resident count " + arena.residentFrames());
        }
        // identity frames of relocated pages hold nothing now; their new frames are reserved for them
        for (MappingManager.Descriptor d : m.relocatedRuns()) {
            arena.release(d.firstPage(), d.pages());
            arena.reserve(d.firstFrame(), d.pages(), source, d.firstPage());
        }
        this.mapping = m;
        this.oneTime = oneTime ? new OneTimeRelocation(this, arena, m, pageSize) : null;
        if (m.translates()) {
            long[][] r = m.ranges();
            table = arena.translation().addTable(r[0], r[1], r[2]);
            MemorySegment img = MemorySegment.ofArray(new byte[pageSize]);
            for (long p = 0; p < pages; p++) {
                if (images.read(p, img) && m.needsTranslation(img)) {
                    setRelocation(p, MappingManager.pointerWords(img));
                }
            }
        }
    }

    /** See {@link MappedFrames#prepareOneTimeCommit}. */
    int prepareOneTimeCommit() {
        return oneTime == null ? 0 : oneTime.prepare(relocatedFrames);
    }

    /** QS-OR: the running transaction committed: its converted pages need no translation any more. */
    void oneTimeCommitted() {
        if (oneTime != null) {
            oneTime.committed();
        }
    }

    /** QS-OR: the running transaction aborted: pages it had converted are translated again. */
    void oneTimeAborted() {
        if (oneTime != null) {
            oneTime.aborted();
        }
    }

    /** QS-OR: pages committed in translated form by this handle. */
    long convertedPages() {
        return oneTime == null ? 0 : oneTime.convertedPages();
    }

    void inTransaction(BooleanSupplier s) {
        this.inTransaction = s;
    }

    /** Frame {@code f} is about to be evicted by Java: QS-OR converts a translated page inside a transaction. */
    void beforeEvict(long f) {
        if (oneTime != null && inTransaction.getAsBoolean() && relocatedFrames.contains(f)) {
            oneTime.beforeEvict(f);
        }
    }

    /** Pages whose next load (or current residence) involves pointer translation by the fault path. */
    long translatingPages() {
        long n = 0;
        for (long f : relocatedFrames) {
            if (oneTime == null || !oneTime.isConverted(f)) {
                n++;
            }
        }
        return n;
    }

    /** Gives the page's frame the pointer map {@code words} for its next load (empty: no translation). */
    void setRelocation(long pageId, BitSet words) {
        if (table >= 0 && (!words.isEmpty() || relocatedFrames.contains(frames.frameOfPage(pageId)))) {
            arena.translation().setRelocation(frames.frameOfPage(pageId), words, words.isEmpty() ? -1 : table);
            if (words.isEmpty()) {
                relocatedFrames.remove(frames.frameOfPage(pageId));
            } else {
                long f = frames.frameOfPage(pageId);
                relocatedFrames.add(f);
                if (oneTime != null && !oneTime.isConverted(f)) {
                    // QS-OR: a translated page must reach a commit in translated form, so the data plane's
                    // clock may not drop it silently (Java's own evictions convert it first, beforeEvict). The
                    // hold is the disk-dirty one: the pool lifts it when it writes the committed page back.
                    arena.clock().hold(f, ReplacementClock.HOLD_WAL, true);
                }
            }
        }
    }

    /** Before Java evicts a page: its current pointer map if pages are translated, else null. */
    BitSet pointerWordsBeforeEvict(long pageId) {
        return table >= 0 ? MappingManager.pointerWords(frames.slice(pageId)) : null;
    }

    /** Java evicted page {@code pageId} from frame {@code f}; {@code words} from {@link #pointerWordsBeforeEvict}. */
    void evicted(long pageId, long f, BitSet words) {
        if (words != null && arena.state(f) == FrameState.RESERVED) {
            // the page's current pointer map applies to its next load; a page committed in translated
            // form (QS-OR) is written back before it is evicted and needs no translation any more
            // (under QS-OR only a page whose disk image is still untranslated: one read but not committed)
            // (under QS-CR one that was translated at load or written back with translated pointers)
            boolean keep = oneTime != null
                    ? relocatedFrames.contains(f) && !oneTime.isConverted(f)
                    : relocatedFrames.contains(f) || unswizzled.contains(f);
            unswizzled.remove(f);
            setRelocation(pageId, keep ? words : new BitSet());
            if (oneTime != null) {
                oneTime.evicted(f);
            }
        }
    }

    /** The page was cleaned: the data plane may evict it at any time, so its next load must use its current map. */
    void cleared(long pageId) {
        if (table >= 0) {
            setRelocation(pageId, MappingManager.pointerWords(frames.slice(pageId)));
        }
    }

    /** Disk form to runtime form: relocated pointers translated, in place. */
    void toRuntime(MemorySegment image) {
        if (mapping != null) {
            mapping.translate(image, true);
        }
    }

    /** Runtime form to disk form (QS-CR unswizzling; QS-OR keeps the current address space), in place. */
    void toDisk(MemorySegment image) {
        unswizzledWords = 0;
        if (mapping != null && oneTime == null) {
            unswizzledWords = mapping.translate(image, false);
        }
    }

    /** A stable image of the page was taken ({@link #toDisk} last ran on it): QS-CR notes an unswizzled one. */
    void imageTaken(long pageId) {
        if (mapping != null && oneTime == null && unswizzledWords > 0) {
            unswizzled.add(frames.frameOfPage(pageId));
        }
    }

    /** Repairs the REFUSED frames of the relocated runs. */
    void repairRefused() {
        if (mapping != null) {
            for (MappingManager.Descriptor d : mapping.relocatedRuns()) {
                arena.refused().repairRefused(d.firstFrame(), d.pages());
            }
        }
    }
}
