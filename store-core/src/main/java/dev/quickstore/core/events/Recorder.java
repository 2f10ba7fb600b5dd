package dev.quickstore.core.events;

import jdk.jfr.FlightRecorder;

/**
 * The gate in front of every event of this package: whether JDK Flight Recorder has been initialized in this JVM
 * at all (one volatile load, {@link FlightRecorder#isInitialized()}). Call sites ask it before they name an event
 * class: loading a {@link jdk.jfr.Event} subclass makes the JVM hand its bytes to JFR's instrumentation, which
 * costs a noticeable part of a second the first time in a JVM that never records (measured: docs/observability.md),
 * so a store that nobody records never loads its event classes. Once a recording was started (at launch, by
 * {@code jcmd JFR.start} or by a {@link jdk.jfr.Recording}) this is true and each event's own {@code enabled()}
 * decides.
 */
public final class Recorder {
    private Recorder() {}

    /** Whether JFR is initialized in this JVM (a recording may want events); false: none can be recording. */
    public static boolean initialized() {
        return FlightRecorder.isInitialized();
    }
}
