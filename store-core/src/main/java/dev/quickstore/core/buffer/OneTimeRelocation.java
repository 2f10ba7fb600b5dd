package dev.quickstore.core.buffer;

import dev.quickstore.mmu.FrameState;
import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.ReplacementClock;
import java.lang.foreign.MemorySegment;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;

/**
 * QS-OR, one-time relocation (White and DeWitt 1994, section 5.5: the client "commits the changed mapping to
 * the database"): every page whose pointers the fault path translated joins a commit in translated form, after
 * which it needs no translation on later loads or opens. Page images leave memory in the current address
 * space (no unswizzling at write-back). Owned by {@link FrameRelocation}, which calls it under the store latch.
 *
 * <p>Invariant: a translated frame that is not {@linkplain #isConverted converted} carries the disk-dirty hold
 * ({@link ReplacementClock#HOLD_WAL}) so the data plane's clock cannot drop it before its commit
 * ({@link FrameRelocation#setRelocation}); Java's own evictions convert it first ({@link #beforeEvict}).
 */
final class OneTimeRelocation {
    private final FrameRelocation relocation;
    private final MappedArena arena;
    private final MemorySegment alias;
    private final MappingManager mapping;
    private final int pageSize;
    /** Frames whose translated image is committed (they need no translation on later loads). */
    private final Set<Long> converted = new HashSet<>();
    /** Frames added to the commit in progress. */
    private final Set<Long> converting = new HashSet<>();

    private MemorySegment diskImage;
    private long convertedPages;

    OneTimeRelocation(FrameRelocation relocation, MappedArena arena, MappingManager mapping, int pageSize) {
        this.relocation = relocation;
        this.arena = arena;
        this.alias = arena.alias();
        this.mapping = mapping;
        this.pageSize = pageSize;
    }

    boolean isConverted(long frame) {
        return converted.contains(frame);
    }

    /** Frame {@code f} was evicted: its next load reads the page's (committed) disk image again. */
    void evicted(long f) {
        converted.remove(f);
    }

    /** Pages committed in translated form by this handle. */
    long convertedPages() {
        return convertedPages;
    }

    /**
     * Before the commit diffs the dirty pages: every resident page of {@code relocatedFrames} that the fault path
     * (or the store's own reads) translated and that is not committed in translated form yet joins the commit.
     * Pages evicted during the transaction joined it already ({@link #beforeEvict}: they are stolen, i.e. logged
     * with undo information and written). Returns the number of pages the transaction converts.
     */
    int prepare(Set<Long> relocatedFrames) {
        if (relocatedFrames.isEmpty()) {
            return 0;
        }
        for (long f : relocatedFrames) {
            if (!converted.contains(f) && !converting.contains(f)) {
                convert(f);
            }
        }
        return converting.size();
    }

    /** A translated frame is about to be evicted inside a transaction: it joins the transaction first. */
    void beforeEvict(long f) {
        if (!converted.contains(f) && !converting.contains(f)) {
            convert(f);
        }
    }

    /**
     * A translated page that is not committed in translated form joins the running transaction as a changed
     * page. A clean one is made dirty with its disk form (the untranslated image) as pre-image; the pre-image of
     * a dirty one is converted back to disk form. The diff against that pre-image then logs the translated
     * pointers, and the page is written back with them.
     */
    private void convert(long f) {
        FrameState s = StableImages.stableState(arena, f);
        if (s == FrameState.CLEAN) {
            MemorySegment cur = alias.asSlice(f * pageSize, pageSize);
            if (diskImage == null) {
                diskImage = MemorySegment.ofArray(new byte[pageSize]);
            }
            MemorySegment disk = diskImage.copyFrom(cur);
            mapping.translate(disk, false);
            if (disk.mismatch(cur) >= 0) {
                arena.preimages().markDirty(f);
                MemorySegment pre = arena.preimages().preimage(f);
                if (pre.equals(MemorySegment.NULL)) {
                    return; // not dirty after all (not under the store latch): left for the commit
                }
                pre.copyFrom(disk);
            }
            converting.add(f);
        } else if (s == FrameState.DIRTY) {
            MemorySegment pre = arena.preimages().preimage(f);
            if (!pre.equals(MemorySegment.NULL)) {
                mapping.translate(pre, false);
                converting.add(f);
            }
        }
    }

    /** The running transaction committed: its converted pages need no translation any more. */
    void committed() {
        for (long f : converting) {
            converted.add(f);
            if (arena.state(f) == FrameState.RESERVED) { // evicted (written back): detach its bitmap now
                long p = mapping.pageOfFrame(f);
                if (p >= 0) {
                    relocation.setRelocation(p, new BitSet());
                }
                arena.clock().hold(f, ReplacementClock.HOLD_WAL, false);
                converted.remove(f);
            }
        }
        convertedPages += converting.size();
        converting.clear();
    }

    /**
     * The running transaction aborted. Abort restored the disk-form pre-images of the pages it had converted,
     * so they are translated again in place (translation is idempotent).
     */
    void aborted() {
        for (long f : converting) {
            FrameState s = StableImages.stableState(arena, f);
            if (s == FrameState.CLEAN || s == FrameState.DIRTY) {
                mapping.translate(alias.asSlice(f * pageSize, pageSize), true);
            }
        }
        converting.clear();
    }
}
