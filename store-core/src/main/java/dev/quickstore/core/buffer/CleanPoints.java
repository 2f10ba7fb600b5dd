package dev.quickstore.core.buffer;

import dev.quickstore.mmu.ArenaException;
import dev.quickstore.mmu.DetachedPreimages;
import dev.quickstore.mmu.MappedArena;

/**
 * The clean points of {@link MappedFrames}' dirty frames (White and DeWitt 1994, section 3.6: the first write to a
 * page copies its pre-image, and commit diffs the page against it). A clean point ends the dirty state of pages:
 * they are write-protected again, so that the next store faults and starts a new dirty period, with one {@code
 * mprotect} per run of nearby frames ({@link #BRIDGE}), and under identity placement commit takes their pre-image
 * slots over ({@link #detach}) to diff against in place. Under kernel write tracking the dirty pages are listed
 * after the pages with a twin that the kernel saw written were collected ({@link #collectWritten}: they become
 * DIRTY, their twin the pre-image). What changed in a page since its clean point is a mask of its
 * cards (Hosking and Moss 1993, section 3; {@link DirtyCards}) or of the OS pages the kernel saw written ({@link
 * #dirtyCards}). Tests can make a store race with commit right after a clean point ({@link
 * #afterCleanPointForTest}).
 */
final class CleanPoints {
    /**
     * Clean frames between two dirty ones that a run may cover with one {@code mprotect} (they are read-only
     * already). Frames that are not resident end a run: OO7 medium T2B's 1,541 dirty pages lie in 1,202 runs of
     * adjacent frames, and the document pages between composite parts, never read by T2B, keep them apart
     * (docs/results.md, "Commit: one mprotect per run").
     */
    static final int BRIDGE = 16;

    private final MappedFrames frames;
    private final MappedArena arena;
    private final int pageSize;
    /** Kernel write tracking's granularity (the OS page): the card size of {@link #dirtyCards} under it. */
    private final int osPageBytes;

    private volatile Runnable cleanPointHook;
    private boolean racePending; // cleanPointHook runs at the next liveImage

    CleanPoints(MappedFrames frames, MappedArena arena, int pageSize, int osPageBytes) {
        this.frames = frames;
        this.arena = arena;
        this.pageSize = pageSize;
        this.osPageBytes = osPageBytes;
    }

    /** See {@link MappedFrames#dirtyCards}. */
    long dirtyCards(long pageId) {
        if (arena.kernelTracking().on()) {
            long m = arena.kernelTracking().writtenPages(frames.frame(pageId)); // the OS pages the kernel saw written
            return m == (1L << (pageSize / osPageBytes)) - 1 ? -1L : m; // all of them: one diff of the whole page
        }
        return DirtyCards.of(arena.cardTable(), frames.frame(pageId), pageSize);
    }

    /** See {@link MappedFrames#cardBytes}. */
    int cardBytes() {
        if (arena.kernelTracking().on()) {
            return osPageBytes;
        }
        int shift = arena.cardTable().shift();
        return shift == 0 ? pageSize : 1 << shift;
    }

    /** Ends the dirty state of {@code count} pages of {@code pages} from {@code from}: one {@code mprotect} a run. */
    void clean(long[] pages, int from, int count) {
        arena.preimages().markCleanList(pages, from, count, BRIDGE);
    }

    /**
     * As {@link #clean}, keeping the pre-image slots: they are handed over, and the test hook is armed ({@link
     * #afterCleanPointForTest}).
     */
    DetachedPreimages detach(long[] pages, int from, int count) {
        DetachedPreimages d = arena.preimages().detached();
        try {
            d.detachClean(pages, from, count, BRIDGE);
        } catch (ArenaException e) {
            d.release(); // the runs cleaned before the failure handed their slots over too
            throw e;
        }
        racePending = cleanPointHook != null;
        return d;
    }

    /** See {@link MappedFrames#afterCleanPointForTest}. */
    void afterCleanPointForTest(Runnable hook) {
        this.cleanPointHook = hook;
    }

    /** A live image is asked for: the first one after a {@link #detach} clean point runs the test hook, once. */
    void beforeLiveImage() {
        Runnable hook = cleanPointHook;
        if (racePending && hook != null) {
            racePending = false;
            hook.run();
        }
    }

    /** See {@link MappedFrames#collectWritten}: under kernel write tracking, the clean point of the twins. */
    void collectWritten() {
        if (arena.kernelTracking().on()) {
            arena.kernelTracking().collect();
        }
    }

    /** See {@link MappedFrames#keepsTwins}. */
    boolean keepsTwins() {
        return arena.kernelTracking().on();
    }
}
