package dev.quickstore.core.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A page fault the data plane refused (design notes section 2a): the access completed on a scratch page and
 * the refusal was recorded in C; this event is emitted when the store takes the record in Java, at its API
 * boundary (where {@code PageFaultRefusedException} is thrown), or drops it because the transaction aborts.
 * The time is when Java took it, not when the fault happened.
 */
@Name("dev.quickstore.RefusedFault")
@Label("Refused Fault")
@Category("QuickStore")
@Description("A refused page fault (checksum, I/O error, outside a transaction, ...) reached Java")
public final class RefusedFaultEvent extends Event {
    private static final RefusedFaultEvent PROBE = new RefusedFaultEvent();

    @Label("Store")
    public String store;

    @Label("Page")
    public long page;

    @Label("Address")
    public long address;

    @Label("Reason")
    @Description("The data plane's reason (RefusalReason)")
    public String reason;

    @Label("Errno")
    public int errno;

    @Label("Thrown")
    @Description("true: thrown as an exception (the transaction is doomed); false: dropped by an abort")
    public boolean thrown;

    /** Whether a recording wants this event (one load, no allocation). */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }
}
