package dev.quickstore.core.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A transaction's abort ({@code TransactionManager.abort}): the pre-images of its dirty pages copied back and
 * its logged (stolen) updates undone with compensation records, ARIES-style (docs/recovery.md).
 */
@Name("dev.quickstore.Abort")
@Label("Transaction Abort")
@Category("QuickStore")
@Description("A transaction rolled back: pre-images restored, stolen updates undone")
public final class AbortEvent extends Event {
    private static final AbortEvent PROBE = new AbortEvent();

    @Label("Store")
    @Description("The store's directory (or a client's server address)")
    public String store;

    @Label("Transaction")
    public long txnId;

    @Label("Pages Restored")
    @Description("Transaction-dirty pages whose pre-image was copied back")
    public long pagesRestored;

    @Label("Logged")
    @Description("Whether the transaction had logged updates (steals), undone with CLRs and ended with END")
    public boolean logged;

    /** Whether a recording wants this event (one load, no allocation). */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }
}
