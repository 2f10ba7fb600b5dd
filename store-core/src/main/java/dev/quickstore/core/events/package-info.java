/**
 * The store's JDK Flight Recorder events (docs/observability.md lists every event and field): one {@link
 * jdk.jfr.Event} subclass per thing that happens - a commit, an abort, a checkpoint, a recovery, a batch of
 * evictions, a refused fault - and the periodic {@link StoreCountersEvent} with the native fault counters.
 *
 * <p>Cost when JFR is off: every call site asks the event class's static {@code enabled()} (one load of the
 * event's configuration, no allocation) before it creates an event or reads a clock for it; nothing here is
 * ever touched by the fault path (the signal handler never calls Java: design notes section 2). This package
 * depends on nothing of the store; the mechanisms and the facade depend on it. Not exported (JFR makes the
 * classes visible to itself when it registers them).
 */
package dev.quickstore.core.events;
