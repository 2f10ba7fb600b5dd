package dev.quickstore.cli.lab;

import dev.quickstore.cli.Json;
import dev.quickstore.lab.swizzle.CostModel;
import dev.quickstore.lab.swizzle.Measurement;
import dev.quickstore.lab.swizzle.MossAnalysis;
import dev.quickstore.lab.swizzle.MossLab;
import dev.quickstore.lab.swizzle.MossPaper;
import dev.quickstore.lab.swizzle.MossTables;
import dev.quickstore.lab.swizzle.Strategy;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code qs lab moss --csv} (one line per run, session and scheme, then one per table cell) and {@code --json} (runs,
 * parameters, every table): the same report as {@link MossTextReport}, for programs.
 */
final class MossRecords {
    private final MossLab.Report r;
    private final List<MossTables.Table> phase;

    /** @param phase the phase tables to include (those {@code --tables} names, or all) */
    MossRecords(MossLab.Report r, List<MossTables.Table> phase) {
        this.r = r;
        this.phase = phase;
    }

    void csv(PrintWriter out) {
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
        for (MossTables.Table t : phase) {
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
        return Double.isFinite(x) ? MossTextReport.f("%.6g", x) : "";
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
                    pred == null ? "" : MossTextReport.f("%.0f", pred),
                    MossTextReport.f("%.4f", (double) m.totalNs() / ns),
                    "" + m.pagesRead(),
                    "" + m.pagesWritten(),
                    session,
                    "" + m.prepareNs()));
        }
    }

    Map<String, Object> json() {
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
        for (MossTables.Table t : phase) {
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
        for (Strategy s : MossTextReport.swizzling()) {
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
