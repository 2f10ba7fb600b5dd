package dev.quickstore.core.buffer;

import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.mmu.FrameState;
import dev.quickstore.mmu.MappedArena;

/**
 * Scanning ({@link WriteDetection#SCANNING}; Hosking and Moss, "Lightweight write detection and checkpointing
 * for fine-grained persistence", section 4: the "scan" scheme, their worst case, which "does not track individual
 * updates but simply scans the entire set of resident persistent objects at checkpoint, comparing each object with
 * its unmodified copy in the buffer cache"). No write barrier (the object API's table is page protection's
 * always-dirty byte) and no write fault on a resident page: every resident page has a pre-image for the whole
 * transaction, and commit diffs every one of them.
 *
 * <p>Where the pre-images come from: when a transaction {@linkplain #begin begins}, every resident clean page gets
 * one (one {@code qs_mark_dirty} downcall per page: the price of the scheme, proportional to the resident set
 * rather than to the updates); a page a fault loads during the transaction gets one at load time in the data
 * plane ({@code qs_cards.c} selects it, {@code qs_fault.c} captures it). The frames are then DIRTY, so commit's
 * usual path diffs all of them whole and write-protects them again; a page the storage manager installed itself
 * in the transaction stays write-protected until the first store, whose write fault captures it as under page
 * protection (counted: {@code writeFaults}).
 */
public final class ScanningDetection extends NoBarrier {
    private final MappedArena arena;
    private long captured;

    /** {@code frames}' arena must have been switched to pre-images at load ({@code CardTable.selectScanning}). */
    public ScanningDetection(MappedFrames frames) {
        this.arena = frames.arena();
    }

    @Override
    public WriteDetection detection() {
        return WriteDetection.SCANNING;
    }

    /** Pages given a pre-image when a transaction began, since the store was opened. */
    @Override
    public long marks() {
        return captured;
    }

    /** Gives every resident clean frame its pre-image (it becomes DIRTY and writable). */
    @Override
    public void begin() {
        for (long f : arena.residentFrameList()) {
            if (arena.state(f) == FrameState.CLEAN && arena.preimages().markDirty(f)) {
                captured++;
            }
        }
    }
}
