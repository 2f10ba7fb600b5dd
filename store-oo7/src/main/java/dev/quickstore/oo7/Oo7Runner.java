package dev.quickstore.oo7;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OO7 runner: runs a list of operations against an {@link Oo7Store} with the cold/hot protocol of White
 * and DeWitt 1994 (section 5.2: cold = nothing cached, section 5.3: hot = re-run with everything cached) and
 * measures, per operation, the result count, the median, minimum and maximum time of the operation and of its
 * commit, the store's counters and the peak heap ({@link #PEAK_HEAP_KIB}) (medians per run).
 *
 * <h2>Protocol</h2>
 *
 * A <em>round</em> runs every operation of the list once, in order, each in its own transaction; list orders
 * such as {@code T5DO, T5UNDO} and {@code SM1, SM2} therefore leave the database as they found it.
 *
 * <ol>
 *   <li>Warm-up: {@code warmups} unmeasured rounds (this fills caches and lets the JIT compile the code); with a
 *       cold phase, all but the last of them here.
 *   <li>Cold (only if {@link Oo7Store#supportsCold()}): {@code repetitions} rounds, with {@link
 *       Oo7Store#makeCold()} before every operation, then the last warm-up round, which caches the pages again.
 *   <li>Hot: {@code repetitions} measured rounds in the same process.
 * </ol>
 *
 * The cold phase comes after the warm-up so that it measures what the paper's cold runs measured (section
 * 5.2, compiled C++): nothing cached, the code compiled. Run before the warm-up, an operation's first rounds
 * also run interpreted and in C1 code, and {@code cold - hot - pread} (the fault path's overhead as {@link
 * Oo7Report} prints it) charged that JIT warm-up to the fault path. A cold JVM as well as cold caches is
 * what the fresh-process protocol measures ({@link #measureOnce}, {@code qs oo7 run --cold process}).
 *
 * Times are wall-clock {@link System#nanoTime()} differences: "op" covers the operation inside an open
 * transaction, "commit" the {@link Oo7Store#commit()} after it. These are benchmark figures, never assertions.
 *
 * <p>{@link Oo7Report} prints the results; the admin shell's {@code qs oo7 run} drives this class and writes
 * them as CSV or JSON.
 */
public final class Oo7Runner {
    /**
     * What to run.
     *
     * @param operations the operations of one round, in order
     * @param repetitions measured rounds per phase (cold and hot)
     * @param warmups unmeasured rounds before the cold and the hot phase
     */
    public record Options(List<Oo7Operation> operations, int repetitions, int warmups) {
        public Options {
            operations = List.copyOf(operations);
            if (operations.isEmpty() || repetitions < 1 || warmups < 0) {
                throw new IllegalArgumentException("need operations, repetitions >= 1, warmups >= 0");
            }
        }
    }

    private Oo7Runner() {}

    /** Counter of cold results: microseconds to pread the pages resident after the operation (I/O only). */
    public static final String PREAD_US = "preadUs";

    /**
     * Counter of every result, whatever the store: the peak Java heap use from the operation's begin to the end
     * of its commit in KiB ({@link HeapPeak}: the heap pools' peaks added, an upper bound; the whole JVM's heap).
     */
    public static final String PEAK_HEAP_KIB = "peakHeapKiB";

    /** The operations of a default round for {@code config}: all of them, T10 only with several modules. */
    public static List<Oo7Operation> defaultOperations(Oo7Config config) {
        List<Oo7Operation> ops = new ArrayList<>(List.of(Oo7Operation.values()));
        if (config.numModules() == 1) {
            ops.remove(Oo7Operation.T10);
        }
        return ops;
    }

    /** Runs the protocol and returns the cold results (if any) followed by the hot results, per operation. */
    public static List<Oo7Result> run(Oo7Operations ops, Options options) {
        return runAll(List.of(ops), options).get(ops.store().name());
    }

    /**
     * Runs the protocol on several stores in one process, so that their ratios are taken in one run (design
     * notes section 8): warm-up rounds that alternate between the stores (every store's classes pass through
     * the shared OO7 code before anything is measured, so no store is measured with call-site profiles the
     * other has not seen), then the cold phase of every store that supports one, then the last warm-up round
     * (which caches the pages again), then the hot phase of each store in turn. Returns each store's results
     * (cold, if any, then hot) by {@link Oo7Store#name()}, in order.
     */
    public static Map<String, List<Oo7Result>> runAll(List<Oo7Operations> systems, Options options) {
        return runAll(systems, options, true);
    }

    /**
     * {@link #runAll(List, Options)}, with the in-process cold phase only if {@code cold} (a driver that runs
     * the cold operations in fresh processes passes false and adds their {@link #measureOnce} results).
     */
    public static Map<String, List<Oo7Result>> runAll(List<Oo7Operations> systems, Options options, boolean cold) {
        Map<String, List<Oo7Result>> results = new LinkedHashMap<>();
        for (Oo7Operations ops : systems) {
            if (results.put(ops.store().name(), new ArrayList<>()) != null) {
                throw new IllegalArgumentException(
                        "two stores named " + ops.store().name());
            }
        }
        boolean anyCold = cold && systems.stream().anyMatch(o -> o.store().supportsCold());
        // with a cold phase, the last warm-up round comes after it: the last cold operation reopened the store,
        // and that round caches the pages again (the number of rounds, and so the random choices and T2's swaps,
        // stay those of the earlier protocol: cold rounds, then every warm-up round)
        int beforeCold = anyCold ? Math.max(0, options.warmups() - 1) : options.warmups();
        warmUp(systems, options, beforeCold);
        for (Oo7Operations ops : systems) {
            if (cold && ops.store().supportsCold()) {
                results.get(ops.store().name())
                        .addAll(phase(ops, options, Oo7Result.Phase.COLD, options.repetitions()));
            }
        }
        warmUp(systems, options, options.warmups() - beforeCold);
        for (Oo7Operations ops : systems) {
            results.get(ops.store().name()).addAll(phase(ops, options, Oo7Result.Phase.HOT, options.repetitions()));
        }
        return results;
    }

    /** {@code rounds} unmeasured rounds, alternating between the stores: every operation once, in order. */
    private static void warmUp(List<Oo7Operations> systems, Options options, int rounds) {
        for (int w = 0; w < rounds; w++) {
            for (Oo7Operations ops : systems) {
                for (Oo7Operation op : options.operations()) {
                    ops.run(op);
                }
            }
        }
    }

    private static List<Oo7Result> phase(Oo7Operations ops, Options options, Oo7Result.Phase phase, int rounds) {
        return phase(ops, options, phase, rounds, false);
    }

    /**
     * One cold measurement of {@code op} in a process that has just opened its store (nothing resident, so no
     * {@link Oo7Store#makeCold()}): the body of a child process of a fresh-process cold protocol.
     */
    public static Oo7Result measureOnce(Oo7Operations ops, Oo7Operation op) {
        return phase(ops, new Options(List.of(op), 1, 0), Oo7Result.Phase.COLD, 1, true)
                .get(0);
    }

    private static List<Oo7Result> phase(
            Oo7Operations ops, Options options, Oo7Result.Phase phase, int rounds, boolean freshProcess) {
        Oo7Store store = ops.store();
        List<Oo7Operation> list = options.operations();
        int n = list.size();
        long[][] opNanos = new long[n][rounds];
        long[][] commitNanos = new long[n][rounds];
        int[][] counts = new int[n][rounds];
        List<List<Map<String, Long>>> counterRuns = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            counterRuns.add(new ArrayList<>());
        }
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < n; i++) {
                Oo7Operation op = list.get(i);
                if (phase == Oo7Result.Phase.COLD && !freshProcess) {
                    store.makeCold();
                }
                Map<String, Long> before = store.counters();
                HeapPeak.reset();
                store.begin();
                long t0 = System.nanoTime();
                int count;
                try {
                    count = op.apply(ops);
                } catch (RuntimeException | Error e) {
                    try {
                        store.abort();
                    } catch (RuntimeException suppressed) {
                        e.addSuppressed(suppressed);
                    }
                    throw e;
                }
                long t1 = System.nanoTime();
                store.commit();
                long t2 = System.nanoTime();
                long peakHeap = HeapPeak.peakKiB();
                Map<String, Long> delta = difference(before, store.counters());
                delta.put(PEAK_HEAP_KIB, peakHeap);
                if (phase == Oo7Result.Phase.COLD) {
                    long pread = store.preadNanosOfResidentPages();
                    if (pread >= 0) {
                        delta.put(PREAD_US, pread / 1000);
                    }
                }
                counterRuns.get(i).add(delta);
                opNanos[i][r] = t1 - t0;
                commitNanos[i][r] = t2 - t1;
                counts[i][r] = count;
            }
        }
        List<Oo7Result> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int[] c = counts[i];
            boolean stable = Arrays.stream(c).allMatch(v -> v == c[0]);
            results.add(new Oo7Result(
                    list.get(i),
                    phase,
                    c[rounds - 1],
                    stable,
                    opNanos[i],
                    commitNanos[i],
                    medianCounters(counterRuns.get(i))));
        }
        return results;
    }

    private static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> d = new LinkedHashMap<>();
        after.forEach((k, v) -> d.put(k, v - before.getOrDefault(k, 0L)));
        return d;
    }

    private static Map<String, Long> medianCounters(List<Map<String, Long>> runs) {
        Set<String> keys = new LinkedHashSet<>();
        runs.forEach(m -> keys.addAll(m.keySet()));
        Map<String, Long> medians = new LinkedHashMap<>();
        for (String k : keys) {
            medians.put(
                    k,
                    median(runs.stream().mapToLong(m -> m.getOrDefault(k, 0L)).toArray()));
        }
        return medians;
    }

    static long median(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    static List<String> counterKeys(List<Oo7Result> results) {
        Set<String> keys = new LinkedHashSet<>();
        results.forEach(r -> keys.addAll(r.counters().keySet()));
        return List.copyOf(keys);
    }
}
