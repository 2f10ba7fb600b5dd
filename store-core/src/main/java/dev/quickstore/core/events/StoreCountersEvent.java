package dev.quickstore.core.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The counters of one open store, every second by default (a periodic event: one per open store at each
 * period, emitted by a hook the store registers with {@code FlightRecorder.addPeriodicEvent}). The fault
 * counters are the data plane's (store-native {@code FaultCounters}: incremented with atomics in the C
 * handler, read by a downcall from the JFR periodic thread, never from the fault path); the rest are the
 * handle's {@code StoreStats}, {@code PoolStats} and {@code CommitStats}. All cumulative since the store was
 * opened.
 */
@Name("dev.quickstore.StoreCounters")
@Label("Store Counters")
@Category("QuickStore")
@Description("Cumulative fault, buffer pool, commit and log counters of an open store")
@Period("1 s")
@StackTrace(false)
public final class StoreCountersEvent extends Event {
    @Label("Store")
    public String store;

    @Label("Read Faults")
    @Description("Faults that read a page and made it readable (C fault path)")
    public long readFaults;

    @Label("Write Faults")
    @Description("Faults that captured a pre-image and made a frame writable")
    public long writeFaults;

    @Label("Reference Faults")
    @Description("Faults on resident frames the clock had reprotected (no I/O)")
    public long referenceFaults;

    @Label("Fault Bytes Read")
    @DataAmount
    public long faultBytesRead;

    @Label("Pre-image Bytes")
    @DataAmount
    public long preimageBytes;

    @Label("Refusals")
    @Description("Refused faults")
    public long refusals;

    @Label("Fault Handler Time")
    @Description("Total time spent in the fault handler")
    @Timespan(Timespan.NANOSECONDS)
    public long handlerTime;

    @Label("Evictions")
    @Description("Frames evicted (by the fault path and by Java)")
    public long evictions;

    @Label("Overcommits")
    public long overcommits;

    @Label("Pool Frames")
    public long poolCapacity;

    @Label("Pool Frames Used")
    public long poolResident;

    @Label("Page Reads")
    @Description("Pages the store read itself (its own loads, not the fault path's)")
    public long pageReads;

    @Label("Page Writes")
    @Description("Pages written back")
    public long pageWrites;

    @Label("Commits")
    public long commits;

    @Label("Aborts")
    public long aborts;

    @Label("Log Bytes")
    @Description("Bytes of REDO records written at commits")
    @DataAmount
    public long logBytes;

    @Label("Checkpoints")
    public long checkpoints;
}
