package dev.quickstore.oo7.mapped;

import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.core.stats.StoreStats;
import dev.quickstore.mmu.FaultCounters;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The counters {@link MappedOo7Store#counters()} reports (faults, pages read, log, the commit breakdown, replacement,
 * cards), summed over the store's reopenings: {@code makeCold} closes and reopens the store, and the arena's and the
 * pool's counters restart at zero each time, while the log's LSNs continue.
 */
final class StoreCounters {
    private static final String[] COUNTER_NAMES = {
        "readFaults",
        "writeFaults",
        "pagesRead",
        "preimageBytes",
        "logRecords",
        "logBytes",
        "commits",
        "commitNanos",
        "commitPages",
        "commitPreimageNanos",
        "commitReprotectNanos",
        "commitStableNanos",
        "commitDiffNanos",
        "commitAppendNanos",
        "commitFlushNanos",
        "commitLogNanos",
        "commitCheckpointNanos",
        "commitStoreNanos",
        "referenceFaults",
        "evictions",
        "reprotectAlls",
        "framesCleared",
        "commitCardPages",
        "commitCards",
        "cardMarks",
        "readAheadFrames",
        "writeAheadFrames",
        "handlerNanos",
        "untouchedLoads",
        "minorFaults",
        "threadCpuNanos"
    };

    /** Counters of earlier openings. */
    private final long[] carried = new long[COUNTER_NAMES.length];

    /** Before a reopening: what {@code db} counted so far is carried over. */
    void carry(PersistentStore db) {
        long[] now = raw(db);
        System.arraycopy(now, 0, carried, 0, carried.length);
    }

    /** Every counter by name; the commits and their time are the OO7 store's own (measured around commit). */
    Map<String, Long> map(PersistentStore db, long commits, long commitNanos) {
        long[] c = raw(db);
        c[6] = commits;
        c[7] = commitNanos;
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < COUNTER_NAMES.length; i++) {
            m.put(COUNTER_NAMES[i], c[i]);
        }
        return m;
    }

    /** Cumulative counters since this object was created (summed over reopenings). */
    private long[] raw(PersistentStore db) {
        FaultCounters f = db.storageManager().faultCounters();
        StoreStats s = db.storageManager().stats();
        long pageSize = db.storageManager().pageSize();
        CommitStats k = db.storageManager().commitStats();
        PoolStats pool = db.storageManager().poolStats();
        long[] c = {
            f == null ? 0 : f.readFaults(),
            f == null ? 0 : f.writeFaults(),
            f == null ? s.pageReads() : f.bytesRead() / pageSize,
            f == null ? 0 : f.preimageBytes(),
            s.redoRecords(),
            s.logEndLsn(),
            0,
            0,
            k.pages(),
            k.preimageNanos(),
            k.reprotectNanos(),
            k.stableNanos(),
            k.diffNanos(),
            k.appendNanos(),
            k.flushNanos(),
            k.logNanos(),
            k.checkpointNanos(),
            k.totalNanos(),
            f == null ? 0 : f.referenceFaults(),
            pool.evictions(),
            pool.reprotectAlls(),
            pool.framesCleared(),
            k.cardPages(),
            k.cards(),
            db.storageManager().cardMarks(),
            f == null ? 0 : f.readAheadFrames(),
            f == null ? 0 : f.writeAheadFrames(),
            f == null ? 0 : f.handlerNanos(),
            f == null ? 0 : f.untouchedLoads(),
            0, // minorFaults: the calling thread's, not the arena's (below)
            0 // threadCpuNanos: likewise
        };
        // the log's LSNs continue across openings; the arena's and the pool's counters restart
        long[] out = new long[c.length];
        for (int i = 0; i < c.length; i++) {
            out[i] = i == 5 ? c[i] : carried[i] + c[i];
        }
        // a thread's counts never restart: not carried
        out[c.length - 2] = threadMinorFaults();
        out[c.length - 1] = THREADS.getCurrentThreadCpuTime();
        return out;
    }

    private static final Path THREAD_STAT = Path.of("/proc/thread-self/stat");

    /**
     * CPU time of the calling thread, user and kernel (signals, faults, pread included): unlike the wall clock it
     * does not grow while the thread waits for a CPU, so cold and hot runs on a loaded machine stay comparable.
     */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * Minor page faults of the calling thread so far ({@code /proc/thread-self/stat}, field 10): the kernel-only
     * faults a cold operation pays besides its signals - the allocation of fresh arena memory under its reads and
     * the application view's first touch of a frame made accessible - or 0 where the file is not readable.
     */
    static long threadMinorFaults() {
        try {
            String stat = Files.readString(THREAD_STAT);
            // the fields after the command name, which is in parentheses and may contain spaces
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[7]); // field 10 of the whole line: minflt
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
