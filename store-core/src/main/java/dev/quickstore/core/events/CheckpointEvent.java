package dev.quickstore.core.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A fuzzy checkpoint ({@code Checkpointer.checkpoint}): disk-dirty pages written back, the CHECKPOINT record
 * forced, the control file replaced and the log truncated below the redo start (Kakkad and Wilson 1999,
 * section 3.5; docs/recovery.md).
 */
@Name("dev.quickstore.Checkpoint")
@Label("Checkpoint")
@Category("QuickStore")
@Description("A checkpoint: dirty pages written back, log truncated")
public final class CheckpointEvent extends Event {
    private static final CheckpointEvent PROBE = new CheckpointEvent();

    @Label("Store")
    public String store;

    @Label("Pages Written")
    @Description("Disk-dirty pages written back (through the double-write file)")
    public long pagesWritten;

    @Label("Dirty Pages Left")
    @Description("Dirty pages the running transaction holds (in the checkpoint's dirty page table)")
    public long dirtyPagesLeft;

    @Label("Checkpoint LSN")
    public long checkpointLsn;

    @Label("Redo Start LSN")
    @Description("Where recovery would start; log segments wholly below it were deleted")
    public long redoStartLsn;

    /** Whether a recording wants this event (one load, no allocation). */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }
}
