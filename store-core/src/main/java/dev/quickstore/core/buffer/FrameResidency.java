package dev.quickstore.core.buffer;

import dev.quickstore.mmu.FrameState;
import dev.quickstore.mmu.MappedArena;
import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Set;

/**
 * Which pages {@link MappedFrames} holds, and which of them the buffer pool's clock knows (White and DeWitt 1994,
 * section 3.5, and section 3.1's fault handler, which here is C code that loads a page with no Java). A page
 * becomes resident by the store's own read ({@link #install}: staged, converted to runtime form, installed through
 * the alias view) or by the C fault path on an application load, with no Java; it leaves by Java's eviction ({@link
 * #evict}) or by the data plane's clock ({@link #clockEvict}). With the simplified or classic clock ({@link
 * DataPlaneReplacer}) the data plane holds the pool's budget and evicts by the policy before any load, a fault
 * included ({@link #clockEvict}, {@link #hold}); with {@code STORE_CLOCK} it has no budget and the buffer pool's
 * clock is the only evictor, which adopts pages the fault path loaded by itself ({@link #adoptNativeLoads}) when
 * the pool needs room. {@link #reprotect} disables access to frames, one {@code mprotect} per run of consecutive
 * frames, so that the next access takes a reference fault (section 3.5's reference bit).
 *
 * <p>{@code known} is the set of pages reported to the buffer pool's clock (installed by the store or adopted from
 * the fault path); a page leaves it when it is evicted (by Java or by the data plane's clock) or found not
 * resident. Every method is one or a few downcalls; no native lock is held across a return to Java.
 */
final class FrameResidency {
    private final MappedFrames frames;
    private final MappedArena arena;
    private final FrameReservation reservation;
    private final FrameRelocation relocation;
    /** The staging page of {@link #install} (owned by {@link MappedFrames}, which frees it at close). */
    private final MemorySegment stage;
    /** Pages reported to the buffer pool's clock (installed by the store or adopted from the fault path). */
    private final Set<Long> known = new HashSet<>();

    FrameResidency(
            MappedFrames frames,
            MappedArena arena,
            FrameReservation reservation,
            FrameRelocation relocation,
            MemorySegment stage) {
        this.frames = frames;
        this.arena = arena;
        this.reservation = reservation;
        this.relocation = relocation;
        this.stage = stage;
    }

    /** See {@link MappedFrames#resident}. */
    MemorySegment resident(long pageId) {
        if (pageId < 0 || pageId >= reservation.reservedUpTo()) {
            return null;
        }
        TexasFrames texas = frames.texasFrames();
        if (texas != null && !texas.hasFrame(pageId)) {
            return null; // no frame yet: not resident (and no frame reserved just for asking)
        }
        long f = frames.frame(pageId);
        FrameState s = StableImages.stableState(arena, f);
        if (s == FrameState.REFUSED) {
            arena.refused().repairRefused(f, 1); // keeps the bytes of a frame refused while resident
            s = StableImages.stableState(arena, f);
        }
        if (s != FrameState.CLEAN && s != FrameState.DIRTY) {
            known.remove(pageId);
            return null;
        }
        return frames.slice(pageId);
    }

    /** See {@link MappedFrames#install}. */
    MemorySegment install(long pageId, MemorySegment image) {
        frames.reserveThrough(pageId + 1);
        stage.copyFrom(image);
        frames.toRuntime(stage); // the store's own reads are swizzled like the fault path's
        // false: a fault loaded the same page meanwhile; its bytes stay
        arena.loading().install(frames.frame(pageId), stage);
        known.add(pageId);
        return frames.slice(pageId);
    }

    /**
     * {@link MappedFrames#makeNew}: new pages against the arena's zero pre-image ({@code PreimageCapture.makeNew},
     * {@code qs_make_new}), only under identity placement (relocated and Texas frames of consecutive pages are not
     * consecutive); the arena refuses where pre-images are written or pages locked. The pages it takes are known
     * from here (those it installed became resident).
     */
    long makeNew(long pageId, int count, int installs) {
        if (frames.texasFrames() != null || relocation.relocated()) {
            return -1;
        }
        reservation.reserveThrough(pageId + 1, false); // a page beyond the arena: its clear refusal
        int n = (int) Math.min(count, arena.frameCount() - pageId);
        reservation.reserveThrough(pageId + n, false);
        long made = arena.preimages().makeNew(pageId, n, installs);
        for (long k = 0; k < made; k++) {
            known.add(pageId + k);
        }
        return made;
    }

    /** See {@link MappedFrames#evict}. */
    void evict(long pageId) {
        known.remove(pageId);
        long f = frames.frame(pageId);
        java.util.BitSet words = relocation.pointerWordsBeforeEvict(pageId);
        arena.evict(f, 1, false); // a page that became DIRTY meanwhile stays (and is adopted again)
        relocation.evicted(pageId, f, words);
    }

    /** Evicts one page chosen by the data plane's clock; returns it, or -1 if none is evictable. */
    long clockEvict() {
        long f = arena.clock().evictOne();
        if (f < 0) {
            return -1;
        }
        long p = frames.pageOfFrame(f);
        known.remove(p);
        return p;
    }

    /** Sets or clears a hold on the page's frame (see {@link DataPlaneReplacer}). */
    void hold(long pageId, int bits, boolean on) {
        long f = frames.frame(pageId);
        if (f >= 0 && f < arena.frameCount()) {
            arena.clock().hold(f, bits, on);
        }
    }

    /** See {@link MappedFrames#adoptNativeLoads}: the resident pages the clock does not know yet, now known. */
    long[] adoptNativeLoads() {
        if (arena.residentFrames() <= known.size()) {
            return new long[0];
        }
        long[] all = frames.pages(arena.residentFrameList());
        long[] fresh = new long[all.length];
        int n = 0;
        for (long p : all) {
            if (known.add(p)) {
                fresh[n++] = p;
            }
        }
        return java.util.Arrays.copyOf(fresh, n);
    }

    /** See {@link MappedFrames#reprotect}: one {@code mprotect} per run of consecutive frames; returns the runs. */
    int reprotect(long[] pages) {
        int runs = 0;
        long[] frameList = new long[pages.length];
        for (int i = 0; i < pages.length; i++) {
            frameList[i] = frames.frame(pages[i]);
        }
        java.util.Arrays.sort(frameList);
        for (int i = 0; i < frameList.length; ) {
            int j = i + 1;
            while (j < frameList.length && frameList[j] == frameList[j - 1] + 1) {
                j++;
            }
            arena.reprotect(frameList[i], j - i);
            runs++;
            i = j;
        }
        return runs;
    }
}
