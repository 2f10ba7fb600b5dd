package dev.quickstore.lab.cricket;

import java.util.Arrays;

/**
 * How {@link TreeSearchBenchmark} reduces its repetitions to one figure: the fastest for times (on a shared machine,
 * the one least disturbed by other processes), the median for counts and commit times.
 */
final class Repetitions {
    private Repetitions() {}

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** The fastest of the repetitions: on a shared machine, the one least disturbed by other processes. */
    static double fastest(double[] v) {
        return Arrays.stream(v).min().orElseThrow();
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }
}
