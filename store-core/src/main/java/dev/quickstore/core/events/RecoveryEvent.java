package dev.quickstore.core.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * Restart recovery when a store is opened (docs/recovery.md: torn-page restore, ARIES analysis, redo, undo),
 * emitted on every embedded open, also when there was nothing to redo. The duration is analysis, redo and
 * undo; the torn-page restore before them (and the arena's mapping) is counted but not timed.
 */
@Name("dev.quickstore.Recovery")
@Label("Recovery")
@Category("QuickStore")
@Description("Opening a store: torn pages restored, log analysed, history repeated, losers undone")
public final class RecoveryEvent extends Event {
    private static final RecoveryEvent PROBE = new RecoveryEvent();

    @Label("Store")
    public String store;

    @Label("Records Scanned")
    @Description("Log records the analysis scanned from the last checkpoint's redo start")
    public long recordsScanned;

    @Label("Records Redone")
    @Description("Records applied to pages older than them")
    public long recordsRedone;

    @Label("Transactions Undone")
    @Description("Uncommitted transactions (losers) rolled back")
    public int losersUndone;

    @Label("Torn Pages Restored")
    @Description("Pages put back from the double-write file")
    public int tornPagesRestored;

    /** Whether a recording wants this event (one load, no allocation). */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }
}
