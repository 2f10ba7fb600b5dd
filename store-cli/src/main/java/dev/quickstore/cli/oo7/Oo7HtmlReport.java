package dev.quickstore.cli.oo7;

import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Report;
import dev.quickstore.oo7.Oo7Result;
import java.nio.file.Path;
import java.text.NumberFormat;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code qs oo7 report --html FILE}: the OO7 results as one self-contained HTML page (no external resource, no
 * network; the plots are inline SVG drawn by {@link Oo7Charts}). It shows, in order: the runs (each system's
 * file and attributes, and the machine, JDK, date and commit that measured it, {@link RunMetadata}); one bar
 * chart per OO7 operation, a bar per system in each phase (cold, hot), median times on a logarithmic axis; the
 * numbers White and DeWitt 1994 print ({@link PaperOo7Numbers}: database size, cold I/O requests, cost per page
 * fault) as their own series beside ours, with the caveat that the hardware differs by three decades; and the
 * tables of the text report ({@link Oo7Report#sections}) as HTML tables.
 *
 * <p>The page checks itself when a browser loads it (a dozen lines of inline script): errors reported to {@code
 * window.onerror} are counted into {@code data-errors} on the {@code <html>} element, the plots are counted into
 * {@code data-plots} and those drawn with a non-empty box into {@code data-plots-shown}, and {@code
 * data-checked} is set last; {@code data-plots-expected} is the number of plots written. {@code
 * Oo7HtmlReportTest} reads them back from headless Chromium.
 */
final class Oo7HtmlReport {
    private Oo7HtmlReport() {}

    /** Where a system's results came from: the JSON file, its scalar attributes and its {@code run} object. */
    record Source(Path file, Map<String, String> attributes, Map<String, String> run) {}

    private static final int OP_WIDTH = 600;
    private static final int OP_HEIGHT = 360;
    private static final int PAPER_WIDTH = 900;
    private static final int PAPER_HEIGHT = 420;

    /** Short definitions of the operations (Carey, DeWitt and Naughton 1993; {@code Oo7Operations}). */
    private static final Map<Oo7Operation, String> WHAT = new EnumMap<>(Map.ofEntries(
            Map.entry(Oo7Operation.T1, "raw traversal: every atomic part of every composite part"),
            Map.entry(Oo7Operation.T2A, "T1, updating the root atomic part of each composite part"),
            Map.entry(Oo7Operation.T2B, "T1, updating every atomic part"),
            Map.entry(Oo7Operation.T2C, "T1, updating every atomic part four times"),
            Map.entry(Oo7Operation.T3A, "T2A on the indexed build date"),
            Map.entry(Oo7Operation.T3B, "T2B on the indexed build date"),
            Map.entry(Oo7Operation.T3C, "T2C on the indexed build date"),
            Map.entry(Oo7Operation.T4, "traversal that scans each composite part's document"),
            Map.entry(Oo7Operation.T5DO, "traversal that rewrites document texts"),
            Map.entry(Oo7Operation.T5UNDO, "T5 undone"),
            Map.entry(Oo7Operation.T6, "sparse traversal: the root atomic part of each composite part"),
            Map.entry(Oo7Operation.T7, "from a random atomic part up to the module"),
            Map.entry(Oo7Operation.T8, "scan of the manual"),
            Map.entry(Oo7Operation.T9, "first and last character of the manual"),
            Map.entry(Oo7Operation.T10, "T1 over every module"),
            Map.entry(Oo7Operation.Q1, "10 atomic parts by id"),
            Map.entry(Oo7Operation.Q2, "1% range query on build date"),
            Map.entry(Oo7Operation.Q3, "10% range query on build date"),
            Map.entry(Oo7Operation.Q4, "documents by title, then their base assemblies"),
            Map.entry(Oo7Operation.Q5, "single-level make: base assemblies joined with composite parts"),
            Map.entry(Oo7Operation.Q6, "make over the whole assembly hierarchy"),
            Map.entry(Oo7Operation.Q7, "scan of every atomic part"),
            Map.entry(Oo7Operation.Q8, "join of atomic parts and documents"),
            Map.entry(Oo7Operation.SM1, "insert composite parts"),
            Map.entry(Oo7Operation.SM2, "delete the inserted composite parts")));

    /**
     * The page.
     *
     * @param size the OO7 database size of every run
     * @param bySystem the results per system, the first system the baseline of the tables' ratios
     * @param sources per system, where its results came from
     * @param wide the wide tables ({@code --wide})
     * @param generated when the report was made (ISO-8601)
     */
    static String render(
            String size,
            Map<String, List<Oo7Result>> bySystem,
            Map<String, Source> sources,
            boolean wide,
            String generated) {
        Oo7Charts.Palette palette = new Oo7Charts.Palette();
        bySystem.keySet().forEach(palette::of); // the systems' colours in their order, in every chart
        List<String> plots = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        String systems = String.join(", ", bySystem.keySet());

        body.append("<header>\n<h1>OO7 ")
                .append(esc(size))
                .append(": ")
                .append(esc(systems))
                .append(
                        "</h1>\n<p class=\"lead\">The OO7 benchmark (Carey, DeWitt and Naughton 1993) as run by <code>qs"
                                + " oo7 run</code> and combined by <code>qs oo7 report</code>, generated ")
                .append(esc(generated))
                .append(". Times are medians of each system's measured runs; <em>cold</em> starts from a store")
                .append(" that was closed (or a fresh process), <em>hot</em> repeats the operation with its pages")
                .append(" in memory. The first system, <b>")
                .append(esc(bySystem.keySet().iterator().next()))
                .append("</b>, is the baseline of the ratios in the tables.</p>\n")
                .append(
                        "<nav><a href=\"#runs\">Runs</a> · <a href=\"#operations\">Operations</a> · <a href=\"#paper\">")
                .append("Beside the 1994 paper</a> · <a href=\"#tables\">Tables</a></nav>\n</header>\n");

        runs(body, bySystem, sources);

        body.append("<section id=\"operations\">\n<h2>Time per operation</h2>\n")
                .append("<p>One chart per OO7 operation: a bar per system in each phase it ran, the median time in")
                .append(" milliseconds on a logarithmic axis (one gridline per decade), the value printed on the bar.")
                .append(" A system missing from a phase did not run it (the heap has no cold phase).</p>\n")
                .append("<div class=\"plots\">\n");
        NumberFormat ms = Oo7Charts.decimal("#,##0.###");
        for (Map.Entry<Oo7Operation, Map<String, Map<String, Double>>> op :
                medians(bySystem).entrySet()) {
            String id = "op-" + op.getKey().name().toLowerCase(Locale.ROOT);
            List<String> phases = new ArrayList<>();
            for (String phase : List.of("cold", "hot")) {
                if (op.getValue().values().stream().anyMatch(m -> m.containsKey(phase))) {
                    phases.add(phase);
                }
            }
            String svg = Oo7Charts.svg(
                    id,
                    op.getKey().name(),
                    WHAT.get(op.getKey()),
                    "median time, ms (log scale)",
                    op.getValue(),
                    phases,
                    true,
                    ms,
                    palette,
                    OP_WIDTH,
                    OP_HEIGHT);
            plots.add(id);
            body.append(figure(id, svg, counts(bySystem, op.getKey())));
        }
        body.append("</div>\n</section>\n");

        paper(body, size, bySystem, sources, palette, plots);

        body.append("<section id=\"tables\">\n<h2>Tables</h2>\n<p>The tables of <code>qs oo7 report")
                .append(wide ? " --wide" : "")
                .append("</code>, times in milliseconds.</p>\n");
        for (Oo7Report.Section s : Oo7Report.sections(bySystem, wide)) {
            body.append(table(s));
        }
        body.append("</section>\n");

        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\" data-plots-expected=\"")
                .append(plots.size())
                .append("\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"generator\" content=\"QuickStore/J qs oo7 report --html\">\n<title>OO7 ")
                .append(esc(size))
                .append(": ")
                .append(esc(systems))
                .append("</title>\n<script>\n")
                .append(SELF_CHECK)
                .append("</script>\n<style>\n")
                .append(STYLE)
                .append("</style>\n</head>\n<body>\n")
                .append(body)
                .append("<footer>Generated by <code>qs oo7 report --html</code> (QuickStore/J) from ")
                .append(esc(String.join(
                        ", ",
                        sources.values().stream()
                                .map(s -> s.file().toString())
                                .distinct()
                                .toList())))
                .append(". Plots: JFreeChart and JFreeSVG. The page is self-contained.</footer>\n</body>\n</html>\n");
        return html.toString();
    }

    /**
     * Counts errors and the plots drawn with a non-empty box into attributes of the html element: the page's
     * own check, read back by a browser test.
     */
    private static final String SELF_CHECK = """
            (function () {
              var root = document.documentElement, errors = 0;
              window.addEventListener('error', function () { root.setAttribute('data-errors', ++errors); }, true);
              root.setAttribute('data-errors', 0);
              window.addEventListener('load', function () {
                var plots = document.querySelectorAll('figure.plot > svg'), shown = 0;
                for (var i = 0; i < plots.length; i++) {
                  var r = plots[i].getBoundingClientRect(), b = plots[i].getBBox();
                  if (r.width > 0 && r.height > 0 && b.width > 0 && b.height > 0
                      && plots[i].querySelectorAll('rect').length > 0) { shown++; }
                }
                root.setAttribute('data-plots', plots.length);
                root.setAttribute('data-plots-shown', shown);
                root.setAttribute('data-checked', 'true');
              });
            })();
            """;

    private static final String STYLE = """
            :root { color-scheme: light; }
            body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
              color: #222; background: #fafafa; margin: 0 auto; max-width: 1280px; padding: 24px 32px 48px; }
            h1 { font-size: 26px; margin: 0 0 8px; }
            h2 { font-size: 20px; margin: 36px 0 8px; padding-bottom: 4px; border-bottom: 1px solid #ddd; }
            h3 { font-size: 16px; margin: 24px 0 6px; }
            p { max-width: 960px; }
            .lead { color: #444; }
            nav a { color: #0b5cad; text-decoration: none; }
            code { font: 13px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f0f0f0;
              padding: 1px 4px; border-radius: 3px; }
            .plots { display: flex; flex-wrap: wrap; gap: 16px; }
            figure.plot { margin: 0; background: #fff; border: 1px solid #e2e2e2; border-radius: 6px; padding: 6px;
              flex: 1 1 560px; max-width: 620px; }
            figure.plot.wide { max-width: 940px; flex-basis: 900px; }
            figure.plot > svg { width: 100%; height: auto; display: block; }
            figcaption { font-size: 12.5px; color: #555; padding: 4px 6px 2px; }
            .note { background: #fff8e1; border-left: 4px solid #f0b400; padding: 8px 12px; max-width: 940px; }
            .scroll { overflow-x: auto; max-width: 100%; }
            table { border-collapse: collapse; background: #fff; font-size: 13px; margin: 6px 0 4px; }
            th, td { border: 1px solid #e0e0e0; padding: 3px 8px; white-space: nowrap; }
            th { background: #f3f5f8; font-weight: 600; position: sticky; top: 0; }
            table.machine td.wrap { white-space: normal; min-width: 120px; max-width: 260px; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            tbody tr:nth-child(even) td { background: #fafbfc; }
            .notes { font-size: 12.5px; color: #555; margin: 2px 0 18px; }
            .notes div { white-space: pre-wrap; }
            footer { margin-top: 40px; font-size: 12px; color: #777; }
            """;

    /** The runs: per system its file and attributes; per distinct machine run, its metadata. */
    private static void runs(StringBuilder body, Map<String, List<Oo7Result>> bySystem, Map<String, Source> sources) {
        body.append("<section id=\"runs\">\n<h2>Runs</h2>\n<div class=\"scroll\"><table>\n<thead><tr>")
                .append("<th>system</th><th>file</th><th>operations × phases</th><th>attributes</th>")
                .append("</tr></thead>\n<tbody>\n");
        Map<Map<String, String>, List<String>> machines = new LinkedHashMap<>();
        for (Map.Entry<String, List<Oo7Result>> e : bySystem.entrySet()) {
            Source s = sources.get(e.getKey());
            StringBuilder attrs = new StringBuilder();
            if (s != null) {
                s.attributes()
                        .forEach((k, v) -> attrs.append(attrs.isEmpty() ? "" : ", ")
                                .append(k)
                                .append(' ')
                                .append(v));
                machines.computeIfAbsent(s.run(), k -> new ArrayList<>()).add(e.getKey());
            }
            body.append("<tr><td>")
                    .append(esc(e.getKey()))
                    .append("</td><td>")
                    .append(s == null ? "" : esc(s.file().toString()))
                    .append("</td><td class=\"num\">")
                    .append(e.getValue().size())
                    .append("</td><td>")
                    .append(esc(attrs.toString()))
                    .append("</td></tr>\n");
        }
        body.append("</tbody></table></div>\n<h3>Machine</h3>\n");
        List<String> keys = List.of("date", "host", "os", "cpu", "cpus", "memoryMiB", "loadAverage", "jdk", "commit");
        body.append("<div class=\"scroll\"><table class=\"machine\">\n<thead><tr><th>systems</th>");
        keys.forEach(k -> body.append("<th>").append(k).append("</th>"));
        body.append("</tr></thead>\n<tbody>\n");
        machines.forEach((run, names) -> {
            body.append("<tr><td class=\"wrap\">")
                    .append(esc(String.join(", ", names)))
                    .append("</td>");
            for (String k : keys) {
                boolean prose = k.equals("os") || k.equals("cpu") || k.equals("jdk");
                body.append(prose ? "<td class=\"wrap\">" : "<td>")
                        .append(esc(run.getOrDefault(k, "-")))
                        .append("</td>");
            }
            body.append("</tr>\n");
        });
        body.append("</tbody></table></div>\n");
        if (machines.keySet().stream().anyMatch(Map::isEmpty)) {
            body.append("<p class=\"notes\">\"-\": not recorded (a JSON file written before runs recorded their")
                    .append(" machine).</p>\n");
        }
        body.append("</section>\n");
    }

    /** The numbers of White and DeWitt 1994 beside ours, where the paper prints them. */
    private static void paper(
            StringBuilder body,
            String size,
            Map<String, List<Oo7Result>> bySystem,
            Map<String, Source> sources,
            Oo7Charts.Palette palette,
            List<String> plots) {
        body.append("<section id=\"paper\">\n<h2>Beside White and DeWitt 1994</h2>\n<p class=\"note\">")
                .append("The series labelled <b>paper: … (1994)</b> are the numbers printed in White and DeWitt,")
                .append(" <i>QuickStore: A High Performance Mapped Object Store</i> (SIGMOD 1994), section 5:")
                .append(" QS is QuickStore, E the E persistent language (software swizzling), QS-B QuickStore")
                .append(" with objects padded to E's size. <b>The hardware differs</b>: the paper measured on ")
                .append(esc(PaperOo7Numbers.HARDWARE))
                .append(
                        ", roughly a thousand times slower than a current machine, so compare the shapes and ratios, not")
                .append(" the absolute values. The paper gives its response times only as bar charts (Figures 8 to")
                .append(" 16) without numbers, so the time charts above have no paper series; what it prints as")
                .append(" numbers is plotted here.</p>\n");
        Map<String, Double> paperSize = PaperOo7Numbers.databaseMegabytes(size);
        if (paperSize.isEmpty()) {
            body.append("<p>The paper ran OO7 small and medium only; this report is of OO7 ")
                    .append(esc(size))
                    .append(".</p>\n</section>\n");
            return;
        }
        body.append("<div class=\"plots\">\n");
        // database size
        Map<String, Map<String, Double>> sizes = new LinkedHashMap<>();
        String category = "OO7 " + size;
        bySystem.keySet().forEach(n -> {
            Double mib = mebibytes(sources.get(n));
            if (mib != null) {
                sizes.put(n, Map.of(category, mib));
            }
        });
        paperSize.forEach((sys, mb) -> sizes.put(PaperOo7Numbers.label(sys), Map.of(category, mb)));
        plots.add("paper-size");
        body.append(figure(
                "paper-size",
                Oo7Charts.svg(
                        "paper-size",
                        "Database size",
                        "ours: pages × 8 KiB in MiB; paper: Table 2, megabytes",
                        "MiB (paper: MB)",
                        sizes,
                        List.of(category),
                        false,
                        Oo7Charts.decimal("#,##0.0"),
                        palette,
                        OP_WIDTH,
                        OP_HEIGHT),
                "Systems that report no database size (the heap) have no bar."));

        // cold pages read
        Map<Oo7Operation, Map<String, Double>> io = PaperOo7Numbers.coldIoRequests(size);
        Map<String, Map<String, Double>> reads = new LinkedHashMap<>();
        Set<String> ops = new LinkedHashSet<>();
        for (Map.Entry<String, List<Oo7Result>> e : bySystem.entrySet()) {
            for (Oo7Result r : e.getValue()) {
                Long faults = r.counters().get("readFaults");
                if (r.phase() == Oo7Result.Phase.COLD && faults != null && io.containsKey(r.operation())) {
                    reads.computeIfAbsent(e.getKey(), k -> new LinkedHashMap<>())
                            .put(r.operation().name(), faults.doubleValue());
                    ops.add(r.operation().name());
                }
            }
        }
        List<String> ioOps = io.keySet().stream()
                .map(Enum::name)
                .filter(o -> ops.isEmpty() || ops.contains(o))
                .toList();
        for (String sys : PaperOo7Numbers.SYSTEMS) {
            Map<String, Double> m = new LinkedHashMap<>();
            io.forEach((op, v) -> m.put(op.name(), v.get(sys)));
            reads.put(PaperOo7Numbers.label(sys), m);
        }
        plots.add("paper-io");
        body.append(figure(
                "paper-io",
                Oo7Charts.svg(
                        "paper-io",
                        "Pages read by a cold operation",
                        "ours: read faults; paper: client I/O requests (Tables "
                                + (size.equals("small") ? "3, 4" : "8, 9") + ")",
                        "pages (log scale)",
                        reads,
                        ioOps,
                        true,
                        Oo7Charts.decimal("#,##0"),
                        palette,
                        PAPER_WIDTH,
                        PAPER_HEIGHT),
                "The operations the paper counted that these runs ran cold. Ours: the read faults of each mapped"
                        + " system's cold run (systems without a fault counter have no bar). The paper's requests"
                        + " include QuickStore's mapping-object reads."
                        + (ops.isEmpty()
                                ? " No run in this report has a cold operation the paper counted: only the paper's bars."
                                : "")));

        // cost per fault
        Map<Oo7Operation, Map<String, Double>> fault = PaperOo7Numbers.faultMillis(size);
        if (!fault.isEmpty()) {
            Map<String, Map<String, Double>> cost = new LinkedHashMap<>();
            for (Map.Entry<String, List<Oo7Result>> e : bySystem.entrySet()) {
                Map<Oo7Operation, Oo7Result> hot = new EnumMap<>(Oo7Operation.class);
                e.getValue().stream()
                        .filter(r -> r.phase() == Oo7Result.Phase.HOT)
                        .forEach(r -> hot.put(r.operation(), r));
                for (Oo7Result cold : e.getValue()) {
                    Long faults = cold.counters().get("readFaults");
                    Oo7Result h = hot.get(cold.operation());
                    if (cold.phase() == Oo7Result.Phase.COLD
                            && fault.containsKey(cold.operation())
                            && faults != null
                            && faults > 0
                            && h != null) {
                        double perFault = (cold.medianOpNanos() - h.medianOpNanos()) / 1e6 / faults;
                        if (perFault > 0) {
                            cost.computeIfAbsent(e.getKey(), k -> new LinkedHashMap<>())
                                    .put(cold.operation().name(), perFault);
                        }
                    }
                }
            }
            for (String sys : PaperOo7Numbers.SYSTEMS) {
                Map<String, Double> m = new LinkedHashMap<>();
                fault.forEach((op, v) -> m.put(op.name(), v.get(sys)));
                cost.put(PaperOo7Numbers.label(sys), m);
            }
            plots.add("paper-fault");
            body.append(figure(
                    "paper-fault",
                    Oo7Charts.svg(
                            "paper-fault",
                            "Cost per page fault",
                            "(cold - hot) / read faults, as the paper's Table 5",
                            "ms per fault (log scale)",
                            cost,
                            fault.keySet().stream().map(Enum::name).toList(),
                            true,
                            Oo7Charts.decimal("#,##0.####"),
                            palette,
                            OP_WIDTH,
                            OP_HEIGHT),
                    "Ours for each system with read faults that ran the operation cold and hot; the paper averaged"
                            + " 100 runs, ours are medians. Most of the paper's fault was disk and network I/O"
                            + " (Table 6: 82-85% data I/O)."));
        }
        body.append("</div>\n</section>\n");
    }

    /** A system's database size in MiB from its attributes ({@code databasePages} or {@code databaseBytes}). */
    private static Double mebibytes(Source s) {
        if (s == null) {
            return null;
        }
        try {
            String pages = s.attributes().get("databasePages");
            if (pages != null) {
                return Long.parseLong(pages) * 8192 / 1048576.0;
            }
            String bytes = s.attributes().get("databaseBytes");
            if (bytes != null) {
                return Long.parseLong(bytes) / 1048576.0;
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return null;
    }

    /** Per operation (in enum order), per system, per phase ("cold", "hot"): the median time in ms. */
    private static Map<Oo7Operation, Map<String, Map<String, Double>>> medians(Map<String, List<Oo7Result>> bySystem) {
        Map<Oo7Operation, Map<String, Map<String, Double>>> out = new EnumMap<>(Oo7Operation.class);
        for (Oo7Operation op : Oo7Operation.values()) {
            Map<String, Map<String, Double>> bySys = new LinkedHashMap<>();
            bySystem.forEach((name, results) -> {
                for (Oo7Result r : results) {
                    if (r.operation() == op) {
                        bySys.computeIfAbsent(name, k -> new LinkedHashMap<>())
                                .put(r.phase().name().toLowerCase(Locale.ROOT), r.medianOpNanos() / 1e6);
                    }
                }
            });
            if (!bySys.isEmpty()) {
                out.put(op, bySys);
            }
        }
        return out;
    }

    /** The caption of an operation's chart: its count and the number of runs per phase. */
    private static String counts(Map<String, List<Oo7Result>> bySystem, Oo7Operation op) {
        Integer count = null;
        Set<String> runs = new LinkedHashSet<>();
        for (List<Oo7Result> results : bySystem.values()) {
            for (Oo7Result r : results) {
                if (r.operation() == op) {
                    count = count == null ? r.count() : count;
                    runs.add(r.opNanos().length + " " + r.phase().name().toLowerCase(Locale.ROOT));
                }
            }
        }
        return "Returns " + String.format(Locale.ROOT, "%,d", count) + "; median of " + String.join(" / ", runs)
                + " runs per system.";
    }

    private static String figure(String id, String svg, String caption) {
        return "<figure class=\"plot" + (id.startsWith("paper-io") ? " wide" : "") + "\" id=\"fig-" + id + "\">\n" + svg
                + "\n<figcaption>" + esc(caption) + "</figcaption>\n</figure>\n";
    }

    private static String table(Oo7Report.Section s) {
        StringBuilder b = new StringBuilder();
        if (!s.title().isEmpty()) {
            b.append("<h3>").append(esc(s.title())).append("</h3>\n");
        }
        List<String[]> rows = s.table().rows();
        b.append("<div class=\"scroll\"><table>\n<thead><tr>");
        for (String h : rows.get(0)) {
            b.append("<th>").append(esc(h)).append("</th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        for (String[] row : rows.subList(1, rows.size())) {
            b.append("<tr>");
            for (int c = 0; c < row.length; c++) {
                b.append(c < 2 ? "<td>" : "<td class=\"num\">")
                        .append(esc(row[c]))
                        .append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</tbody></table></div>\n<div class=\"notes\">");
        s.table().notes().forEach(n -> b.append("<div>").append(esc(n)).append("</div>"));
        return b.append("</div>\n").toString();
    }

    /** HTML text escape. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
