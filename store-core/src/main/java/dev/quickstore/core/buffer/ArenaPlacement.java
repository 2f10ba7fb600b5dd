package dev.quickstore.core.buffer;

import dev.quickstore.core.crashpoint.CrashPoints;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.Volume;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

/**
 * Placement of a store's pages in the mapped arena at open, when pages cannot (or, for experiments, should not)
 * live at the addresses their pointers were stored with: QuickStore's relocation (White and DeWitt 1994,
 * section 3.4 and section 5.5, QS-CR and QS-OR; docs/architecture-core.md, "Relocation"). Runs after recovery
 * and a checkpoint, when every page is clean on disk: the arena is emptied, pages are placed (all moved with
 * the arena if the preferred base was taken, plus the chosen fraction), frames are reserved for every page,
 * and the translation table and pointer bitmaps are handed to the fault path ({@link MappedFrames#relocate}).
 * Under QS-OR the placement is made durable ({@link PlacementFile}) before any page can be faulted in.
 */
public final class ArenaPlacement {
    private final Path dir;
    private final FileIO io;
    private final Volume volume;
    private final BufferPool pool;
    private final MappedFrames frames;
    private final Addresses addresses;
    private final int pageSize;

    public ArenaPlacement(
            Path dir, FileIO io, Volume volume, BufferPool pool, MappedFrames frames, Addresses addresses) {
        this.dir = dir;
        this.io = io;
        this.volume = volume;
        this.pool = pool;
        this.frames = frames;
        this.addresses = addresses;
        this.pageSize = volume.pageSize();
    }

    /**
     * Places the volume's {@code pages} (read page 0's page count before calling: the arena is emptied here),
     * following the committed {@code placement} if there is one (QS-OR), else moving every page with the arena
     * if it is not at {@code diskBase} plus the {@code relocateFraction} chosen by a hash of the page id.
     *
     * @return pages placed away from their preferred frame
     */
    public long place(
            Relocation relocation, double relocateFraction, long diskBase, PlacementFile placement, long pages)
            throws IOException {
        if (placement != null && frames.movedArena()) {
            throw new StoreException("store " + dir + " was relocated once (QS-OR, " + PlacementFile.NAME
                    + ") for the arena base 0x" + Long.toHexString(placement.arenaBase())
                    + ", which is taken in this process (the arena is at 0x"
                    + Long.toHexString(frames.arena().base())
                    + "); relocating a relocated store again is not supported");
        }
        pool.unpinAll();
        pool.evictAll();
        MappingManager m = placement == null
                ? new MappingManager(
                        diskBase,
                        frames.arena().base(),
                        pageSize,
                        frames.arena().frameCount())
                : new MappingManager(
                        diskBase,
                        frames.arena().base(),
                        pageSize,
                        frames.arena().frameCount(),
                        placement.relocatedRegion());
        if (placement != null) {
            // the committed placement (QS-OR) applies whatever the options ask for
            if (placement.pageSize() != pageSize) {
                throw new StoreFormatException(
                        PlacementFile.path(dir).toString(),
                        -1,
                        12,
                        "placement page size",
                        "" + pageSize,
                        "" + placement.pageSize());
            }
            for (MappingManager.Descriptor d : placement.runs()) {
                m.addRun(d);
            }
            m.setRanges(placement.ranges());
            MappingLimit.check(dir, m.descriptors());
        } else {
            m.placeAll(pages, choosePages(pages, relocateFraction));
            m.buildRanges();
            MappingLimit.check(dir, m.descriptors());
            if (relocation == Relocation.ONE_TIME && (m.descriptors() > 0 || frames.movedArena())) {
                // durable before any page can be faulted in, so no page or log record in the new address
                // space can exist without it (PlacementFile: the invariant)
                new PlacementFile(pageSize, frames.arena().base(), m.relocatedRegion, m.relocatedRuns(), m.ranges())
                        .write(io, dir);
                CrashPoints.reach(CrashPoints.Point.PLACEMENT_COMMITTED);
            }
        }
        frames.relocate(
                m,
                pages,
                (p, buf) -> {
                    if (p >= volume.fileSize() / pageSize) {
                        return false;
                    }
                    volume.read(p, buf);
                    return true;
                },
                relocation == Relocation.ONE_TIME);
        addresses.relocated(m);
        return m.relocatedRuns().stream()
                .mapToLong(MappingManager.Descriptor::pages)
                .sum();
    }

    /** Pages are relocated in aligned groups of this many (fewer protection islands than single pages). */
    public static final int RELOCATION_RUN_PAGES = 16;

    /**
     * The pages {@code relocateFraction} relocates: aligned groups of {@link #RELOCATION_RUN_PAGES} pages
     * chosen by the splitmix64 hash of the group number, so that relocated and identity pages form runs
     * (each boundary between them costs kernel mappings once the pages are resident); page 0 never. A
     * multi-page large object is read through the view as one contiguous run (the object API's blob readers
     * step from page to page by address), so its pages follow the group of the run's head page.
     */
    private java.util.function.LongPredicate choosePages(long pages, double fraction) throws IOException {
        long threshold = (long) (fraction * (1L << 20));
        java.util.BitSet chosen = new java.util.BitSet();
        if (threshold > 0) {
            MemorySegment img = MemorySegment.ofArray(new byte[pageSize]);
            long written = volume.fileSize() / pageSize;
            for (long p = 1; p < pages; p++) {
                long key = p;
                if (p < written) {
                    volume.read(p, img);
                    if (PageHeader.type(img) == PageHeader.LARGE && PageHeader.aux(img) > 0) {
                        key = PageHeader.aux(img);
                    }
                }
                if ((mix(key / RELOCATION_RUN_PAGES) & ((1L << 20) - 1)) < threshold) {
                    chosen.set(Math.toIntExact(p));
                }
            }
        }
        return p -> chosen.get(Math.toIntExact(p));
    }

    private static long mix(long z) { // splitmix64 finaliser: a fixed, well-spread choice of pages
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
