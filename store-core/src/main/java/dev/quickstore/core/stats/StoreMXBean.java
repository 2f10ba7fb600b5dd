package dev.quickstore.core.stats;

import dev.quickstore.mmu.FaultCounters;

/**
 * The counters of one open store as a JMX MXBean (docs/observability.md), registered in the platform MBean
 * server under {@code dev.quickstore:type=Store,name="<directory>"} (the directory quoted; a second handle with
 * the same name gets {@code ,handle=N}) by a background thread right after the store opened, and unregistered
 * when it closes. JConsole, {@code jcmd} and {@code qs stats
 * --pid PID} read them from another process. All counters are cumulative since the store was opened and are
 * taken under the store latch (a reader waits for a running store operation, never for a transaction). A store
 * closed while a reader holds the proxy answers with an {@code IllegalStateException}.
 *
 * <p>The first group are the whole snapshots ({@code qs stats} prints {@link StoreStats}); the flat attributes
 * after them are the ones worth a chart in JConsole.
 */
public interface StoreMXBean {
    /** The store's directory (a page server's client: {@code qs-HOST:PORT}). */
    String getDirectory();

    /** Whether this handle is a page server's client ({@code Store.connect}). */
    boolean isClient();

    /** What {@code qs stats DIR} prints for a handle. */
    StoreStats getStoreStats();

    PoolStats getPoolStats();

    CommitStats getCommitStats();

    /** The mapped arena's fault-path counters; all zeros without an application view (EXPLICIT frames). */
    FaultCounters getFaultCounters();

    long getCommits();

    long getAborts();

    long getPageReads();

    long getPageWrites();

    long getReadFaults();

    long getWriteFaults();

    long getRefusedFaults();

    long getEvictions();

    long getCheckpoints();

    /** Bytes of REDO records written at commits. */
    long getLogBytes();

    /** The pool's frames holding a page now. */
    int getPoolFramesUsed();

    /** The pool's frames free now ({@code capacity - used}, 0 when the fault path overcommitted). */
    int getPoolFramesFree();
}
