package dev.quickstore.oo7;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The measurements of one operation in one phase, as {@link Oo7Runner} takes them; {@link Oo7Report} prints
 * them.
 *
 * @param count the result count of the last run
 * @param countStable whether every run returned the same count (random operations need not)
 * @param opNanos operation times of the runs, in run order
 * @param commitNanos commit times of the runs, in run order
 * @param counters per-run counter differences, median over the runs, in the store's key order
 */
public record Oo7Result(
        Oo7Operation operation,
        Phase phase,
        int count,
        boolean countStable,
        long[] opNanos,
        long[] commitNanos,
        Map<String, Long> counters) {
    /** The phase a measurement belongs to. */
    public enum Phase {
        COLD,
        HOT
    }

    public Oo7Result {
        opNanos = opNanos.clone();
        commitNanos = commitNanos.clone();
        counters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counters)); // keeps the key order
    }

    public long medianOpNanos() {
        return Oo7Runner.median(opNanos);
    }

    public long minOpNanos() {
        return Arrays.stream(opNanos).min().orElseThrow();
    }

    public long maxOpNanos() {
        return Arrays.stream(opNanos).max().orElseThrow();
    }

    public long medianCommitNanos() {
        return Oo7Runner.median(commitNanos);
    }

    @Override
    public long[] opNanos() {
        return opNanos.clone();
    }

    @Override
    public long[] commitNanos() {
        return commitNanos.clone();
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return operation + "/" + phase + " count=" + count + " median=" + medianOpNanos() + "ns";
    }
}
