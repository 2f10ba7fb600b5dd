package dev.quickstore.cli.oo7;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.ExitCodes;
import dev.quickstore.cli.Json;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Report;
import dev.quickstore.oo7.Oo7Result;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code qs oo7 report FILE...}: one table from the JSON files of one or more {@code qs oo7 run --json} runs,
 * e.g. a fresh-process cold run and a hot run, or the same systems on two machines. Systems keep their names;
 * a system that appears again with an operation and phase it already has is renamed {@code name@file} (the
 * file name without {@code .json}), so two machines' {@code qs} columns stand side by side. The first system
 * read is the baseline of the ratios.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        header = "Print one table from the --json files of 'qs oo7 run'.",
        description = {
            "Print the OO7 table (median per system, ratio to the first system, faults and log bytes, commit"
                    + " breakdown) from the JSON files written by qs oo7 run --json; optionally as CSV.",
            "A system already read with the same operation and phase is renamed name@FILE (file name without"
                    + " .json): use it to compare runs or machines. All files must be of one database size."
        },
        footer = {
            "",
            "Examples:",
            "  qs oo7 run --cold process --json cold.json && qs oo7 run --cold none --json hot.json",
            "  qs oo7 report cold.json hot.json               cold-process and hot rows in one table",
            "  qs oo7 report laptop.json server.json --csv both.csv",
            "  qs oo7 report cold.json hot.json --html report.html   plots and tables in one page"
        })
final class Oo7ReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "FILE", description = "JSON files of qs oo7 run --json")
    List<Path> files;

    @Option(names = "--csv", paramLabel = "FILE", description = "also write the combined results as CSV to FILE")
    Path csv;

    @Option(
            names = "--html",
            paramLabel = "FILE",
            description = "also write a self-contained HTML report to FILE: a bar chart per operation (log-scale"
                    + " time, a bar per system, cold and hot), the 1994 paper's numbers beside ours, the tables"
                    + " and the machines of the runs")
    Path html;

    @Option(
            names = "--wide",
            description = "the wide table (spread and every counter per system) and the commit breakdown")
    boolean wide;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, List<Oo7Result>> bySystem = new LinkedHashMap<>();
        Map<String, Oo7HtmlReport.Source> sources = new LinkedHashMap<>();
        String size = null;
        for (Path file : files) {
            JsonNode root;
            try {
                root = Json.MAPPER.readTree(Files.readString(file, StandardCharsets.UTF_8));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException(file + ": not JSON: " + e.getOriginalMessage());
            }
            List<JsonNode> stores = new ArrayList<>();
            if (root != null && root.isArray()) {
                root.forEach(stores::add);
            } else if (root != null && root.isObject()) {
                stores.add(root);
            }
            if (stores.isEmpty()) {
                throw new IllegalArgumentException(file + ": expected the JSON of qs oo7 run --json (an array of"
                        + " {store, size, seed, results} objects)");
            }
            String stem = file.getFileName().toString().replaceFirst("\\.json$", "");
            for (int i = 0; i < stores.size(); i++) {
                JsonNode s = stores.get(i);
                String where = file + " [" + i + "]";
                String name = text(s, "store", where);
                String storeSize = text(s, "size", where);
                Oo7Config.named(storeSize); // a known size
                if (size == null) {
                    size = storeSize;
                } else if (!size.equals(storeSize)) {
                    throw new IllegalArgumentException(where + ": OO7 " + storeSize + ", but " + files.get(0)
                            + " holds OO7 " + size + "; report one database size at a time");
                }
                List<Oo7Result> results = results(s, where);
                Set<String> keys = new HashSet<>();
                results.forEach(r -> keys.add(r.operation() + "/" + r.phase()));
                List<Oo7Result> existing = bySystem.get(name);
                if (existing != null
                        && existing.stream().anyMatch(r -> keys.contains(r.operation() + "/" + r.phase()))) {
                    name = name + "@" + stem;
                    existing = bySystem.get(name);
                }
                if (existing == null) {
                    existing = new ArrayList<>();
                    bySystem.put(name, existing);
                }
                existing.addAll(results);
                sources.putIfAbsent(name, source(file, s));
                out.println(describe(name, file, s));
            }
        }
        out.print(Oo7Report.report(bySystem, wide));
        if (csv != null) {
            Files.writeString(csv, Oo7ResultFiles.csv(Oo7Config.named(size), bySystem), StandardCharsets.UTF_8);
        }
        if (html != null) {
            String page = Oo7HtmlReport.render(
                    size,
                    bySystem,
                    sources,
                    wide,
                    java.time.Instant.now()
                            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                            .toString());
            Files.writeString(html, page, StandardCharsets.UTF_8);
            out.println("HTML report: " + html.toAbsolutePath());
        }
        return ExitCodes.OK;
    }

    /** The file, scalar attributes (as {@link #describe} prints them) and {@code run} object of a store's JSON. */
    private static Oo7HtmlReport.Source source(Path file, JsonNode s) {
        Map<String, String> attributes = new LinkedHashMap<>();
        s.properties().forEach(e -> {
            String k = e.getKey();
            if (!k.equals("store")
                    && !k.equals("size")
                    && !k.equals("results")
                    && e.getValue().isValueNode()) {
                attributes.put(k, e.getValue().asText());
            }
        });
        Map<String, String> run = new LinkedHashMap<>();
        JsonNode r = s.get("run");
        if (r != null && r.isObject()) {
            r.properties().forEach(e -> run.put(e.getKey(), e.getValue().asText()));
        }
        return new Oo7HtmlReport.Source(file, attributes, run);
    }

    /** "qs (FILE): OO7 small, seed 42, databasePages 1234, cold process, ...": every scalar field of the run. */
    private static String describe(String name, Path file, JsonNode s) {
        StringBuilder sb = new StringBuilder(name)
                .append(" (")
                .append(file)
                .append("): OO7 ")
                .append(s.get("size").asText());
        s.properties().forEach(e -> {
            String k = e.getKey();
            if (!k.equals("store")
                    && !k.equals("size")
                    && !k.equals("results")
                    && e.getValue().isValueNode()) {
                sb.append(", ").append(k).append(' ').append(e.getValue().asText());
            }
        });
        return sb.toString();
    }

    private static String text(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(where + ": missing text field '" + field + "'");
        }
        return v.asText();
    }

    private static long[] longs(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null || !v.isArray() || v.isEmpty()) {
            throw new IllegalArgumentException(where + ": expected a non-empty array '" + field + "'");
        }
        long[] a = new long[v.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = v.get(i).asLong();
        }
        return a;
    }

    private static List<Oo7Result> results(JsonNode s, String where) {
        JsonNode rs = s.get("results");
        if (rs == null || !rs.isArray()) {
            throw new IllegalArgumentException(where + ": missing array 'results'");
        }
        List<Oo7Result> out = new ArrayList<>();
        for (int i = 0; i < rs.size(); i++) {
            JsonNode r = rs.get(i);
            String at = where + " result " + i;
            Oo7Operation op = Oo7Command.parse(Oo7Operation.class, at + " op", text(r, "op", at));
            Oo7Result.Phase phase = Oo7Command.parse(Oo7Result.Phase.class, at + " phase", text(r, "phase", at));
            long[] opNs = longs(r, "opNs", at);
            long[] commitNs = longs(r, "commitNs", at);
            if (opNs.length != commitNs.length) {
                throw new IllegalArgumentException(
                        at + ": " + opNs.length + " operation times but " + commitNs.length + " commit times");
            }
            Map<String, Long> counters = new LinkedHashMap<>();
            JsonNode c = r.get("counters");
            if (c != null) {
                c.properties()
                        .forEach(e -> counters.put(e.getKey(), e.getValue().asLong()));
            }
            JsonNode count = r.get("count");
            if (count == null || !count.canConvertToInt()) {
                throw new IllegalArgumentException(at + ": missing integer 'count'");
            }
            JsonNode stable = r.get("countStable");
            out.add(new Oo7Result(
                    op, phase, count.asInt(), stable == null || stable.asBoolean(), opNs, commitNs, counters));
        }
        return out;
    }
}
