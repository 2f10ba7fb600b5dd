package dev.quickstore.oo7;

import dev.quickstore.oo7.Oo7Operations.Parameters;
import dev.quickstore.oo7.Oo7Operations.T2Update;
import dev.quickstore.oo7.heap.HeapOo7Store;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The OO7 driver: runs a list of operations against an {@link Oo7Store} with the cold/hot protocol of White
 * and DeWitt 1994 (section 5.2: cold = nothing cached, section 5.3: hot = re-run with everything cached) and
 * reports, per operation, the result count, the median, minimum and maximum time of the operation and of its
 * commit, and the store's counters (median per run).
 *
 * <h2>Protocol</h2>
 *
 * A <em>round</em> runs every operation of the list once, in order, each in its own transaction; list orders
 * such as {@code T5DO, T5UNDO} and {@code SM1, SM2} therefore leave the database as they found it.
 *
 * <ol>
 *   <li>Cold (only if {@link Oo7Store#supportsCold()}): {@code repetitions} rounds, with {@link
 *       Oo7Store#makeCold()} before every operation.
 *   <li>Warm-up: {@code warmups} unmeasured rounds (this fills caches and lets the JIT compile the code).
 *   <li>Hot: {@code repetitions} measured rounds in the same process.
 * </ol>
 *
 * Times are wall-clock {@link System#nanoTime()} differences: "op" covers the operation inside an open
 * transaction, "commit" the {@link Oo7Store#commit()} after it. These are benchmark figures, never assertions.
 *
 * <p>Run the heap baseline with {@code java -cp store-oo7/target/classes dev.quickstore.oo7.Oo7Benchmark
 * --size small} ({@code --help} lists the options).
 */
public final class Oo7Benchmark {

    /**
     * What to run.
     *
     * @param operations the operations of one round, in order
     * @param repetitions measured rounds per phase (cold and hot)
     * @param warmups unmeasured rounds between the cold and the hot phase
     */
    public record Options(List<Oo7Operation> operations, int repetitions, int warmups) {
        public Options {
            operations = List.copyOf(operations);
            if (operations.isEmpty() || repetitions < 1 || warmups < 0) {
                throw new IllegalArgumentException("need operations, repetitions >= 1, warmups >= 0");
            }
        }
    }

    /** The phase a measurement belongs to. */
    public enum Phase {
        COLD,
        HOT
    }

    /**
     * The measurements of one operation in one phase.
     *
     * @param count the result count of the last run
     * @param countStable whether every run returned the same count (random operations need not)
     * @param opNanos operation times of the runs, in run order
     * @param commitNanos commit times of the runs, in run order
     * @param counters per-run counter differences, median over the runs, in the store's key order
     */
    public record Result(
            Oo7Operation operation,
            Phase phase,
            int count,
            boolean countStable,
            long[] opNanos,
            long[] commitNanos,
            Map<String, Long> counters) {
        public Result {
            opNanos = opNanos.clone();
            commitNanos = commitNanos.clone();
            counters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counters)); // keeps the key order
        }

        public long medianOpNanos() {
            return median(opNanos);
        }

        public long minOpNanos() {
            return Arrays.stream(opNanos).min().orElseThrow();
        }

        public long maxOpNanos() {
            return Arrays.stream(opNanos).max().orElseThrow();
        }

        public long medianCommitNanos() {
            return median(commitNanos);
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

    private Oo7Benchmark() {}

    /** The operations of a default round for {@code config}: all of them, T10 only with several modules. */
    public static List<Oo7Operation> defaultOperations(Oo7Config config) {
        List<Oo7Operation> ops = new ArrayList<>(List.of(Oo7Operation.values()));
        if (config.numModules() == 1) {
            ops.remove(Oo7Operation.T10);
        }
        return ops;
    }

    /** Runs the protocol and returns the cold results (if any) followed by the hot results, per operation. */
    public static List<Result> run(Oo7Operations ops, Options options) {
        Oo7Store store = ops.store();
        List<Result> results = new ArrayList<>();
        if (store.supportsCold()) {
            results.addAll(phase(ops, options, Phase.COLD, options.repetitions()));
        }
        for (int w = 0; w < options.warmups(); w++) {
            for (Oo7Operation op : options.operations()) {
                ops.run(op);
            }
        }
        results.addAll(phase(ops, options, Phase.HOT, options.repetitions()));
        return results;
    }

    /**
     * Runs the protocol on several stores in one process, so that their ratios are taken in one run (design
     * notes section 8): the cold phase of every store that supports one, then warm-up rounds that alternate
     * between the stores (every store's classes pass through the shared OO7 code before anything hot is
     * measured, so no store is measured with call-site profiles the other has not seen), then the hot phase of
     * each store in turn. Returns each store's results (as {@link #run}) by {@link Oo7Store#name()}, in order.
     */
    public static Map<String, List<Result>> runAll(List<Oo7Operations> systems, Options options) {
        return runAll(systems, options, true);
    }

    /**
     * {@link #runAll(List, Options)}, with the in-process cold phase only if {@code cold} (a driver that runs
     * the cold operations in fresh processes passes false and adds their {@link #measureOnce} results).
     */
    public static Map<String, List<Result>> runAll(List<Oo7Operations> systems, Options options, boolean cold) {
        Map<String, List<Result>> results = new LinkedHashMap<>();
        for (Oo7Operations ops : systems) {
            if (results.put(ops.store().name(), new ArrayList<>()) != null) {
                throw new IllegalArgumentException(
                        "two stores named " + ops.store().name());
            }
        }
        for (Oo7Operations ops : systems) {
            if (cold && ops.store().supportsCold()) {
                results.get(ops.store().name()).addAll(phase(ops, options, Phase.COLD, options.repetitions()));
            }
        }
        for (int w = 0; w < options.warmups(); w++) {
            for (Oo7Operations ops : systems) {
                for (Oo7Operation op : options.operations()) {
                    ops.run(op);
                }
            }
        }
        for (Oo7Operations ops : systems) {
            results.get(ops.store().name()).addAll(phase(ops, options, Phase.HOT, options.repetitions()));
        }
        return results;
    }

    private static List<Result> phase(Oo7Operations ops, Options options, Phase phase, int rounds) {
        return phase(ops, options, phase, rounds, false);
    }

    /**
     * One cold measurement of {@code op} in a process that has just opened its store (nothing resident, so no
     * {@link Oo7Store#makeCold()}): the body of a child process of a fresh-process cold protocol.
     */
    public static Result measureOnce(Oo7Operations ops, Oo7Operation op) {
        return phase(ops, new Options(List.of(op), 1, 0), Phase.COLD, 1, true).get(0);
    }

    private static List<Result> phase(
            Oo7Operations ops, Options options, Phase phase, int rounds, boolean freshProcess) {
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
                if (phase == Phase.COLD && !freshProcess) {
                    store.makeCold();
                }
                Map<String, Long> before = store.counters();
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
                Map<String, Long> delta = difference(before, store.counters());
                if (phase == Phase.COLD) {
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
        List<Result> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int[] c = counts[i];
            boolean stable = Arrays.stream(c).allMatch(v -> v == c[0]);
            results.add(new Result(
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

    private static List<String> counterKeys(List<Result> results) {
        Set<String> keys = new LinkedHashSet<>();
        results.forEach(r -> keys.addAll(r.counters().keySet()));
        return List.copyOf(keys);
    }

    // ----------------------------------------------------------------------------------------- output

    /** An aligned text table, one line per operation and phase; times in milliseconds. */
    public static String table(List<Result> results) {
        List<String> keys = counterKeys(results);
        List<String[]> rows = new ArrayList<>();
        List<String> header =
                new ArrayList<>(List.of("op", "phase", "count", "median ms", "min ms", "max ms", "commit ms", "runs"));
        header.addAll(keys);
        rows.add(header.toArray(String[]::new));
        for (Result r : results) {
            List<String> row = new ArrayList<>(List.of(
                    r.operation().name(),
                    r.phase().name().toLowerCase(Locale.ROOT),
                    r.count() + (r.countStable() ? "" : "*"),
                    ms(r.medianOpNanos()),
                    ms(r.minOpNanos()),
                    ms(r.maxOpNanos()),
                    ms(r.medianCommitNanos()),
                    Integer.toString(r.opNanos.length)));
            for (String k : keys) {
                row.add(Long.toString(r.counters().getOrDefault(k, 0L)));
            }
            rows.add(row.toArray(String[]::new));
        }
        StringBuilder sb = new StringBuilder(align(rows));
        if (results.stream().anyMatch(r -> !r.countStable())) {
            sb.append("* count varied between runs (random operation); the last run's count is shown\n");
        }
        return sb.toString();
    }

    /**
     * One table for several stores: per operation and phase the median time of each store and, for every store
     * after the first (the baseline), its ratio to the baseline's median of the same phase, then that store's
     * counters (e.g. faults and log bytes). A phase the baseline did not run (cold, for the heap) shows "-".
     */
    public static String comparison(Map<String, List<Result>> bySystem) {
        List<String> names = List.copyOf(bySystem.keySet());
        String base = names.get(0);
        Map<String, Result> index = new LinkedHashMap<>();
        Set<String> rowKeys = new LinkedHashSet<>();
        for (Phase phase : List.of(Phase.HOT, Phase.COLD)) { // the hot table first: the ratio of section 8
            for (String n : names) {
                for (Result r : bySystem.get(n)) {
                    if (r.phase() == phase) {
                        rowKeys.add(phase + "/" + r.operation());
                    }
                }
            }
        }
        bySystem.forEach((n, rs) -> rs.forEach(r -> index.put(n + "/" + r.phase() + "/" + r.operation(), r)));
        List<String> header = new ArrayList<>(List.of("op", "phase", "count"));
        for (String n : names) {
            header.add(n + " ms");
            header.add(n + " min-max");
        }
        for (String n : names.subList(1, names.size())) {
            header.add(n + "/" + base);
        }
        List<String> counterHeads = new ArrayList<>();
        for (String n : names) {
            List<String> keys = counterKeys(bySystem.get(n));
            for (String k : COMPARED_COUNTERS) {
                if (keys.contains(k)) {
                    counterHeads.add(n + "/" + k);
                }
            }
        }
        header.addAll(
                counterHeads.stream().map(h -> h.substring(h.indexOf('/') + 1)).toList());
        List<String[]> rows = new ArrayList<>();
        rows.add(header.toArray(String[]::new));
        boolean unstable = false;
        for (String key : rowKeys) {
            String[] pk = key.split("/");
            List<String> row = new ArrayList<>(List.of(pk[1], pk[0].toLowerCase(Locale.ROOT)));
            String count = null;
            for (String n : names) {
                Result r = index.get(n + "/" + key);
                if (r != null && count == null) {
                    count = r.count() + (r.countStable() ? "" : "*");
                    unstable |= !r.countStable();
                }
            }
            row.add(count);
            for (String n : names) {
                Result r = index.get(n + "/" + key);
                row.add(r == null ? "-" : ms(r.medianOpNanos()));
                row.add(r == null ? "-" : ms(r.minOpNanos()) + "-" + ms(r.maxOpNanos()));
            }
            Result b = index.get(base + "/" + key);
            for (String n : names.subList(1, names.size())) {
                Result r = index.get(n + "/" + key);
                row.add(
                        r == null || b == null || b.medianOpNanos() == 0
                                ? "-"
                                : String.format(Locale.ROOT, "%.2fx", (double) r.medianOpNanos() / b.medianOpNanos()));
            }
            for (String h : counterHeads) {
                int slash = h.indexOf('/');
                Result r = index.get(h.substring(0, slash) + "/" + key);
                row.add(r == null ? "-" : Long.toString(r.counters().getOrDefault(h.substring(slash + 1), 0L)));
            }
            rows.add(row.toArray(String[]::new));
        }
        StringBuilder sb = new StringBuilder(align(rows));
        if (unstable) {
            sb.append("* count varied between runs (random operation); the last run's count is shown\n");
        }
        return sb.toString();
    }

    /** Commit-breakdown counters (see {@code MappedOo7Store}), in the column order of {@link #commitBreakdown}. */
    static final List<String> COMMIT_COUNTERS = List.of(
            "commitPreimageNanos",
            "commitReprotectNanos",
            "commitStableNanos",
            "commitDiffNanos",
            "commitAppendNanos",
            "commitFlushNanos",
            "commitCheckpointNanos",
            "commitStoreNanos");

    /**
     * Relocation (White and DeWitt 1994, Figure 17): per operation of one system, the first cold run (operation
     * + commit: QS-OR pays for committing the translated pages there) against the median of the later cold
     * runs, in ms. Empty if the system has no cold runs.
     */
    public static String firstAndLaterColdRuns(List<Result> results) {
        StringBuilder b = new StringBuilder();
        for (Result r : results) {
            if (r.phase() != Phase.COLD || r.opNanos().length == 0) {
                continue;
            }
            long[] total = new long[r.opNanos().length];
            for (int k = 0; k < total.length; k++) {
                total[k] = r.opNanos()[k] + r.commitNanos()[k];
            }
            long[] later = java.util.Arrays.copyOfRange(total, 1, total.length);
            b.append(String.format(
                    Locale.ROOT,
                    "%s cold, op + commit ms: first run %.3f (op %.3f, commit %.3f); later runs median %s%n",
                    r.operation(),
                    total[0] / 1e6,
                    r.opNanos()[0] / 1e6,
                    r.commitNanos()[0] / 1e6,
                    later.length == 0 ? "-" : String.format(Locale.ROOT, "%.3f", median(later) / 1e6)));
        }
        return b.toString();
    }

    /**
     * The whole printed report of a run: {@link #comparison}, then the {@link #commitBreakdown} and the {@link
     * #coldOverhead} tables under their headings when they have rows.
     */
    public static String report(Map<String, List<Result>> bySystem) {
        StringBuilder sb = new StringBuilder(comparison(bySystem));
        String breakdown = commitBreakdown(bySystem);
        if (!breakdown.isEmpty()) {
            sb.append("\ncommit breakdown (ms, medians per column; diff MB/s = dirty page bytes / diff time):\n")
                    .append(breakdown);
        }
        String overhead = coldOverhead(bySystem);
        if (!overhead.isEmpty()) {
            sb.append("\ncold fault handling (overhead = cold - hot - pread of the same pages, design notes section 8:"
                            + " goal <= 30% of cold):\n")
                    .append(overhead);
        }
        return sb.toString();
    }

    /** Counter of cold results: microseconds to pread the pages resident after the operation (I/O only). */
    public static final String PREAD_US = "preadUs";

    /**
     * The cold fault-handling overhead per mapped system and operation that ran cold and hot (design notes
     * section 8: "cold T1: fault handling overhead (cold - hot - time to read the same pages with pread) <= 30 %
     * of cold"): cold, hot and pread medians in ms, overhead = cold - hot - pread, and its share of cold. Empty
     * when no cold result carries {@link #PREAD_US}.
     */
    public static String coldOverhead(Map<String, List<Result>> bySystem) {
        List<String[]> rows = new ArrayList<>();
        rows.add(
                new String[] {"op", "system", "cold ms", "hot ms", "pread ms", "readFaults", "overhead ms", "of cold"});
        bySystem.forEach((name, results) -> {
            Map<Oo7Operation, Result> hot = new LinkedHashMap<>();
            results.stream().filter(r -> r.phase() == Phase.HOT).forEach(r -> hot.put(r.operation(), r));
            for (Result cold : results) {
                Long pread = cold.counters().get(PREAD_US);
                Result h = hot.get(cold.operation());
                if (cold.phase() != Phase.COLD || pread == null || h == null) {
                    continue;
                }
                double c = cold.medianOpNanos() / 1e6;
                double hm = h.medianOpNanos() / 1e6;
                double p = pread / 1e3;
                double over = c - hm - p;
                rows.add(new String[] {
                    cold.operation().name(),
                    name,
                    String.format(Locale.ROOT, "%.3f", c),
                    String.format(Locale.ROOT, "%.3f", hm),
                    String.format(Locale.ROOT, "%.3f", p),
                    Long.toString(cold.counters().getOrDefault("readFaults", 0L)),
                    String.format(Locale.ROOT, "%.3f", over),
                    c > 0 ? String.format(Locale.ROOT, "%.0f%%", 100 * over / c) : "-"
                });
            }
        });
        return rows.size() == 1 ? "" : align(rows);
    }

    /**
     * Where commit time went (White and DeWitt 1994, Table 6): per store that reports the commit counters and
     * per operation whose commit examined dirty pages, the median commit time measured by the driver around
     * {@link Oo7Store#commit()}, then the medians of the storage manager's parts: preimage (copying the
     * pre-image to disk form), reprotect (write-protecting the committed page again), stable (the current
     * page's disk-form image), diff (page diff and REDO record encoding), append (to the log
     * buffer), flush (COMMIT record, log write and fsync), checkpoint (write-back when due) and the storage
     * manager's whole commit ("store"); the rest of the driver's time ("other") is the object layer's commit
     * (refusal check, end of the view transaction). Each column is a median over the runs on its own, so the
     * parts need not add up exactly. Empty if no operation committed a dirty page.
     */
    public static String commitBreakdown(Map<String, List<Result>> bySystem) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "op",
            "phase",
            "system",
            "commit ms",
            "preimage",
            "reprotect",
            "stable",
            "diff",
            "append",
            "flush",
            "checkpoint",
            "store",
            "other",
            "pages",
            "logRecords",
            "logBytes",
            "diff MB/s"
        });
        for (Phase phase : List.of(Phase.HOT, Phase.COLD)) {
            bySystem.forEach((name, results) -> {
                for (Result r : results) {
                    Map<String, Long> c = r.counters();
                    if (r.phase() != phase || c.getOrDefault("commitPages", 0L) == 0) {
                        continue;
                    }
                    List<String> row = new ArrayList<>(List.of(
                            r.operation().name(),
                            phase.name().toLowerCase(Locale.ROOT),
                            name,
                            ms(r.medianCommitNanos())));
                    for (String k : COMMIT_COUNTERS) {
                        row.add(ms(c.getOrDefault(k, 0L)));
                    }
                    row.add(ms(Math.max(0, r.medianCommitNanos() - c.getOrDefault("commitStoreNanos", 0L))));
                    row.add(Long.toString(c.get("commitPages")));
                    row.add(Long.toString(c.getOrDefault("logRecords", 0L)));
                    row.add(Long.toString(c.getOrDefault("logBytes", 0L)));
                    long diff = c.getOrDefault("commitDiffNanos", 0L);
                    row.add(
                            diff == 0
                                    ? "-"
                                    : String.format(
                                            Locale.ROOT,
                                            "%.0f",
                                            c.get("commitPages") * (double) PAGE_BYTES / diff * 1e3));
                    rows.add(row.toArray(String[]::new));
                }
            });
        }
        return rows.size() == 1 ? "" : align(rows);
    }

    /** The page size used for the diff rate of {@link #commitBreakdown} (the store's default). */
    static final int PAGE_BYTES = 8192;

    /** Counters shown by {@link #comparison}: the fault and log figures of White and DeWitt 1994 section 5. */
    static final List<String> COMPARED_COUNTERS = List.of(
            "readFaults", "writeFaults", "logRecords", "logBytes", "referenceFaults", "evictions", "reprotectAlls");

    private static String align(List<String[]> rows) {
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int c = 0; c < row.length; c++) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < rows.size(); i++) {
            String[] row = rows.get(i);
            for (int c = 0; c < row.length; c++) {
                String cell = row[c];
                boolean left = c < 2;
                String pad = " ".repeat(width[c] - cell.length());
                sb.append(c == 0 ? "" : "  ").append(left ? cell + pad : pad + cell);
            }
            sb.append('\n');
            if (i == 0) {
                sb.append("-".repeat(Arrays.stream(width).sum() + 2 * (width.length - 1)))
                        .append('\n');
            }
        }
        return sb.toString();
    }

    /** CSV of several stores' results ({@link #csv} with one header: the union of their counters). */
    public static String csvAll(Oo7Config config, Map<String, List<Result>> bySystem) {
        List<Result> all = new ArrayList<>();
        bySystem.values().forEach(all::addAll);
        List<String> keys = counterKeys(all);
        StringBuilder sb = new StringBuilder(
                "store,size,op,phase,count,count_stable,runs,median_ns,min_ns,max_ns,commit_median_ns");
        keys.forEach(k -> sb.append(',').append(k));
        sb.append('\n');
        bySystem.forEach((store, results) -> {
            for (Result r : results) {
                sb.append(String.join(
                        ",",
                        store,
                        config.name(),
                        r.operation().name(),
                        r.phase().name().toLowerCase(Locale.ROOT),
                        Integer.toString(r.count()),
                        Boolean.toString(r.countStable()),
                        Integer.toString(r.opNanos.length),
                        Long.toString(r.medianOpNanos()),
                        Long.toString(r.minOpNanos()),
                        Long.toString(r.maxOpNanos()),
                        Long.toString(r.medianCommitNanos())));
                keys.forEach(k -> sb.append(',').append(r.counters().getOrDefault(k, 0L)));
                sb.append('\n');
            }
        });
        return sb.toString();
    }

    /** A JSON array with one {@link #json} object per store. */
    public static String jsonAll(Oo7Config config, long seed, Map<String, List<Result>> bySystem) {
        return jsonAll(config, seed, bySystem, Map.of());
    }

    /**
     * A JSON array with one {@link #json} object per store, each with that store's {@code attributes} (e.g.
     * {@code databasePages}, the cold protocol; values are numbers, booleans or strings) after its seed.
     */
    public static String jsonAll(
            Oo7Config config,
            long seed,
            Map<String, List<Result>> bySystem,
            Map<String, ? extends Map<String, ?>> attributes) {
        StringBuilder sb = new StringBuilder("[");
        int i = 0;
        for (Map.Entry<String, List<Result>> e : bySystem.entrySet()) {
            sb.append(i++ == 0 ? "" : ",")
                    .append(json(
                            e.getKey(),
                            config,
                            seed,
                            attributes.containsKey(e.getKey()) ? attributes.get(e.getKey()) : Map.of(),
                            e.getValue()));
        }
        return sb.append("]\n").toString();
    }

    /** CSV with a header line; times in nanoseconds ({@link #csvAll} of one store). */
    public static String csv(String store, Oo7Config config, List<Result> results) {
        return csvAll(config, Map.of(store, results));
    }

    /** A JSON object with the run's parameters and every result (all times of all runs, in nanoseconds). */
    public static String json(String store, Oo7Config config, long seed, List<Result> results) {
        return json(store, config, seed, Map.of(), results);
    }

    private static String json(
            String store, Oo7Config config, long seed, Map<String, ?> attributes, List<Result> results) {
        StringBuilder sb = new StringBuilder("{\"store\":")
                .append(quote(store))
                .append(",\"size\":")
                .append(quote(config.name()))
                .append(",\"seed\":")
                .append(seed);
        attributes.forEach((k, v) -> sb.append(',')
                .append(quote(k))
                .append(':')
                .append(v instanceof Number || v instanceof Boolean ? v.toString() : quote(String.valueOf(v))));
        sb.append(",\"results\":[");
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            sb.append(i == 0 ? "" : ",")
                    .append("\n {\"op\":")
                    .append(quote(r.operation().name()))
                    .append(",\"phase\":")
                    .append(quote(r.phase().name().toLowerCase(Locale.ROOT)))
                    .append(",\"count\":")
                    .append(r.count())
                    .append(",\"countStable\":")
                    .append(r.countStable())
                    .append(",\"medianNs\":")
                    .append(r.medianOpNanos())
                    .append(",\"opNs\":")
                    .append(Arrays.toString(r.opNanos).replace(" ", ""))
                    .append(",\"commitNs\":")
                    .append(Arrays.toString(r.commitNanos).replace(" ", ""))
                    .append(",\"counters\":{");
            int k = 0;
            for (Map.Entry<String, Long> e : r.counters().entrySet()) {
                sb.append(k++ == 0 ? "" : ",")
                        .append(quote(e.getKey()))
                        .append(':')
                        .append(e.getValue());
            }
            sb.append("}}");
        }
        return sb.append("\n]}\n").toString();
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    // ------------------------------------------------------------------------------------------- main

    private static final String USAGE = """
            usage: Oo7Benchmark [--size small|medium|large] [--seed N] [--ops T1,T6,...] [--reps N] [--warmup N]
                                [--t2 swap|increment] [--q4 N] [--sm1 N] [--csv FILE|-] [--json FILE|-]
            Builds the OO7 database on the Java heap and runs the operations (default: all; T10 only for large).
            """;

    /** Runs the heap baseline; see {@link #USAGE}. Exits with status 2 on a usage error. */
    public static void main(String[] args) throws IOException {
        Map<String, String> opts;
        try {
            opts = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        if (opts.containsKey("help")) {
            System.out.print(USAGE);
            return;
        }
        Oo7Config config = Oo7Config.named(opts.getOrDefault("size", "small"));
        long seed = Long.parseLong(opts.getOrDefault("seed", "42"));
        Parameters params = new Parameters(
                T2Update.valueOf(opts.getOrDefault("t2", "swap").toUpperCase(Locale.ROOT)),
                Integer.parseInt(opts.getOrDefault("q4", "10")),
                Integer.parseInt(opts.getOrDefault("sm1", "5")));
        List<Oo7Operation> operations = opts.containsKey("ops")
                ? Arrays.stream(opts.get("ops").split(","))
                        .map(s -> Oo7Operation.valueOf(s.trim().toUpperCase(Locale.ROOT)))
                        .toList()
                : defaultOperations(config);
        Options options = new Options(
                operations,
                Integer.parseInt(opts.getOrDefault("reps", "5")),
                Integer.parseInt(opts.getOrDefault("warmup", "3")));

        PrintStream out = System.out;
        try (HeapOo7Store store = new HeapOo7Store()) {
            long t0 = System.nanoTime();
            new Oo7Builder(config, seed).build(store, progress(config));
            long buildNanos = System.nanoTime() - t0;
            out.printf(
                    Locale.ROOT,
                    "OO7 %s on %s: built in %s ms (seed %d, T2 %s, Q4 %d, SM1 %d, %d warm-up + %d measured rounds)%n",
                    config.name(),
                    store.name(),
                    ms(buildNanos),
                    seed,
                    params.t2Update().name().toLowerCase(Locale.ROOT),
                    params.q4Lookups(),
                    params.sm1Size(),
                    options.warmups(),
                    options.repetitions());
            List<Result> results = run(new Oo7Operations(store, config, seed, params), options);
            out.print(table(results));
            write(opts.get("csv"), csv(store.name(), config, results), out);
            write(opts.get("json"), json(store.name(), config, seed, results), out);
        }
    }

    private static Oo7Builder.Progress progress(Oo7Config config) {
        if (config.totalAtomicParts() <= 100_000 / 2) {
            return Oo7Builder.Progress.NONE;
        }
        return (phase, done, total) -> {
            if (done == total || done % (total / 10 == 0 ? 1 : total / 10) == 0) {
                System.err.printf(Locale.ROOT, "building %s: %d/%d%n", phase, done, total);
            }
        };
    }

    private static void write(String target, String text, PrintStream out) throws IOException {
        if (target == null) {
            return;
        }
        if (target.equals("-")) {
            out.print(text);
        } else {
            Files.writeString(Path.of(target), text, StandardCharsets.UTF_8);
        }
    }

    static Map<String, String> parse(String[] args) {
        Set<String> known = Set.of("size", "seed", "ops", "reps", "warmup", "t2", "q4", "sm1", "csv", "json");
        Map<String, String> opts = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                opts.put("help", "");
                continue;
            }
            if (!a.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + a);
            }
            String key = a.substring(2);
            String value;
            int eq = key.indexOf('=');
            if (eq >= 0) {
                value = key.substring(eq + 1);
                key = key.substring(0, eq);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("missing value for " + a);
            }
            if (!known.contains(key)) {
                throw new IllegalArgumentException("unknown option: --" + key);
            }
            opts.put(key, Objects.requireNonNull(value));
        }
        return opts;
    }
}
