package dev.quickstore.core.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A transaction's commit in the storage manager ({@code TransactionManager.commit}): its dirty pages diffed
 * against their pre-images, the REDO records appended and the COMMIT record forced (White and DeWitt 1994,
 * section 3.6: recovery by page diffing). The duration is the log part of commit (diff, append, group-commit
 * flush), the part {@code CommitStats.logNanos} sums; a checkpoint taken after the commit is its own event.
 * A page server's commits of its clients' transactions are recorded here too (on the server).
 */
@Name("dev.quickstore.Commit")
@Label("Transaction Commit")
@Category("QuickStore")
@Description("A transaction committed: dirty pages diffed, REDO records logged, the log forced")
public final class CommitEvent extends Event {
    private static final CommitEvent PROBE = new CommitEvent();

    @Label("Store")
    @Description("The store's directory (or a client's server address)")
    public String store;

    @Label("Transaction")
    public long txnId;

    @Label("Pages Dirtied")
    @Description("Transaction-dirty pages diffed at commit")
    public long pages;

    @Label("REDO Records")
    @Description("REDO records appended (pages whose diff was not empty)")
    public long redoRecords;

    @Label("Log Bytes")
    @Description("Bytes of log appended by the commit (REDO records and the COMMIT record)")
    @DataAmount
    public long logBytes;

    @Label("Forced")
    @Description("Whether this commit forced the log itself (false: a page server's group commit forces it later)")
    public boolean forced;

    /** Whether a recording wants this event (one load, no allocation). */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }
}
