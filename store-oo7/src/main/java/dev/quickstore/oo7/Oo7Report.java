package dev.quickstore.oo7;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The OO7 results as text, as {@code qs oo7 run} and {@code qs oo7 report} print them: one table per store,
 * the systems side by side with the fault and log counters of White and DeWitt 1994 section 5, the commit
 * breakdown, and first versus later cold runs; the fault-handling tables (hot write faults, the cold-run overhead over
 * the pread of the same pages) are {@link Oo7FaultTables}'.
 * Times in milliseconds. The CSV and JSON forms are the admin shell's ({@code cli.oo7.Oo7ResultFiles}).
 */
public final class Oo7Report {
    private Oo7Report() {}

    /** An aligned text table, one line per operation and phase; times in milliseconds. */
    public static String table(List<Oo7Result> results) {
        List<String> keys = Oo7Runner.counterKeys(results);
        List<String[]> rows = new ArrayList<>();
        List<String> header =
                new ArrayList<>(List.of("op", "phase", "count", "median ms", "min ms", "max ms", "commit ms", "runs"));
        header.addAll(keys);
        rows.add(header.toArray(String[]::new));
        for (Oo7Result r : results) {
            List<String> row = new ArrayList<>(List.of(
                    r.operation().name(),
                    r.phase().name().toLowerCase(Locale.ROOT),
                    r.count() + (r.countStable() ? "" : "*"),
                    ms(r.medianOpNanos()),
                    ms(r.minOpNanos()),
                    ms(r.maxOpNanos()),
                    ms(r.medianCommitNanos()),
                    Integer.toString(r.opNanos().length)));
            for (String k : keys) {
                row.add(Long.toString(r.counters().getOrDefault(k, 0L)));
            }
            rows.add(row.toArray(String[]::new));
        }
        return new Table(rows, results.stream().anyMatch(r -> !r.countStable()) ? List.of(UNSTABLE_NOTE) : List.of())
                .text();
    }

    /**
     * The compact table (at most about 110 columns for four systems): per operation and phase the count, the
     * median time of each store and, for every store after the first (the baseline), its ratio to the
     * baseline's median of the same phase, then each mapped store's read/write faults. A phase the baseline
     * did not run (cold, for the heap) shows "-". {@link #comparison} has every counter and the spread.
     */
    public static String compact(Map<String, List<Oo7Result>> bySystem) {
        return compactTable(bySystem).text();
    }

    /** {@link #compact} as rows and notes. */
    public static Table compactTable(Map<String, List<Oo7Result>> bySystem) {
        List<String> names = List.copyOf(bySystem.keySet());
        String base = names.get(0);
        Map<String, Oo7Result> index = new LinkedHashMap<>();
        bySystem.forEach((n, rs) -> rs.forEach(r -> index.put(n + "/" + r.phase() + "/" + r.operation(), r)));
        List<String> faulting = names.stream()
                .filter(n -> Oo7Runner.counterKeys(bySystem.get(n)).contains("readFaults"))
                .toList();
        List<String> header = new ArrayList<>(List.of("op", "phase", "count"));
        for (String n : names) {
            header.add(n + " ms");
            if (!n.equals(base)) {
                header.add("/" + base);
            }
        }
        faulting.forEach(n -> header.add(n + " r/w"));
        List<String[]> rows = new ArrayList<>();
        rows.add(header.toArray(String[]::new));
        boolean unstable = false;
        for (String key : rowKeys(bySystem)) {
            String[] pk = key.split("/");
            List<String> row = new ArrayList<>(List.of(pk[1], pk[0].toLowerCase(Locale.ROOT)));
            String count = null;
            for (String n : names) {
                Oo7Result r = index.get(n + "/" + key);
                if (r != null && count == null) {
                    count = r.count() + (r.countStable() ? "" : "*");
                    unstable |= !r.countStable();
                }
            }
            row.add(count);
            Oo7Result b = index.get(base + "/" + key);
            for (String n : names) {
                Oo7Result r = index.get(n + "/" + key);
                row.add(r == null ? "-" : ms(r.medianOpNanos()));
                if (!n.equals(base)) {
                    row.add(ratio(r, b));
                }
            }
            for (String n : faulting) {
                Oo7Result r = index.get(n + "/" + key);
                row.add(
                        r == null
                                ? "-"
                                : r.counters().getOrDefault("readFaults", 0L) + "/"
                                        + r.counters().getOrDefault("writeFaults", 0L));
            }
            rows.add(row.toArray(String[]::new));
        }
        List<String> notes = new ArrayList<>();
        if (unstable) {
            notes.add(UNSTABLE_NOTE);
        }
        notes.add("ms: median; /" + base + ": time over " + base
                + "'s, same phase; r/w: read/write faults; all counters: --wide, --csv, --json");
        return new Table(rows, notes);
    }

    private static final String UNSTABLE_NOTE =
            "* count varied between runs (random operation); the last run's count is shown";

    private static String ratio(Oo7Result r, Oo7Result base) {
        return r == null || base == null || base.medianOpNanos() == 0
                ? "-"
                : String.format(Locale.ROOT, "%.2fx", (double) r.medianOpNanos() / base.medianOpNanos());
    }

    /** Row keys (PHASE/OP) in print order: every hot row first (the ratio of section 8), then cold. */
    private static Set<String> rowKeys(Map<String, List<Oo7Result>> bySystem) {
        Set<String> rowKeys = new LinkedHashSet<>();
        for (Oo7Result.Phase phase : List.of(Oo7Result.Phase.HOT, Oo7Result.Phase.COLD)) {
            for (List<Oo7Result> rs : bySystem.values()) {
                for (Oo7Result r : rs) {
                    if (r.phase() == phase) {
                        rowKeys.add(phase + "/" + r.operation());
                    }
                }
            }
        }
        return rowKeys;
    }

    /**
     * The wide table for several stores ({@code --wide}): per operation and phase the median time and the
     * min-max spread of each store and, for every store after the first (the baseline), its ratio to the
     * baseline's median of the same phase, then every store's fault, log and replacement counters, each
     * headed with its store's name. A phase the baseline did not run (cold, for the heap) shows "-".
     */
    public static String comparison(Map<String, List<Oo7Result>> bySystem) {
        return comparisonTable(bySystem).text();
    }

    /** {@link #comparison} as rows and notes. */
    public static Table comparisonTable(Map<String, List<Oo7Result>> bySystem) {
        List<String> names = List.copyOf(bySystem.keySet());
        String base = names.get(0);
        Map<String, Oo7Result> index = new LinkedHashMap<>();
        Set<String> rowKeys = rowKeys(bySystem);
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
            List<String> keys = Oo7Runner.counterKeys(bySystem.get(n));
            for (String k : COMPARED_COUNTERS) {
                if (keys.contains(k)) {
                    counterHeads.add(n + "/" + k);
                }
            }
        }
        header.addAll(counterHeads.stream().map(h -> h.replace('/', ' ')).toList());
        List<String[]> rows = new ArrayList<>();
        rows.add(header.toArray(String[]::new));
        boolean unstable = false;
        for (String key : rowKeys) {
            String[] pk = key.split("/");
            List<String> row = new ArrayList<>(List.of(pk[1], pk[0].toLowerCase(Locale.ROOT)));
            String count = null;
            for (String n : names) {
                Oo7Result r = index.get(n + "/" + key);
                if (r != null && count == null) {
                    count = r.count() + (r.countStable() ? "" : "*");
                    unstable |= !r.countStable();
                }
            }
            row.add(count);
            for (String n : names) {
                Oo7Result r = index.get(n + "/" + key);
                row.add(r == null ? "-" : ms(r.medianOpNanos()));
                row.add(r == null ? "-" : ms(r.minOpNanos()) + "-" + ms(r.maxOpNanos()));
            }
            Oo7Result b = index.get(base + "/" + key);
            for (String n : names.subList(1, names.size())) {
                Oo7Result r = index.get(n + "/" + key);
                row.add(
                        r == null || b == null || b.medianOpNanos() == 0
                                ? "-"
                                : String.format(Locale.ROOT, "%.2fx", (double) r.medianOpNanos() / b.medianOpNanos()));
            }
            for (String h : counterHeads) {
                int slash = h.indexOf('/');
                Oo7Result r = index.get(h.substring(0, slash) + "/" + key);
                row.add(r == null ? "-" : Long.toString(r.counters().getOrDefault(h.substring(slash + 1), 0L)));
            }
            rows.add(row.toArray(String[]::new));
        }
        return new Table(rows, unstable ? List.of(UNSTABLE_NOTE) : List.of());
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
    public static String firstAndLaterColdRuns(List<Oo7Result> results) {
        StringBuilder b = new StringBuilder();
        for (Oo7Result r : results) {
            if (r.phase() != Oo7Result.Phase.COLD || r.opNanos().length == 0) {
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
                    later.length == 0 ? "-" : String.format(Locale.ROOT, "%.3f", Oo7Runner.median(later) / 1e6)));
        }
        return b.toString();
    }

    /** {@link #report(Map, boolean)}, compact. */
    public static String report(Map<String, List<Oo7Result>> bySystem) {
        return report(bySystem, false);
    }

    /**
     * The whole printed report of a run: the {@link #compact} table (or, {@code wide}, the {@link #comparison}
     * table and the {@link #commitBreakdown}), then the commit and peak-heap table, the hot write faults ({@link
     * Oo7FaultTables#writeFaults}) and the cold overhead ({@link Oo7FaultTables#coldOverhead}) with its goal's
     * verdict, each when it has rows ({@link #sections}).
     */
    public static String report(Map<String, List<Oo7Result>> bySystem, boolean wide) {
        StringBuilder sb = new StringBuilder();
        for (Section s : sections(bySystem, wide)) {
            if (!s.title().isEmpty()) {
                sb.append('\n').append(s.title()).append(":\n");
            }
            sb.append(s.table().text());
        }
        return sb.toString();
    }

    /**
     * The tables of {@link #report(Map, boolean)} in print order, each with its title (empty for the first, the
     * main table); tables without rows are left out. The HTML report renders the same sections.
     */
    public static List<Section> sections(Map<String, List<Oo7Result>> bySystem, boolean wide) {
        List<Section> out = new ArrayList<>();
        out.add(new Section("", wide ? comparisonTable(bySystem) : compactTable(bySystem)));
        if (wide) {
            addIfAny(
                    out,
                    "commit breakdown (ms, medians per column; diff MB/s = dirty page bytes / diff time)",
                    commitBreakdownTable(bySystem));
        }
        addIfAny(
                out,
                "commit ms (median) of the updating operations; peak heap MiB (largest median of an operation,"
                        + " whole JVM)",
                commitAndPeakHeapTable(bySystem));
        addIfAny(
                out,
                "write faults of the updating operations, hot (handler: ms in the C fault handler; object = op"
                        + " - handler)",
                Oo7FaultTables.writeFaults(bySystem));
        addIfAny(
                out,
                "cold fault handling (overhead = cold - hot - pread of the same pages; design notes section 8)",
                Oo7FaultTables.coldOverhead(bySystem));
        return out;
    }

    /** Adds the titled table to {@code out} unless it has no data rows. */
    private static void addIfAny(List<Section> out, String title, Table table) {
        if (!table.isEmpty()) {
            out.add(new Section(title, table));
        }
    }

    /** A titled table of the report. */
    public record Section(String title, Table table) {}

    /**
     * One table of the report: the header row first, then the data rows (all cells text, as printed), and the
     * notes printed under it. {@link #text} aligns it: the first two columns to the left, the others to the right.
     */
    public record Table(List<String[]> rows, List<String> notes) {
        public Table {
            rows = List.copyOf(rows);
            notes = List.copyOf(notes);
        }

        /** Whether the table has no data rows. */
        public boolean isEmpty() {
            return rows.size() <= 1;
        }

        /** The aligned text with a rule under the header, then the notes, one per line. */
        public String text() {
            StringBuilder sb = new StringBuilder(align(rows));
            notes.forEach(n -> sb.append(n).append('\n'));
            return sb.toString();
        }
    }

    /**
     * Commit latency and peak heap per system: for every updating operation and phase, each system's median
     * commit time in ms (the driver's time around {@link Oo7Store#commit()}: for a persistent store, making the
     * update durable); then per phase the peak heap of each system, the largest median {@link
     * Oo7Runner#PEAK_HEAP_KIB} of its operations in MiB. Empty if no result is of an updating operation or
     * carries a peak (then the table has no data rows).
     */
    public static Table commitAndPeakHeapTable(Map<String, List<Oo7Result>> bySystem) {
        List<String> names = List.copyOf(bySystem.keySet());
        Map<String, Oo7Result> index = new LinkedHashMap<>();
        bySystem.forEach((n, rs) -> rs.forEach(r -> index.put(n + "/" + r.phase() + "/" + r.operation(), r)));
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("op", "phase"));
        header.addAll(names);
        rows.add(header.toArray(String[]::new));
        for (String key : rowKeys(bySystem)) {
            String[] pk = key.split("/");
            if (!Oo7Operation.valueOf(pk[1]).updates()) {
                continue;
            }
            List<String> row = new ArrayList<>(List.of(pk[1], pk[0].toLowerCase(Locale.ROOT)));
            for (String n : names) {
                Oo7Result r = index.get(n + "/" + key);
                row.add(r == null ? "-" : ms(r.medianCommitNanos()));
            }
            rows.add(row.toArray(String[]::new));
        }
        for (Oo7Result.Phase phase : List.of(Oo7Result.Phase.HOT, Oo7Result.Phase.COLD)) {
            List<String> row = new ArrayList<>(List.of("peak heap", phase.name().toLowerCase(Locale.ROOT)));
            boolean any = false;
            for (String n : names) {
                long peak = bySystem.get(n).stream()
                        .filter(r -> r.phase() == phase)
                        .mapToLong(r -> r.counters().getOrDefault(Oo7Runner.PEAK_HEAP_KIB, -1L))
                        .max()
                        .orElse(-1);
                any |= peak >= 0;
                row.add(peak < 0 ? "-" : String.format(Locale.ROOT, "%.1f", peak / 1024.0));
            }
            if (any) {
                rows.add(row.toArray(String[]::new));
            }
        }
        return new Table(rows, List.of());
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
    public static String commitBreakdown(Map<String, List<Oo7Result>> bySystem) {
        Table t = commitBreakdownTable(bySystem);
        return t.isEmpty() ? "" : t.text();
    }

    /** {@link #commitBreakdown} as rows; no data rows if no operation committed a dirty page. */
    public static Table commitBreakdownTable(Map<String, List<Oo7Result>> bySystem) {
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
        for (Oo7Result.Phase phase : List.of(Oo7Result.Phase.HOT, Oo7Result.Phase.COLD)) {
            bySystem.forEach((name, results) -> {
                for (Oo7Result r : results) {
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
        return new Table(rows, List.of());
    }

    /** The page size used for the diff rate of {@link #commitBreakdown} (the store's default). */
    static final int PAGE_BYTES = 8192;

    /**
     * Counters shown by {@link #comparison}: the fault and log figures of White and DeWitt 1994 section 5, Eclipse
     * Store's stored bytes and forced writes, and every system's peak heap.
     */
    static final List<String> COMPARED_COUNTERS = List.of(
            "readFaults",
            "writeFaults",
            "logRecords",
            "logBytes",
            "referenceFaults",
            "evictions",
            "reprotectAlls",
            "storedBytes",
            "syncs",
            Oo7Runner.PEAK_HEAP_KIB);

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

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
