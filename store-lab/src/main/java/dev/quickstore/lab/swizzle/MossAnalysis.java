package dev.quickstore.lab.swizzle;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Readings of a {@link MossLab.Report} beyond the fitted parameters: Table 6's per-item work costs (slope of the
 * per-visit time over the items read per visit) and the break-even visits of the VV series, measured (where the
 * scheme's session time first drops to no swizzling's) and predicted by the fitted models.
 */
public final class MossAnalysis {
    private MossAnalysis() {}

    /** Items the workload reads per visit, averaged over the tree's objects. */
    static double itemsPerVisit(MossSeries.Point p) {
        TreeShape s = p.shape();
        int k = p.work().items();
        return switch (p.work().work()) {
            case NONE -> 0;
            case READ_SLOTS ->
                (s.inner() * Math.min(k, s.innerSlots()) + s.leaves() * Math.min(k, s.leafSlots()))
                        / (double) s.objects();
            case READ_BYTES ->
                (s.inner() * Math.min(k, s.innerBytes()) + s.leaves() * Math.min(k, s.leafBytes()))
                        / (double) s.objects();
            case READ_INTS ->
                (s.inner() * Math.min(k, s.innerBytes() / 4) + s.leaves() * Math.min(k, s.leafBytes() / 4))
                        / (double) s.objects();
        };
    }

    /**
     * The per-item cost in ns of a work series (WS, WB, BI, II) for a scheme (null: the heap model): slope of a
     * least-squares line of per-visit time over items per visit; NaN without two points.
     */
    public static double perItemNs(MossLab.Report r, String series, Strategy s) {
        List<double[]> xy = new ArrayList<>();
        for (MossLab.PointResult p : r.points()) {
            if (p.point().series().equals(series)) {
                Measurement m = s == null ? p.heap() : p.schemes().get(s);
                xy.add(new double[] {itemsPerVisit(p.point()), m.restPerVisitNs()});
            }
        }
        if (xy.size() < 2) {
            return Double.NaN;
        }
        double[][] x = new double[xy.size()][];
        double[] y = new double[xy.size()];
        for (int i = 0; i < xy.size(); i++) {
            x[i] = new double[] {1, xy.get(i)[0]};
            y[i] = xy.get(i)[1];
        }
        return LinearFit.fit(x, y).coefficients()[1];
    }

    /** VV's points in order of visits. */
    static List<MossLab.PointResult> visitSeries(MossLab.Report r) {
        List<MossLab.PointResult> vv = new ArrayList<>();
        for (MossLab.PointResult p : r.points()) {
            if (p.point().series().equals("VV")) {
                vv.add(p);
            }
        }
        vv.sort(Comparator.comparingInt(p -> p.point().work().visits()));
        return vv;
    }

    /**
     * The visits at which the scheme's measured session time first reaches no swizzling's (interpolated between
     * VV's points); 0 when it is already at or below at the first point, +infinity when never; NaN without VV.
     */
    public static double measuredBreakEven(MossLab.Report r, Strategy s) {
        List<MossLab.PointResult> vv = visitSeries(r);
        if (vv.isEmpty()) {
            return Double.NaN;
        }
        double prevV = 0;
        double prevD = Double.NaN;
        for (MossLab.PointResult p : vv) {
            double v = p.point().work().visits();
            double d =
                    p.schemes().get(s).totalNs() - p.schemes().get(Strategy.NS).totalNs();
            if (d <= 0) {
                if (Double.isNaN(prevD)) {
                    return 0;
                }
                return prevV + (v - prevV) * prevD / (prevD - d);
            }
            prevV = v;
            prevD = d;
        }
        return Double.POSITIVE_INFINITY;
    }

    /** The visits at which the fitted models of the scheme and of no swizzling predict equal times on VV's shape. */
    public static double predictedBreakEven(MossLab.Report r, Strategy s) {
        List<MossLab.PointResult> vv = visitSeries(r);
        CostModel.Parameters ps = r.parameters().get(s);
        CostModel.Parameters pn = r.parameters().get(Strategy.NS);
        if (vv.isEmpty() || ps == null || pn == null) {
            return Double.NaN;
        }
        Measurement m = vv.get(0).schemes().get(s);
        long n = m.objects();
        double fixedS = ps.predictNs(n, m.userBytes(), m.slots(), m.initialized(), 0, 0, 0);
        double fixedN = pn.predictNs(n, m.userBytes(), m.slots(), m.initialized(), 0, 0, 0);
        double gain = (pn.v() - ps.v()) * n;
        return gain <= 0 ? Double.POSITIVE_INFINITY : Math.max(0, (fixedS - fixedN) / gain);
    }
}
