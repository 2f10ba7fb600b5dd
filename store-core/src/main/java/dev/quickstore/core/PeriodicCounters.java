package dev.quickstore.core;

import dev.quickstore.core.events.StoreCountersEvent;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.core.stats.PoolStats;
import dev.quickstore.core.stats.StoreStats;
import dev.quickstore.mmu.FaultCounters;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * The periodic JFR event {@link StoreCountersEvent} (JDK Flight Recorder's periodic events,
 * {@link FlightRecorder#addPeriodicEvent}): one hook per JVM, installed once JFR is initialized and a store has
 * opened; at each
 * period (1 s by default, a recording's {@code period} setting changes it) it emits one event per open store
 * ({@link StoreBean#open}). JFR runs the hook on its own periodic thread, and only while a recording has the
 * event enabled; the hook takes each store's latch for at most 50 ms (a store busy longer is skipped that
 * period) and reads the native fault counters with the same downcall {@code qs stats} uses - never from the
 * fault path.
 */
final class PeriodicCounters {
    private static final AtomicBoolean LISTENING = new AtomicBoolean();
    private static final AtomicBoolean INSTALLED = new AtomicBoolean();
    private static final long LATCH_WAIT_MS = 50;

    private PeriodicCounters() {}

    /**
     * Installs the hook once per JVM, on {@code executor}: at once if JFR is initialized, else when it is (a
     * {@link FlightRecorderListener}: a recording started later by {@code jcmd JFR.start}). Registering an event
     * class costs JFR's instrumentation, so a JVM that never records never pays it.
     */
    static void install(Executor executor) {
        if (!LISTENING.compareAndSet(false, true)) {
            return;
        }
        // called at once if JFR is initialized already, else from JFR's initialization (under its lock: hand off)
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recorderInitialized(FlightRecorder recorder) {
                executor.execute(PeriodicCounters::installNow);
            }
        });
    }

    private static void installNow() {
        if (INSTALLED.compareAndSet(false, true)) {
            FlightRecorder.addPeriodicEvent(StoreCountersEvent.class, PeriodicCounters::emit);
        }
    }

    private record Snapshot(StoreStats stats, PoolStats pool, CommitStats commits, FaultCounters faults, long aborts) {}

    private static void emit() {
        for (StoreBean bean : StoreBean.open()) {
            Snapshot s;
            try {
                s = bean.read(
                        st -> new Snapshot(
                                st.stats(), st.poolStats(), st.commitStats(), StoreBean.faults(st), st.txns.aborts()),
                        LATCH_WAIT_MS);
            } catch (IllegalStateException closed) {
                continue; // closed since the set was read
            }
            if (s == null) {
                continue; // busy for longer than the wait: skipped this period
            }
            StoreCountersEvent ev = new StoreCountersEvent();
            ev.store = bean.getDirectory();
            ev.readFaults = s.faults().readFaults();
            ev.writeFaults = s.faults().writeFaults();
            ev.referenceFaults = s.faults().referenceFaults();
            ev.faultBytesRead = s.faults().bytesRead();
            ev.preimageBytes = s.faults().preimageBytes();
            ev.refusals = s.faults().refusals();
            ev.handlerTime = s.faults().handlerNanos();
            ev.evictions = s.pool().evictions();
            ev.overcommits = s.pool().overcommits();
            ev.poolCapacity = s.pool().capacity();
            ev.poolResident = s.pool().resident();
            ev.pageReads = s.stats().pageReads();
            ev.pageWrites = s.stats().pageWrites();
            ev.commits = s.commits().commits();
            ev.aborts = s.aborts();
            ev.logBytes = s.stats().redoBytes();
            ev.checkpoints = s.stats().checkpoints();
            ev.commit();
        }
    }
}
