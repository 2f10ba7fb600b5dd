package dev.quickstore.cli.lab;

import dev.quickstore.lab.swizzle.CostModel;
import dev.quickstore.lab.swizzle.Measurement;
import dev.quickstore.lab.swizzle.MossAnalysis;
import dev.quickstore.lab.swizzle.MossLab;
import dev.quickstore.lab.swizzle.MossPaper;
import dev.quickstore.lab.swizzle.MossTables;
import dev.quickstore.lab.swizzle.Strategy;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code qs lab moss}'s text output: the runs measured and predicted, the fitted parameters beside Moss's Table 12, the
 * break-even and ratio tables and the phase tables ({@link MossTables}) beside his numbers.
 */
final class MossTextReport {
    private final MossLab.Report r;
    private final List<MossTables.Table> phase;

    /** @param phase the phase tables to include (those {@code --tables} names, or all) */
    MossTextReport(MossLab.Report r, List<MossTables.Table> phase) {
        this.r = r;
        this.phase = phase;
    }

    static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }

    private static String ratio(double x) {
        return Double.isNaN(x) ? "-" : Double.isInfinite(x) ? "never" : f("%.2f", x);
    }

    void print(PrintWriter out) {
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
        printRuns(out, r, false);
        out.println();
        printCreated(out, r);
        printWork(out, r);
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
        printRuns(out, r, true);
        out.println();
    }

    /**
     * One line per point: its counts per object, then measured / predicted ms per scheme and the ratio to NS; the
     * load-work-save runs (with the updated fraction u) or the create-work-save runs of the points that have them.
     */
    private static void printRuns(PrintWriter out, MossLab.Report r, boolean created) {
        StringBuilder h = new StringBuilder(f("%-4s %-26s %8s %6s %6s %6s", "ser", "point", "n", "p", "i", "b"));
        h.append(created ? f(" %3s", "v") : f(" %4s %3s", "u", "v"));
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
            Map<Strategy, Measurement> runs = created ? p.created() : p.schemes();
            if (runs.isEmpty()) {
                continue;
            }
            Map<Strategy, Double> predicted = created ? p.createdPredictedNs() : p.predictedNs();
            Measurement ns = runs.get(Strategy.NS);
            double n = ns.objects();
            StringBuilder row = new StringBuilder(f(
                    "%-4s %-26s %8d %6.2f %6.2f %6.1f",
                    p.point().series(),
                    p.point().label(),
                    ns.objects(),
                    ns.slots() / n,
                    ns.initialized() / n,
                    ns.userBytes() / n));
            row.append(
                    created
                            ? f(" %3d", p.point().work().visits())
                            : f(" %4.2f %3d", ns.updated() / n, p.point().work().visits()));
            for (Strategy s : Strategy.values()) {
                Double pred = predicted.get(s);
                row.append(f(" %8.2f/%8s", runs.get(s).totalNs() / 1e6, pred == null ? "-" : f("%.2f", pred / 1e6)));
            }
            for (Strategy s : Strategy.values()) {
                if (s != Strategy.NS) {
                    row.append(f(" %5.2f", (double) runs.get(s).totalNs() / ns.totalNs()));
                }
            }
            out.println(row);
        }
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

    static List<Strategy> swizzling() {
        return List.of(Strategy.LCS, Strategy.LIS, Strategy.ECS, Strategy.EIS);
    }
}
