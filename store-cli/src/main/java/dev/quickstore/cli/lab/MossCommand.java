package dev.quickstore.cli.lab;

import dev.quickstore.cli.Json;
import dev.quickstore.lab.swizzle.CostModel;
import dev.quickstore.lab.swizzle.Measurement;
import dev.quickstore.lab.swizzle.MossAnalysis;
import dev.quickstore.lab.swizzle.MossLab;
import dev.quickstore.lab.swizzle.MossPaper;
import dev.quickstore.lab.swizzle.MossSeries;
import dev.quickstore.lab.swizzle.MossTables;
import dev.quickstore.lab.swizzle.Strategy;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code qs lab moss}: Moss's swizzling experiment (Moss 1992, "Working with persistent objects: to swizzle or not to
 * swizzle"; issue 16) regenerated on this machine ({@link MossLab}): every run measured and predicted, the fitted
 * load-work-save parameters beside Moss's Table 12, and the analogues of his Tables 4-21: the create-work-save
 * parameters (Table 13), the creation, loading and preparing breakdowns (Tables 4, 7-11, {@link MossTables}) and the
 * parameter differences (Tables 14-16).
 */
@Command(
        name = "moss",
        mixinStandardHelpOptions = true,
        header = "Moss (1992): to swizzle or not to swizzle (NS, EIS, LIS, ECS, LCS), regenerated.",
        description = {
            "Writes Moss's benchmark collections (binary trees of objects with slots and bytes) into the store's"
                    + " slotted pages, then runs load-work-save sessions on them under the five schemes: NS (no"
                    + " swizzling: an oid lookup per visit), EIS/LIS (eager/lazy in-place swizzling in the page"
                    + " buffers), ECS/LCS (eager/lazy copy swizzling into Java objects), and the same work on a heap"
                    + " model (Moss's non-persistent C). Every scheme must compute the heap model's results.",
            "Fits Moss's cost model LWS = MB*nb + MO*n + MS*np + MI*ni + V*nv + nvw + UB*nbu + UO*nu + US*npu per"
                    + " scheme from the measured runs (n, p, i, b, u, v counted, w measured on the heap model),"
                    + " prints each run's measured time next to the model's, the parameters next to Moss's, and his"
                    + " break-even and ratio tables from them. Times are the fastest of --reps sessions (per phase) measured"
                    + " in this one run; ratios are against NS in the same run.",
            "Create-work-save sessions: at every point of VS, VB, VH, VN and SI without updates each scheme also"
                    + " creates the collection in memory (NS: store objects in new pages; EIS/LIS: transient objects in"
                    + " buffer format; ECS/LCS: Java objects), works, and saves it into a new file; fitted as"
                    + " CWS = PB*nb + PO*n + PS*np + PI*ni + V*nv + nvw (Table 13).",
            "Phase tables beside Moss's: creation (Table 4), eager and lazy loading (Tables 7, 8), load time by object"
                    + " size (Table 9), preparing new, old and modified objects (Tables 10, 11), copy minus in-place"
                    + " and swizzling minus non-swizzling parameters (Tables 15, 16).",
            "Series: VS (vary slots), VB (vary bytes), VH (vary height), VN (vary n at fixed size), SI (initialized"
                    + " slots), BI, II, WS, WB (bytes, integers, slots read per visit), VV (vary visits: break-even by"
                    + " measurement), VT (vary the fraction of the collection touched, 1 to 1/256: lazy and NS load"
                    + " only what they touch). VB, VH, VN and SI also run with every object updated (u=1).",
            "Progress on stderr; the tables on stdout, or --json (runs, parameters, every table) or --csv (one line per"
                    + " run, session and scheme; then, after an empty line, one line per table cell: table, row,"
                    + " column, ours, Moss's). The defaults take about 7 minutes on 2 busy cores;"
                    + " --tables runs only what the named tables need."
        })
public final class MossCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--series",
            split = ",",
            paramLabel = "S",
            description = "series to run, comma separated (default: all: VS,VB,VH,VN,SI,BI,II,WS,WB,VV,VT)")
    List<String> series;

    @Option(
            names = "--tables",
            split = ",",
            paramLabel = "T",
            description = "Moss's tables to regenerate, comma separated numbers 4 to 21 (default: all); chooses the"
                    + " series, unless --series is given (4, 5, 12-17: VS,VB,VH,VN,SI; 18-21: those and VV; 6:"
                    + " BI,II,WS,WB; 7: VS,VB; 8, 9: VS,VB,VH,VN; 10: VH,VN,VB; 11: SI), and whether the"
                    + " create-work-save sessions run (only for 4, 10, 11, 13); the phase tables printed are these")
    List<Integer> tables;

    @Option(
            names = "--objects",
            paramLabel = "N",
            defaultValue = "65535",
            description = "largest collection in objects (heights scale from it; default ${DEFAULT-VALUE})")
    long objects;

    @Option(
            names = "--reps",
            defaultValue = "5",
            description = "measured sessions per point and scheme, after a warm-up one; the fastest counts"
                    + " (default ${DEFAULT-VALUE})")
    int reps;

    @Option(names = "--page-size", defaultValue = "8192", description = "page size (default ${DEFAULT-VALUE})")
    int pageSize;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "chooses the updated objects (default ${DEFAULT-VALUE})")
    long seed;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "where to write the collection files (default: a temporary directory, removed at exit)")
    Path dir;

    @Option(names = "--json", description = "print everything as JSON instead of tables")
    boolean json;

    @Option(names = "--csv", description = "print one CSV line per run and scheme instead of tables")
    boolean csv;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (objects < 15 || reps < 1) {
            err.println("qs lab moss: --objects must be at least 15 and --reps at least 1");
            return 2;
        }
        List<String> chosen = series;
        boolean create = true;
        if (tables != null) {
            Set<String> fromTables = new java.util.LinkedHashSet<>();
            create = false;
            for (int t : tables) {
                List<String> need = seriesFor(t);
                if (need == null) {
                    err.println("qs lab moss: no table " + t + " to regenerate (--tables takes 4 to 21)");
                    return 2;
                }
                fromTables.addAll(need);
                create |= t == 4 || t == 10 || t == 11 || t == 13;
            }
            if (chosen == null) {
                chosen = MossSeries.ALL.stream().filter(fromTables::contains).toList();
            }
        }
        List<String> names = new ArrayList<>();
        for (String s : chosen == null ? MossSeries.ALL : chosen) {
            String u = s.trim().toUpperCase(Locale.ROOT);
            if (!MossSeries.ALL.contains(u)) {
                err.println(
                        "qs lab moss: unknown series '" + s + "' (one of " + String.join(",", MossSeries.ALL) + ")");
                return 2;
            }
            names.add(u);
        }
        Path work = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("qs-moss");
        MossLab.Report r;
        try {
            r = MossLab.run(new MossLab.Options(names, objects, reps, pageSize, work, seed, create), line -> {
                err.println(line);
                err.flush();
            });
        } finally {
            if (dir == null) {
                try (Stream<Path> files = Files.list(work)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                }
                Files.deleteIfExists(work);
            }
        }
        if (json) {
            out.println(Json.object(jsonOf(r)));
        } else if (csv) {
            printCsv(out, r);
        } else {
            printTables(out, r);
        }
        out.flush();
        return 0;
    }

    /** The series a table of Moss's needs, or null if there is no such table. */
    static List<String> seriesFor(int table) {
        List<String> fitted = List.of("VS", "VB", "VH", "VN", "SI");
        return switch (table) {
            case 4, 5, 12, 13, 14, 15, 16, 17 -> fitted;
            case 18, 19, 20, 21 -> List.of("VS", "VB", "VH", "VN", "SI", "VV");
            case 6 -> List.of("BI", "II", "WS", "WB");
            case 7 -> List.of("VS", "VB");
            case 8, 9 -> List.of("VS", "VB", "VH", "VN");
            case 10 -> List.of("VH", "VN", "VB");
            case 11 -> List.of("SI");
            default -> null;
        };
    }

    /** The phase tables to print: those --tables names, or all. */
    private List<MossTables.Table> phaseTables(MossLab.Report r) {
        return MossTables.all(r).stream()
                .filter(t -> tables == null || tables.contains(Integer.valueOf(t.id())))
                .toList();
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }

    private static String ratio(double x) {
        return Double.isNaN(x) ? "-" : Double.isInfinite(x) ? "never" : f("%.2f", x);
    }

    private void printTables(PrintWriter out, MossLab.Report r) {
        out.println(f(
                "Moss (1992) on %s, %d cores, Java %s; largest collection %d objects, pages of %d bytes, %d reps"
                        + " (fastest of reps)",
                System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(),
                Runtime.version(),
                r.options().objects(),
                r.options().pageSize(),
                r.options().reps()));
        out.println();
        out.println("Runs: measured ms / model ms per scheme; xNS = measured time over NS's, same run");
        StringBuilder h = new StringBuilder(
                f("%-4s %-26s %8s %6s %6s %6s %4s %3s", "ser", "point", "n", "p", "i", "b", "u", "v"));
        for (Strategy s : Strategy.values()) {
            h.append(f(" %17s", s.name()));
        }
        for (Strategy s : Strategy.values()) {
            if (s != Strategy.NS) {
                h.append(f(" %5s", s.name()));
            }
        }
        out.println(h);
        for (MossLab.PointResult p : r.points()) {
            Measurement ns = p.schemes().get(Strategy.NS);
            double n = ns.objects();
            StringBuilder row = new StringBuilder(f(
                    "%-4s %-26s %8d %6.2f %6.2f %6.1f %4.2f %3d",
                    p.point().series(),
                    p.point().label(),
                    ns.objects(),
                    ns.slots() / n,
                    ns.initialized() / n,
                    ns.userBytes() / n,
                    ns.updated() / n,
                    p.point().work().visits()));
            for (Strategy s : Strategy.values()) {
                Measurement m = p.schemes().get(s);
                Double pred = p.predictedNs().get(s);
                row.append(f(" %8.2f/%8s", m.totalNs() / 1e6, pred == null ? "-" : f("%.2f", pred / 1e6)));
            }
            for (Strategy s : Strategy.values()) {
                if (s != Strategy.NS) {
                    row.append(f(" %5.2f", (double) p.schemes().get(s).totalNs() / ns.totalNs()));
                }
            }
            out.println(row);
        }
        out.println();
        printCreated(out, r);
        printWork(out, r);
        List<MossTables.Table> phase = phaseTables(r);
        for (MossTables.Table t : phase) {
            if (!Set.of("15", "16").contains(t.id())) {
                printTable(out, t);
            }
        }
        if (r.createParameters().isEmpty()
                && r.points().stream().anyMatch(p -> !p.created().isEmpty())) {
            out.println("create-work-save model not fitted: " + r.createFitProblem());
            out.println();
        }
        if (r.parameters().isEmpty()) {
            out.println("cost model not fitted: " + r.fitProblem());
            return;
        }
        out.println("Table 12 analogue: load-work-save parameters, ns (Moss's, microseconds on a DECstation 3100, in"
                + " brackets)");
        out.println(f(
                "%-4s %14s %14s %14s %14s %14s %14s %14s %14s %6s",
                "", "MB", "MO", "MS", "MI", "V", "UB", "UO", "US", "r2"));
        for (Strategy s : Strategy.values()) {
            CostModel.Parameters q = r.parameters().get(s);
            double[] paper = MossPaper.TABLE_12.get(s);
            double[] ours = {q.mb(), q.mo(), q.ms(), q.mi(), q.v(), q.ub(), q.uo(), q.us()};
            StringBuilder row = new StringBuilder(f("%-4s", s.name()));
            for (int j = 0; j < ours.length; j++) {
                row.append(f(" %7.2f [%4s]", ours[j], Double.isNaN(paper[j]) ? "-" : f("%.4s", paper[j])));
            }
            row.append(f(" %6.3f", q.r2()));
            out.println(row);
        }
        out.println();
        out.println("Table 5 analogue: traversal with no work, ns per visit, and ratio to the heap model (Moss: NPC)");
        out.println(f("%-5s %9s %7s %12s %7s", "", "ns", "/heap", "Moss us", "/NPC"));
        out.println(f("%-5s %9.2f %7.2f %12.2f %7.2f", "heap", r.heapVisitNs(), 1.0, MossPaper.TABLE_5_NPC, 1.0));
        for (Strategy s : Strategy.values()) {
            double v = r.parameters().get(s).v();
            double pv = MossPaper.TABLE_5.get(s);
            out.println(f(
                    "%-5s %9.2f %7.2f %12.2f %7.2f", s.name(), v, v / r.heapVisitNs(), pv, pv / MossPaper.TABLE_5_NPC));
        }
        out.println();
        out.println(
                "Table 14 analogue: lazy over eager (ratios; Moss: LCS/ECS 1.18 1.18 1.09, LIS/EIS 1.16 1.07 1.09)");
        out.println(f("%-12s %7s %7s %7s", "", "MB", "MO", "V"));
        for (Strategy[] pair : new Strategy[][] {{Strategy.LCS, Strategy.ECS}, {Strategy.LIS, Strategy.EIS}}) {
            CostModel.Parameters a = r.parameters().get(pair[0]);
            CostModel.Parameters b = r.parameters().get(pair[1]);
            out.println(f(
                    "%-12s %7s %7s %7s",
                    pair[0] + "/" + pair[1], ratio(a.mb() / b.mb()), ratio(a.mo() / b.mo()), ratio(a.v() / b.v())));
        }
        out.println();
        for (MossTables.Table t : phase) {
            if (Set.of("15", "16").contains(t.id())) {
                printTable(out, t);
            }
        }
        CostModel.Parameters ns = r.parameters().get(Strategy.NS);
        out.println("Table 17 analogue: limits of swizzling / no swizzling: worst (objects full of pointers) [Moss],"
                + " best (visits to infinity; Moss 0.74 lazy, 0.68 eager)");
        for (Strategy s : swizzling()) {
            CostModel.Parameters q = r.parameters().get(s);
            out.println(f(
                    "%-4s worst %6s [%.2f]  best %6s",
                    s.name(),
                    ratio(CostModel.worstCase(q, ns)),
                    MossPaper.TABLE_17.get(s),
                    ratio(CostModel.bestCase(q, ns))));
        }
        out.println();
        for (boolean varying : new boolean[] {false, true}) {
            out.println(f(
                    "Table %d analogue: visits to break even, %s number of pointers (v = c + a*b) [Moss's v]",
                    varying ? 19 : 18, varying ? "varying" : "fixed"));
            out.println(f("%-4s %8s %8s %16s %16s %16s %16s", "", "c", "a", "b=20", "b=40", "b=100", "b=200"));
            for (Strategy s : swizzling()) {
                CostModel.BreakEven be = CostModel.breakEven(r.parameters().get(s), ns, varying);
                double[] paper = (varying ? MossPaper.TABLE_19 : MossPaper.TABLE_18).get(s);
                StringBuilder row = new StringBuilder(f("%-4s %8s %8s", s.name(), ratio(be.c()), f("%.3f", be.a())));
                for (int j = 0; j < MossPaper.SIZES.length; j++) {
                    row.append(f(" %9s [%4s]", ratio(be.at(MossPaper.SIZES[j])), f("%.4s", paper[j])));
                }
                out.println(row);
            }
            out.println();
            out.println(f(
                    "Table %d analogue: swizzling / no swizzling for one visit, %s number of pointers [Moss]",
                    varying ? 21 : 20, varying ? "varying" : "fixed"));
            out.println(f("%-4s %16s %16s %16s %16s", "", "b=20", "b=40", "b=100", "b=200"));
            for (Strategy s : swizzling()) {
                double[] paper = (varying ? MossPaper.TABLE_21 : MossPaper.TABLE_20).get(s);
                StringBuilder row = new StringBuilder(f("%-4s", s.name()));
                for (int j = 0; j < MossPaper.SIZES.length; j++) {
                    double x = CostModel.ratioOneVisit(r.parameters().get(s), ns, MossPaper.SIZES[j], varying);
                    row.append(f(" %9s [%4s]", ratio(x), f("%.4s", paper[j])));
                }
                out.println(row);
            }
            out.println();
        }
        if (r.points().stream().anyMatch(p -> p.point().series().equals("VV"))) {
            out.println("Break-even visits on VV's typical object (b about 44): measured (first v where the scheme's"
                    + " session is no slower than NS's) and predicted by the fitted models");
            for (Strategy s : swizzling()) {
                out.println(f(
                        "%-4s measured %7s  predicted %7s",
                        s.name(),
                        ratio(MossAnalysis.measuredBreakEven(r, s)),
                        ratio(MossAnalysis.predictedBreakEven(r, s))));
            }
        }
    }

    /** The create-work-save runs: measured ms / Table 13 model ms per scheme, and the ratio to NS. */
    private static void printCreated(PrintWriter out, MossLab.Report r) {
        if (r.points().stream().allMatch(p -> p.created().isEmpty())) {
            return;
        }
        out.println("Create-work-save runs: measured ms / model ms per scheme (create, work, prepare, write); xNS ="
                + " measured time over NS's, same run");
        StringBuilder h =
                new StringBuilder(f("%-4s %-26s %8s %6s %6s %6s %3s", "ser", "point", "n", "p", "i", "b", "v"));
        for (Strategy s : Strategy.values()) {
            h.append(f(" %17s", s.name()));
        }
        for (Strategy s : Strategy.values()) {
            if (s != Strategy.NS) {
                h.append(f(" %5s", s.name()));
            }
        }
        out.println(h);
        for (MossLab.PointResult p : r.points()) {
            if (p.created().isEmpty()) {
                continue;
            }
            Measurement ns = p.created().get(Strategy.NS);
            double n = ns.objects();
            StringBuilder row = new StringBuilder(f(
                    "%-4s %-26s %8d %6.2f %6.2f %6.1f %3d",
                    p.point().series(),
                    p.point().label(),
                    ns.objects(),
                    ns.slots() / n,
                    ns.initialized() / n,
                    ns.userBytes() / n,
                    p.point().work().visits()));
            for (Strategy s : Strategy.values()) {
                Double pred = p.createdPredictedNs().get(s);
                row.append(f(
                        " %8.2f/%8s", p.created().get(s).totalNs() / 1e6, pred == null ? "-" : f("%.2f", pred / 1e6)));
            }
            for (Strategy s : Strategy.values()) {
                if (s != Strategy.NS) {
                    row.append(f(" %5.2f", (double) p.created().get(s).totalNs() / ns.totalNs()));
                }
            }
            out.println(row);
        }
        out.println();
    }

    /** A number of a phase table: NaN as "-", r2 with four decimals, the others by magnitude. */
    private static String cell(double x, String column) {
        if (Double.isNaN(x)) {
            return "-";
        }
        if (Double.isInfinite(x)) {
            return "inf";
        }
        if (column.equals("r2")) {
            return f("%.4f", x);
        }
        double a = Math.abs(x);
        return a >= 100 ? f("%.0f", x) : a >= 10 ? f("%.1f", x) : a >= 1 ? f("%.2f", x) : f("%.3f", x);
    }

    /** One of {@link MossTables}: ours, Moss's in brackets. */
    private static void printTable(PrintWriter out, MossTables.Table t) {
        out.println(t.title());
        StringBuilder h = new StringBuilder(f("%-20s", ""));
        for (String c : t.columns()) {
            h.append(f(" %17s", c));
        }
        out.println(h);
        for (MossTables.Row row : t.rows()) {
            StringBuilder line = new StringBuilder(f("%-20s", row.label()));
            for (int j = 0; j < t.columns().size(); j++) {
                String c = t.columns().get(j);
                line.append(f(" %8s [%6s]", cell(row.ours()[j], c), cell(row.moss()[j], c)));
            }
            out.println(line);
        }
        out.println();
    }

    private static void printWork(PrintWriter out, MossLab.Report r) {
        String[][] work = {{"WS", "slot read"}, {"WB", "byte read"}, {"BI", "byte read"}, {"II", "int read"}};
        boolean any = false;
        for (String[] w : work) {
            any |= r.points().stream().anyMatch(p -> p.point().series().equals(w[0]));
        }
        if (!any) {
            return;
        }
        out.println(f(
                "Table 6 analogue: ns per item read at a visit (Moss: slot %.2f, byte %.2f, int %.2f us, every"
                        + " scheme)",
                MossPaper.SLOT_READ, MossPaper.BYTE_READ, MossPaper.INT_READ));
        StringBuilder h = new StringBuilder(f("%-14s %7s", "", "heap"));
        for (Strategy s : Strategy.values()) {
            h.append(f(" %7s", s.name()));
        }
        out.println(h);
        for (String[] w : work) {
            if (r.points().stream().noneMatch(p -> p.point().series().equals(w[0]))) {
                continue;
            }
            StringBuilder row =
                    new StringBuilder(f("%-14s %7.3f", w[0] + " " + w[1], MossAnalysis.perItemNs(r, w[0], null)));
            for (Strategy s : Strategy.values()) {
                row.append(f(" %7.3f", MossAnalysis.perItemNs(r, w[0], s)));
            }
            out.println(row);
        }
        out.println();
    }

    private static List<Strategy> swizzling() {
        return List.of(Strategy.LCS, Strategy.LIS, Strategy.ECS, Strategy.EIS);
    }

    private void printCsv(PrintWriter out, MossLab.Report r) {
        out.println("series,point,scheme,objects,slots,initialized,user_bytes,visits,updated,load_ns,first_ns,rest_ns,"
                + "save_ns,total_ns,predicted_ns,ratio_to_ns,pages_read,pages_written,session,prepare_ns");
        for (MossLab.PointResult p : r.points()) {
            csvRuns(out, p, p.schemes(), p.predictedNs(), "lws");
            if (!p.created().isEmpty()) {
                csvRuns(out, p, p.created(), p.createdPredictedNs(), "cws");
            }
        }
        out.println();
        out.println("table,row,column,ours,moss");
        for (MossTables.Table t : phaseTables(r)) {
            for (MossTables.Row row : t.rows()) {
                for (int j = 0; j < t.columns().size(); j++) {
                    out.println(String.join(
                            ",",
                            t.id(),
                            "\"" + row.label() + "\"",
                            "\"" + t.columns().get(j) + "\"",
                            csvNumber(row.ours()[j]),
                            csvNumber(row.moss()[j])));
                }
            }
        }
    }

    private static String csvNumber(double x) {
        return Double.isFinite(x) ? f("%.6g", x) : "";
    }

    private static void csvRuns(
            PrintWriter out,
            MossLab.PointResult p,
            Map<Strategy, Measurement> ms,
            Map<Strategy, Double> predicted,
            String session) {
        long ns = ms.get(Strategy.NS).totalNs();
        for (Strategy s : Strategy.values()) {
            Measurement m = ms.get(s);
            Double pred = predicted.get(s);
            out.println(String.join(
                    ",",
                    p.point().series(),
                    "\"" + p.point().label() + "\"",
                    s.name(),
                    "" + m.objects(),
                    "" + m.slots(),
                    "" + m.initialized(),
                    "" + m.userBytes(),
                    "" + m.visits(),
                    "" + m.updated(),
                    "" + m.loadNs(),
                    "" + m.firstNs(),
                    "" + m.restNs(),
                    "" + m.saveNs(),
                    "" + m.totalNs(),
                    pred == null ? "" : f("%.0f", pred),
                    f("%.4f", (double) m.totalNs() / ns),
                    "" + m.pagesRead(),
                    "" + m.pagesWritten(),
                    session,
                    "" + m.prepareNs()));
        }
    }

    private Map<String, Object> jsonOf(MossLab.Report r) {
        Map<String, Object> j = new LinkedHashMap<>();
        j.put("paper", "Moss 1992, Working with persistent objects: to swizzle or not to swizzle");
        j.put("objects", r.options().objects());
        j.put("reps", r.options().reps());
        j.put("pageSize", r.options().pageSize());
        j.put("series", r.options().series());
        j.put("java", Runtime.version().toString());
        j.put("cores", Runtime.getRuntime().availableProcessors());
        List<Map<String, Object>> runs = new ArrayList<>();
        for (MossLab.PointResult p : r.points()) {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("series", p.point().series());
            run.put("point", p.point().label());
            run.put("shape", p.point().shape());
            run.put("workload", p.point().work());
            run.put("workPerVisitNs", p.workPerVisitNs());
            run.put("heap", p.heap());
            Map<String, Object> schemes = new LinkedHashMap<>();
            for (Strategy s : Strategy.values()) {
                Map<String, Object> m =
                        new LinkedHashMap<>(Json.MAPPER.convertValue(p.schemes().get(s), Json.MAP));
                m.put("totalNs", p.schemes().get(s).totalNs());
                m.put("predictedNs", p.predictedNs().get(s));
                schemes.put(s.name(), m);
            }
            run.put("schemes", schemes);
            if (!p.created().isEmpty()) {
                Map<String, Object> created = new LinkedHashMap<>();
                for (Strategy s : Strategy.values()) {
                    Map<String, Object> m = new LinkedHashMap<>(
                            Json.MAPPER.convertValue(p.created().get(s), Json.MAP));
                    m.put("totalNs", p.created().get(s).totalNs());
                    m.put("predictedNs", p.createdPredictedNs().get(s));
                    created.put(s.name(), m);
                }
                run.put("created", created);
            }
            runs.add(run);
        }
        j.put("runs", runs);
        j.put("heapVisitNs", r.heapVisitNs());
        List<Map<String, Object>> tables = new ArrayList<>();
        for (MossTables.Table t : phaseTables(r)) {
            Map<String, Object> tj = new LinkedHashMap<>();
            tj.put("table", t.id());
            tj.put("title", t.title());
            tj.put("columns", t.columns());
            List<Map<String, Object>> rows = new ArrayList<>();
            for (MossTables.Row row : t.rows()) {
                Map<String, Object> rj = new LinkedHashMap<>();
                rj.put("row", row.label());
                rj.put("ours", finite(row.ours()));
                rj.put("moss", finite(row.moss()));
                rows.add(rj);
            }
            tj.put("rows", rows);
            tables.add(tj);
        }
        j.put("tables", tables);
        if (r.createParameters().isEmpty()) {
            j.put("createFitProblem", r.createFitProblem());
        } else {
            Map<String, Object> cp = new LinkedHashMap<>();
            r.createParameters().forEach((s, q) -> cp.put(s.name(), q));
            j.put("createParameters", cp);
        }
        if (r.parameters().isEmpty()) {
            j.put("fitProblem", r.fitProblem());
            return j;
        }
        Map<String, Object> params = new LinkedHashMap<>();
        r.parameters().forEach((s, q) -> params.put(s.name(), q));
        j.put("parameters", params);
        CostModel.Parameters ns = r.parameters().get(Strategy.NS);
        Map<String, Object> derived = new LinkedHashMap<>();
        for (Strategy s : swizzling()) {
            CostModel.Parameters q = r.parameters().get(s);
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("worstCase", finite(CostModel.worstCase(q, ns)));
            d.put("bestCase", finite(CostModel.bestCase(q, ns)));
            d.put("breakEvenFixed", CostModel.breakEven(q, ns, false));
            d.put("breakEvenVarying", CostModel.breakEven(q, ns, true));
            List<Double> r20 = new ArrayList<>();
            List<Double> r21 = new ArrayList<>();
            for (double b : MossPaper.SIZES) {
                r20.add(CostModel.ratioOneVisit(q, ns, b, false));
                r21.add(CostModel.ratioOneVisit(q, ns, b, true));
            }
            d.put("ratioOneVisitFixed", r20);
            d.put("ratioOneVisitVarying", r21);
            d.put("measuredBreakEvenVV", finite(MossAnalysis.measuredBreakEven(r, s)));
            d.put("predictedBreakEvenVV", finite(MossAnalysis.predictedBreakEven(r, s)));
            derived.put(s.name(), d);
        }
        j.put("derived", derived);
        return j;
    }

    private static List<Double> finite(double[] xs) {
        List<Double> out = new ArrayList<>();
        for (double x : xs) {
            out.add(finite(x));
        }
        return out;
    }

    /** JSON has no infinity or NaN: null for them. */
    private static Double finite(double x) {
        return Double.isFinite(x) ? x : null;
    }
}
