package dev.quickstore.lab.swizzle;

import java.util.List;

/**
 * Moss's load-work-save cost model (Moss 1992, section 4, Table 3):
 *
 * <pre>
 * LWS = MB*nb + MO*n + MS*np + MI*ni + V*nv + nvw + UB*nbu + UO*nu + US*npu
 * </pre>
 *
 * with the parameters of one scheme in nanoseconds, fitted by {@link #fit} from measured sessions, and the analyses
 * of Moss's section 6 derived from two schemes' parameters: break-even visits {@code v = c + a*b} for Moss's "fixed"
 * (2 initialized pointers in 2.5 slots) and "varying" (25% of user bytes are slots, 20% initialized pointers)
 * typical objects (Tables 18, 19), the ratio for one visit (Tables 20, 21) and the worst-case limit (Table 17). Moss's
 * UI is dropped as he dropped it (always zero in his measurements; here each updated object's pointers are in US).
 */
public final class CostModel {
    /** Fraction of user bytes that are slots, and that are initialized pointers, in Moss's "varying" model. */
    static final double VARYING_SLOTS = 0.25;

    static final double VARYING_INIT = 0.20;
    /** Slots and initialized pointers per object in Moss's "fixed" model. */
    static final double FIXED_SLOTS = 2.5;

    static final double FIXED_INIT = 2;

    private CostModel() {}

    /** One scheme's parameters, ns per unit (K: ns per session). */
    public record Parameters(
            Strategy strategy,
            double k,
            double mb,
            double mo,
            double ms,
            double mi,
            double v,
            double ub,
            double uo,
            double us,
            double r2,
            int runs) {
        /** Predicted session time in ns; {@code w} is the work per visit in ns. */
        public double predictNs(long n, long nb, long np, long ni, long nv, long nu, double w) {
            double b = n == 0 ? 0 : (double) nb / n;
            double p = n == 0 ? 0 : (double) np / n;
            return k + mb * nb + mo * n + ms * np + mi * ni + (v + w) * nv + ub * b * nu + uo * nu + us * p * nu;
        }

        /** Per-object read-only cost for one visit of an object of b user bytes, p slots, i initialized pointers. */
        double perObject(double b, double p, double i) {
            return mb * b + mo + ms * p + mi * i + v;
        }
    }

    /** A measured session as the fit sees it. */
    public record Observation(
            long n, long nb, long np, long ni, long nv, long nu, double workPerVisitNs, double totalNs) {}

    /**
     * Fits MB, MO, MS, MI, UB, UO, US for one scheme, given its per-visit cost V (measured directly, from the
     * traversals after the first), per object as Moss regressed "time per object versus ..." (section 5.4): regresses
     * {@code (total - (V + w) * nv) / n} on b, 1, p, i, b*u, u, p*u, so that every session weighs alike whatever its
     * size; no constant term (Moss omitted them as negligible; here opening a session is not timed), K = 0.
     */
    public static Parameters fit(Strategy s, double v, List<Observation> obs) {
        double[][] x = new double[obs.size()][];
        double[] y = new double[obs.size()];
        for (int r = 0; r < obs.size(); r++) {
            Observation o = obs.get(r);
            double n = Math.max(1, o.n);
            double b = o.nb / n;
            double p = o.np / n;
            double u = o.nu / n;
            x[r] = new double[] {b, 1, p, o.ni / n, b * u, u, p * u};
            y[r] = (o.totalNs - (v + o.workPerVisitNs) * o.nv) / n;
        }
        LinearFit.Result f = LinearFit.fit(x, y);
        double[] c = f.coefficients();
        return new Parameters(s, 0, c[0], c[1], c[2], c[3], v, c[4], c[5], c[6], f.r2(), obs.size());
    }

    /**
     * One scheme's create-work-save parameters (Moss 1992, section 4: {@code CWS = PB*nb + PO*n + PS*np + PI*ni +
     * V*nv + nvw}; Table 13), ns per unit.
     */
    public record CreateParameters(
            Strategy strategy, double pb, double po, double ps, double pi, double v, double r2, int runs) {
        /** Predicted session time in ns; {@code w} is the work per visit in ns. */
        public double predictNs(long n, long nb, long np, long ni, long nv, double w) {
            return pb * nb + po * n + ps * np + pi * ni + (v + w) * nv;
        }
    }

    /**
     * Fits PB, PO, PS, PI for one scheme from create-work-save sessions, given its per-visit cost V measured on them:
     * regresses {@code (total - (V + w) * nv) / n} on b, 1, p, i, as {@link #fit} does for load-work-save sessions
     * (Moss's u is 1 by definition: every object is new and saved).
     */
    public static CreateParameters fitCreate(Strategy s, double v, List<Observation> obs) {
        double[][] x = new double[obs.size()][];
        double[] y = new double[obs.size()];
        for (int r = 0; r < obs.size(); r++) {
            Observation o = obs.get(r);
            double n = Math.max(1, o.n);
            x[r] = new double[] {o.nb / n, 1, o.np / n, o.ni / n};
            y[r] = (o.totalNs - (v + o.workPerVisitNs) * o.nv) / n;
        }
        LinearFit.Result f = LinearFit.fit(x, y);
        double[] c = f.coefficients();
        return new CreateParameters(s, c[0], c[1], c[2], c[3], v, f.r2(), obs.size());
    }

    /** Break-even visits {@code v = c + a*b} of a scheme against no swizzling (Tables 18, 19). */
    public record BreakEven(double c, double a) {
        public double at(double b) {
            return c + a * b;
        }
    }

    /**
     * Moss's break-even analysis for read-only sessions: per-object and per-byte extra cost of swizzling over the
     * per-visit saving; infinite when swizzling saves nothing per visit.
     */
    public static BreakEven breakEven(Parameters s, Parameters ns, boolean varying) {
        double dv = ns.v - s.v;
        double dmo = s.mo - ns.mo;
        double dmb = s.mb - ns.mb;
        double dms = s.ms - ns.ms;
        double dmi = s.mi - ns.mi;
        if (dv <= 0) {
            return new BreakEven(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
        }
        if (varying) {
            double perByte =
                    dmb + dms * VARYING_SLOTS / TreeShape.SLOT_BYTES + dmi * VARYING_INIT / TreeShape.SLOT_BYTES;
            return new BreakEven(dmo / dv, perByte / dv);
        }
        return new BreakEven((dmo + FIXED_SLOTS * dms + FIXED_INIT * dmi) / dv, dmb / dv);
    }

    /** Swizzling over non-swizzling time for one visit of objects of {@code b} user bytes (Tables 20, 21). */
    public static double ratioOneVisit(Parameters s, Parameters ns, double b, boolean varying) {
        double p = varying ? VARYING_SLOTS * b / TreeShape.SLOT_BYTES : FIXED_SLOTS;
        double i = varying ? VARYING_INIT * b / TreeShape.SLOT_BYTES : FIXED_INIT;
        return s.perObject(b, p, i) / ns.perObject(b, p, i);
    }

    /** The limit of swizzling over non-swizzling as objects grow full of initialized pointers (Table 17). */
    public static double worstCase(Parameters s, Parameters ns) {
        double perSlot = 1.0 / TreeShape.SLOT_BYTES;
        return (s.mb + (s.ms + s.mi) * perSlot) / (ns.mb + (ns.ms + ns.mi) * perSlot);
    }

    /** The limit as visits grow (Moss: 74% lazy, 68% eager at best). */
    public static double bestCase(Parameters s, Parameters ns) {
        return s.v / ns.v;
    }
}
