package dev.quickstore.core.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A batch of evictions the buffer pool made in Java ({@code BufferPool}): to make room for a page the store
 * reads itself, or to bring the pool back within its budget after a commit (White and DeWitt 1994, section
 * 3.3: the clock). Evictions the fault path makes for the application's own loads happen in C and are never
 * events (the handler never calls Java); they are counted in {@link StoreCountersEvent#evictions}.
 */
@Name("dev.quickstore.Eviction")
@Label("Eviction Batch")
@Category("QuickStore")
@Description("The buffer pool evicted frames (Java side: the store's own loads, the trim after a commit)")
@StackTrace(false)
public final class EvictionEvent extends Event {
    private static final EvictionEvent PROBE = new EvictionEvent();

    /** Why the pool evicted: room for the store's own load of a page. */
    public static final String LOAD = "load";
    /** Why the pool evicted: back within the budget after the fault path overcommitted. */
    public static final String TRIM = "trim";

    @Label("Store")
    public String store;

    @Label("Cause")
    @Description("load: room for a page the store reads; trim: back within the budget after a commit")
    public String cause;

    @Label("Frames Evicted")
    public long framesEvicted;

    @Label("Pages Written Back")
    @Description("Disk-dirty pages written back (WAL rule, double write) to make frames evictable")
    public long pagesWrittenBack;

    @Label("Steals")
    @Description("Transaction-dirty pages logged (UPDATE with undo) and written back before their commit")
    public long steals;

    /** Whether a recording wants this event (one load, no allocation). */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /**
     * A batch's event, begun, if a recording wants it; else null (no allocation). Callers ask {@link
     * Recorder#initialized()} first: calling this loads the class.
     */
    public static EvictionEvent beginIfEnabled() {
        if (!enabled()) {
            return null;
        }
        EvictionEvent ev = new EvictionEvent();
        ev.begin();
        return ev;
    }

    /** Ends the batch this event began: committed if it evicted a frame and the recording wants it. */
    public void commitBatch(String store, String cause, long evicted, long writtenBack, long steals) {
        if (evicted > 0 && shouldCommit()) {
            this.store = store;
            this.cause = cause;
            this.framesEvicted = evicted;
            this.pagesWrittenBack = writtenBack;
            this.steals = steals;
            commit();
        }
    }
}
