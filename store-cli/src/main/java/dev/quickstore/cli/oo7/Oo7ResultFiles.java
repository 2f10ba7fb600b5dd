package dev.quickstore.cli.oo7;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.quickstore.cli.Json;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Result;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The OO7 results as files, written through Jackson (its CSV data format and the shell's JSON mapper): what
 * {@code qs oo7 run --csv/--json} and {@code qs oo7 report --csv} write, and what {@code qs oo7 report} reads
 * back ({@link Oo7ReportCommand}). Times in nanoseconds.
 *
 * <p>CSV: one header line, then one row per store, operation and phase: {@code store, size, op, phase, count,
 * count_stable, runs, median_ns, min_ns, max_ns, commit_median_ns} and one column per counter (the union of
 * the stores' counters, in first-seen order; 0 where a store has no such counter).
 *
 * <p>JSON: an array with one object per store: {@code store}, {@code size}, {@code seed}, the store's
 * attributes (e.g. {@code databasePages}, the cold protocol), {@code run} (the machine, JDK, date and commit:
 * {@link RunMetadata}) and {@code results}: per operation and phase
 * {@code op, phase, count, countStable, medianNs, opNs} (every run), {@code commitNs} and {@code counters}.
 */
final class Oo7ResultFiles {
    private static final CsvMapper CSV = new CsvMapper();

    private Oo7ResultFiles() {}

    /** CSV of several stores' results with one header. */
    static String csv(Oo7Config config, Map<String, List<Oo7Result>> bySystem) {
        LinkedHashSet<String> keys = new LinkedHashSet<>();
        bySystem.values().forEach(rs -> rs.forEach(r -> keys.addAll(r.counters().keySet())));
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
        List.of(
                        "store",
                        "size",
                        "op",
                        "phase",
                        "count",
                        "count_stable",
                        "runs",
                        "median_ns",
                        "min_ns",
                        "max_ns",
                        "commit_median_ns")
                .forEach(schema::addColumn);
        keys.forEach(schema::addColumn);
        List<Map<String, Object>> rows = new ArrayList<>();
        bySystem.forEach((store, results) -> {
            for (Oo7Result r : results) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("store", store);
                row.put("size", config.name());
                row.put("op", r.operation().name());
                row.put("phase", phase(r));
                row.put("count", r.count());
                row.put("count_stable", r.countStable());
                row.put("runs", r.opNanos().length);
                row.put("median_ns", r.medianOpNanos());
                row.put("min_ns", r.minOpNanos());
                row.put("max_ns", r.maxOpNanos());
                row.put("commit_median_ns", r.medianCommitNanos());
                keys.forEach(k -> row.put(k, r.counters().getOrDefault(k, 0L)));
                rows.add(row);
            }
        });
        try {
            return CSV.writer(schema.build()).writeValueAsString(rows);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the OO7 results as CSV: " + e.getMessage(), e);
        }
    }

    /**
     * A JSON array with one object per store, each with that store's {@code attributes} (values are numbers,
     * booleans or strings) after its seed.
     */
    static String json(
            Oo7Config config,
            long seed,
            Map<String, List<Oo7Result>> bySystem,
            Map<String, ? extends Map<String, ?>> attributes) {
        List<Map<String, Object>> stores = new ArrayList<>();
        Map<String, Object> run = RunMetadata.current().fields();
        bySystem.forEach((store, results) -> {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("store", store);
            s.put("size", config.name());
            s.put("seed", seed);
            s.putAll(attributes.containsKey(store) ? attributes.get(store) : Map.of());
            s.put("run", run);
            List<Map<String, Object>> rs = new ArrayList<>();
            for (Oo7Result r : results) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("op", r.operation().name());
                m.put("phase", phase(r));
                m.put("count", r.count());
                m.put("countStable", r.countStable());
                m.put("medianNs", r.medianOpNanos());
                m.put("opNs", r.opNanos());
                m.put("commitNs", r.commitNanos());
                m.put("counters", r.counters());
                rs.add(m);
            }
            s.put("results", rs);
            stores.add(s);
        });
        return Json.object(stores) + "\n";
    }

    private static String phase(Oo7Result r) {
        return r.phase().name().toLowerCase(Locale.ROOT);
    }
}
