package dev.quickstore.lab.swizzle;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Moss's phase breakdowns and parameter differences (Moss 1992, sections 5.4 and 6.2-6.3) from one {@link
 * MossLab.Report}, each a {@link Table} of this run's numbers beside the paper's: Table 4 (creation and
 * initialization, from the create phase of the create-work-save runs), Table 7 (eager loading: the load phase of EIS
 * and ECS on VS and VB), Table 8 (lazy loading: load phase plus the first traversal of LIS and LCS on VS and VB, of NS
 * on VH and VN; and the eager schemes plus one traversal), Table 9 (expected load time per object by object size from
 * Table 8's rows, and the ratio to NS), Table 10 (preparing new, old and modified objects: the prepare part of the
 * save phase on VH, VN and VB), Table 11 (prepare cost per initialized slot on SI), Table 13 (create-work-save
 * parameters), Table 15 (copy minus in-place parameters) and Table 16 (swizzling minus non-swizzling).
 *
 * <p>Every phase fit is a least-squares regression of the phase's time per object on the measured per-object counts
 * (1 for the per-object cost, p, b, i), as {@link CostModel#fit} regresses whole sessions: each run weighs alike
 * whatever its size. Moss regressed total times ("elapsed time versus number of user bytes and number of objects");
 * the coefficients are the same model, the weighting and so r^2 and F differ. Ours are ns, Moss's microseconds.
 */
public final class MossTables {
    private MossTables() {}

    /** A row: this run's values and Moss's (NaN where there is none), in the table's columns. */
    public record Row(String label, double[] ours, double[] moss) {}

    /** One table: Moss's number ({@code id}), a title naming the data and units, the columns, the rows. */
    public record Table(String id, String title, List<String> columns, List<Row> rows) {}

    /** The per-object terms a phase is regressed on. */
    enum Term {
        /** 1: the per-object cost. */
        OBJECT,
        /** p: slots per object. */
        SLOT,
        /** b: user bytes per object. */
        BYTE,
        /** i: initialized slots per object. */
        INITIALIZED
    }

    /** A phase fit: coefficients in the order of its terms, r^2, F, and the runs it used. */
    public record PhaseFit(double[] coefficients, double r2, double f, int runs) {}

    /**
     * Regresses {@code phase(m) / n} on the {@code terms} over {@code runs}; null with no more runs than terms (the
     * fit would be undetermined).
     */
    static PhaseFit fitPhase(List<Measurement> runs, ToLongFunction<Measurement> phase, Term... terms) {
        if (runs.size() <= terms.length) {
            return null;
        }
        double[][] x = new double[runs.size()][terms.length];
        double[] y = new double[runs.size()];
        for (int r = 0; r < runs.size(); r++) {
            Measurement m = runs.get(r);
            double n = Math.max(1, m.objects());
            for (int j = 0; j < terms.length; j++) {
                x[r][j] = switch (terms[j]) {
                    case OBJECT -> 1;
                    case SLOT -> m.slots() / n;
                    case BYTE -> m.userBytes() / n;
                    case INITIALIZED -> m.initialized() / n;
                };
            }
            y[r] = phase.applyAsLong(m) / n;
        }
        try {
            LinearFit.Result f = LinearFit.fit(x, y);
            return new PhaseFit(f.coefficients(), f.r2(), f.f(), runs.size());
        } catch (IllegalArgumentException e) {
            return null; // the runs do not determine a term (e.g. a series left out)
        }
    }

    static Predicate<MossLab.PointResult> series(String... names) {
        Set<String> s = Set.of(names);
        return p -> s.contains(p.point().series());
    }

    static Predicate<MossLab.PointResult> updated(double u) {
        return p -> p.point().work().updateFraction() == u;
    }

    static final Predicate<MossLab.PointResult> CREATED = p -> !p.created().isEmpty();

    static List<Measurement> select(
            MossLab.Report r, Predicate<MossLab.PointResult> which, Function<MossLab.PointResult, Measurement> what) {
        List<Measurement> out = new ArrayList<>();
        for (MossLab.PointResult p : r.points()) {
            if (which.test(p)) {
                out.add(what.apply(p));
            }
        }
        return out;
    }

    static Function<MossLab.PointResult, Measurement> loaded(Strategy s) {
        return p -> p.schemes().get(s);
    }

    static Function<MossLab.PointResult, Measurement> created(Strategy s) {
        return p -> p.created().get(s);
    }

    private static double[] nan(int k) {
        double[] d = new double[k];
        Arrays.fill(d, Double.NaN);
        return d;
    }

    /** The fit's coefficients followed by r^2 and F (NaN without a fit). */
    private static double[] withStats(PhaseFit f, int terms) {
        double[] d = nan(terms + 2);
        if (f != null) {
            System.arraycopy(f.coefficients(), 0, d, 0, terms);
            d[terms] = f.r2();
            d[terms + 1] = f.f();
        }
        return d;
    }

    /** Every table this report can give, in the paper's order (a table without data is left out). */
    public static List<Table> all(MossLab.Report r) {
        List<Table> out = new ArrayList<>();
        for (Table t : List.of(
                table4(r),
                table7(r),
                table8(r),
                table9(r),
                table10(r),
                table11(r),
                table13(r),
                table15(r),
                table16(r))) {
            boolean any =
                    t.rows().stream().anyMatch(row -> Arrays.stream(row.ours()).anyMatch(Double::isFinite));
            if (any) {
                out.add(t);
            }
        }
        return out;
    }

    /** Table 4: the create phase per object, per slot, per byte, per initialized slot; and the heap model's build. */
    static Table table4(MossLab.Report r) {
        record Source(String label, Function<MossLab.PointResult, Measurement> what, String moss) {}
        List<Source> sources = List.of(
                new Source("NS", created(Strategy.NS), "NS"),
                new Source("IS (EIS)", created(Strategy.EIS), "IS/CS"),
                new Source("CS (ECS)", created(Strategy.ECS), "IS/CS"),
                new Source("heap", MossLab.PointResult::heap, "NPC"));
        List<Row> out = new ArrayList<>();
        for (Source row : sources) {
            PhaseFit f = fitPhase(
                    select(r, CREATED, row.what()),
                    Measurement::loadNs,
                    Term.OBJECT,
                    Term.SLOT,
                    Term.BYTE,
                    Term.INITIALIZED);
            double[] ours = nan(5);
            if (f != null) {
                System.arraycopy(f.coefficients(), 0, ours, 0, 4);
                ours[4] = f.r2();
            }
            double[] p = MossPaper.TABLE_4.get(row.moss());
            out.add(new Row(row.label(), ours, new double[] {p[0], p[1], p[2], Double.NaN, Double.NaN}));
        }
        return new Table(
                "4",
                "Table 4 analogue: creation and initialization (create phase of the create-work-save runs of VS, VB, VH,"
                        + " VN, SI; the heap model's build is Moss's NPC), ns [Moss: us; his 4th column is per"
                        + " integer: NS .401, IS/CS .399, NPC .385]",
                List.of("per object", "per slot", "per byte", "per init slot", "r2"),
                out);
    }

    /** Table 7: the eager schemes' load phase on VS and VB, per byte and per object. */
    static Table table7(MossLab.Report r) {
        List<Row> out = new ArrayList<>();
        for (Strategy s : new Strategy[] {Strategy.ECS, Strategy.EIS}) {
            PhaseFit f = fitPhase(eagerRuns(r, s), Measurement::loadNs, Term.BYTE, Term.OBJECT);
            out.add(new Row(s.name(), withStats(f, 2), MossPaper.TABLE_7.get(s == Strategy.ECS ? "CS" : "IS")));
        }
        return new Table(
                "7",
                "Table 7 analogue: eager loading and swizzling (load phase of ECS, EIS on VS and VB), ns [Moss: us,"
                        + " measured rows]",
                List.of("per byte", "per object", "r2", "F"),
                out);
    }

    private static List<Measurement> eagerRuns(MossLab.Report r, Strategy s) {
        return select(r, series("VS", "VB"), loaded(s));
    }

    /** Per byte and per object load cost of a scheme as Table 8 gives it (lazy: with the first traversal). */
    static double[] loading(MossLab.Report r, Strategy s) {
        if (s == Strategy.ECS || s == Strategy.EIS) {
            PhaseFit f = fitPhase(eagerRuns(r, s), Measurement::loadNs, Term.BYTE, Term.OBJECT);
            double v = MossLab.medianV(r.points(), s, false);
            return f == null
                    ? nan(4)
                    : new double[] {f.coefficients()[0], f.coefficients()[1] + v, Double.NaN, Double.NaN};
        }
        Predicate<MossLab.PointResult> which = s == Strategy.NS ? series("VH", "VN") : series("VS", "VB");
        PhaseFit f = fitPhase(
                select(r, which.and(updated(0)), loaded(s)), m -> m.loadNs() + m.firstNs(), Term.BYTE, Term.OBJECT);
        return withStats(f, 2);
    }

    /** Table 8: lazy loading (load phase and first traversal), with the eager schemes plus one traversal. */
    static Table table8(MossLab.Report r) {
        List<Row> out = new ArrayList<>();
        for (Strategy s : new Strategy[] {Strategy.LCS, Strategy.LIS, Strategy.NS, Strategy.ECS, Strategy.EIS}) {
            boolean eager = s == Strategy.ECS || s == Strategy.EIS;
            out.add(new Row(eager ? s + " + traversal" : s.name(), loading(r, s), MossPaper.TABLE_8.get(s.name())));
        }
        return new Table(
                "8",
                "Table 8 analogue: lazy loading (load phase and first traversal, u = 0: LCS, LIS on VS and VB, NS on"
                        + " VH and VN) and eager loading plus one no-work traversal (Table 7 + V), ns [Moss: us]",
                List.of("per byte", "per object", "r2", "F"),
                out);
    }

    /** Table 9: Table 8's load time per object at Moss's sizes, and the ratio to NS in percent (also as b grows). */
    static Table table9(MossLab.Report r) {
        double[] sizes = MossPaper.TABLE_9_SIZES;
        double[] ns = loading(r, Strategy.NS);
        List<Row> out = new ArrayList<>();
        for (Strategy s : new Strategy[] {Strategy.LCS, Strategy.LIS, Strategy.ECS, Strategy.EIS, Strategy.NS}) {
            double[] l = loading(r, s);
            double[] ours = nan(2 * sizes.length + 1);
            for (int j = 0; j < sizes.length; j++) {
                ours[j] = l[0] * sizes[j] + l[1];
                if (s != Strategy.NS) {
                    ours[sizes.length + j] = 100 * ours[j] / (ns[0] * sizes[j] + ns[1]);
                }
            }
            if (s != Strategy.NS) {
                ours[2 * sizes.length] = 100 * l[0] / ns[0];
            }
            out.add(new Row(s.name(), ours, MossPaper.TABLE_9.get(s)));
        }
        List<String> cols = new ArrayList<>();
        for (double b : sizes) {
            cols.add(String.format(java.util.Locale.ROOT, "b=%.0f", b));
        }
        for (double b : sizes) {
            cols.add(String.format(java.util.Locale.ROOT, "%%NS b=%.0f", b));
        }
        cols.add("%NS b=inf");
        return new Table(
                "9",
                "Table 9 analogue: expected loading time per object (Table 8's rows; b = 8 is below our smallest"
                        + " object, 2 slots of 8 bytes: extrapolated), ns, and the ratio to NS in percent [Moss: us, %]",
                cols,
                out);
    }

    /** Table 10: the prepare part of the save phase on VH, VN and VB, new, old and modified objects. */
    static Table table10(MossLab.Report r) {
        Predicate<MossLab.PointResult> vhnb = series("VH", "VN", "VB");
        List<Row> out = new ArrayList<>();
        for (String kind : new String[] {"new", "old", "modified"}) {
            for (Strategy s : new Strategy[] {Strategy.ECS, Strategy.EIS}) {
                List<Measurement> runs = switch (kind) {
                    case "new" -> select(r, vhnb.and(CREATED), created(s));
                    case "old" -> select(r, vhnb.and(updated(0)), loaded(s));
                    default -> select(r, vhnb.and(updated(1)), loaded(s));
                };
                PhaseFit f = fitPhase(runs, Measurement::prepareNs, Term.OBJECT, Term.SLOT, Term.BYTE);
                String moss = (s == Strategy.ECS ? "CS-" : "IS-") + kind;
                out.add(new Row(moss + " (" + s + ")", withStats(f, 3), MossPaper.TABLE_10.get(moss)));
            }
        }
        return new Table(
                "10",
                "Table 10 analogue: preparing (prepare part of the save phase of ECS, EIS on VH, VN, VB; new = the"
                        + " create-work-save runs, old = u 0, modified = u 1), ns [Moss: us]",
                List.of("per object", "per slot", "per byte", "r2", "F"),
                out);
    }

    /** Table 11: preparing per initialized slot on SI (slope over i), new, old and modified. */
    static Table table11(MossLab.Report r) {
        Predicate<MossLab.PointResult> si = series("SI");
        List<Row> out = new ArrayList<>();
        for (Strategy s : new Strategy[] {Strategy.ECS, Strategy.EIS}) {
            List<List<Measurement>> kinds = List.of(
                    select(r, si.and(CREATED), created(s)),
                    select(r, si.and(updated(0)), loaded(s)),
                    select(r, si.and(updated(1)), loaded(s)));
            double[] ours = nan(3);
            for (int j = 0; j < 3; j++) {
                PhaseFit f = fitPhase(kinds.get(j), Measurement::prepareNs, Term.OBJECT, Term.INITIALIZED);
                ours[j] = f == null ? Double.NaN : f.coefficients()[1];
            }
            String moss = s == Strategy.ECS ? "CS" : "IS";
            out.add(new Row(moss + " (" + s + ")", ours, MossPaper.TABLE_11.get(moss)));
        }
        return new Table(
                "11",
                "Table 11 analogue: prepare cost per initialized slot (SI: slope of the prepare time per object over"
                        + " i), ns [Moss: us]",
                List.of("new", "old", "modified"),
                out);
    }

    /** Table 13: the create-work-save parameters. */
    static Table table13(MossLab.Report r) {
        List<Row> out = new ArrayList<>();
        for (Strategy s : new Strategy[] {Strategy.LCS, Strategy.LIS, Strategy.ECS, Strategy.EIS, Strategy.NS}) {
            CostModel.CreateParameters q = r.createParameters().get(s);
            double[] ours = q == null ? nan(6) : new double[] {q.pb(), q.po(), q.ps(), q.pi(), q.v(), q.r2()};
            double[] p = MossPaper.TABLE_13.get(s);
            out.add(new Row(s.name(), ours, new double[] {p[0], p[1], p[2], p[3], p[4], Double.NaN}));
        }
        return new Table(
                "13",
                "Table 13 analogue: create-work-save parameters (CWS = PB*nb + PO*n + PS*np + PI*ni + V*nv + nvw,"
                        + " fitted per object on the create-work-save runs; V measured on them), ns [Moss: us]",
                List.of("PB", "PO", "PS", "PI", "V", "r2"),
                out);
    }

    private static double[] lws(CostModel.Parameters q) {
        return new double[] {q.mb(), q.mo(), q.ms(), q.mi(), q.v(), q.ub(), q.uo(), q.us()};
    }

    /** Table 15: copy minus in-place parameters; ours beside Moss's projected rows, his "now" rows below. */
    static Table table15(MossLab.Report r) {
        Map<Strategy, CostModel.Parameters> p = r.parameters();
        List<Row> out = new ArrayList<>();
        int[] cols = {0, 1, 2, 3, 5, 6, 7}; // MB MO MS MI UB UO US (no V: Table 14)
        for (Strategy[] pair : new Strategy[][] {{Strategy.LCS, Strategy.LIS}, {Strategy.ECS, Strategy.EIS}}) {
            String name = pair[0] + "-" + pair[1];
            double[] ours = nan(cols.length);
            if (p.containsKey(pair[0]) && p.containsKey(pair[1])) {
                double[] c = lws(p.get(pair[0]));
                double[] i = lws(p.get(pair[1]));
                for (int j = 0; j < cols.length; j++) {
                    ours[j] = c[cols[j]] - i[cols[j]];
                }
            }
            out.add(new Row(name, ours, Arrays.copyOf(MossPaper.TABLE_15.get(name + " projected"), cols.length)));
            out.add(new Row(
                    "  Moss now", nan(cols.length), Arrays.copyOf(MossPaper.TABLE_15.get(name + " now"), cols.length)));
        }
        return new Table(
                "15",
                "Table 15 analogue: copy minus in-place swizzling parameters (Table 12), ns; our copy swizzling already"
                        + " saves only modified objects, found by iterating its table: it is Moss's projected scheme,"
                        + " whose row is in brackets; his current one (unswizzling by traversal) below [Moss: us;"
                        + " his UI, projected 1.80, is not in our model]",
                List.of("MB", "MO", "MS", "MI", "UB", "UO", "US"),
                out);
    }

    /** Table 16: each swizzling scheme minus no swizzling, beside Moss's rows for the same setting. */
    static Table table16(MossLab.Report r) {
        Map<Strategy, CostModel.Parameters> p = r.parameters();
        List<Row> out = new ArrayList<>();
        String[][] rows = {{"LCS", "LCSP"}, {"LIS", "LIS8"}, {"ECS", "ECSP"}, {"EIS", "EIS8"}};
        for (String[] row : rows) {
            Strategy s = Strategy.valueOf(row[0]);
            double[] ours = nan(8);
            if (p.containsKey(s) && p.containsKey(Strategy.NS)) {
                double[] a = lws(p.get(s));
                double[] n = lws(p.get(Strategy.NS));
                for (int j = 0; j < 8; j++) {
                    ours[j] = a[j] - n[j];
                }
            }
            out.add(new Row(row[0] + " [" + row[1] + "]", ours, Arrays.copyOf(MossPaper.TABLE_16.get(row[1]), 8)));
        }
        return new Table(
                "16",
                "Table 16 analogue: swizzling minus non-swizzling parameters (load-work-save), ns [Moss: us, the rows"
                        + " of our setting: LCSP/ECSP save only modified objects as ours do, LIS8/EIS8 have no extra"
                        + " in-place header bytes, as ours have none]",
                List.of("MB", "MO", "MS", "MI", "V", "UB", "UO", "US"),
                out);
    }
}
