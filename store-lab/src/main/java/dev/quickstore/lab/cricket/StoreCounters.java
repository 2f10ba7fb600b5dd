package dev.quickstore.lab.cricket;

import dev.quickstore.core.Store;
import dev.quickstore.mmu.FaultCounters;

/**
 * The counters a measurement of {@link TreeSearchBenchmark} needs: read faults, and bytes read by them plus by the
 * storage manager's own page reads (looking up the named root reads the root directory's page and the root node's
 * page through the storage manager, not by a fault).
 */
record StoreCounters(long readFaults, long bytesRead, long handlerNanos) {
    static StoreCounters of(Store s) {
        FaultCounters f = s.faultCounters();
        long own = s.stats().pageReads() * s.pageSize();
        return f == null
                ? new StoreCounters(0, own, 0)
                : new StoreCounters(f.readFaults(), f.bytesRead() + own, f.handlerNanos());
    }

    /** Pages read since {@code before}, of {@code pageSize} bytes. */
    double pagesReadSince(StoreCounters before, int pageSize) {
        return (bytesRead - before.bytesRead) / (double) pageSize;
    }
}
