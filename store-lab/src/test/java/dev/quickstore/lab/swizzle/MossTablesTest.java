package dev.quickstore.lab.swizzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The phase tables (4, 7-11, 13, 15, 16) are fitted from the measured counts: on synthetic measurements whose phase
 * times are known linear functions of the counts of Moss's series, every table recovers the known coefficients.
 */
class MossTablesTest {
    static final double EPS = 1e-6;

    /** Known per-unit costs, ns. */
    static final double V_EAGER = 7;

    static final double V_LAZY = 9;
    static final double V_NS = 20;

    static double v(Strategy s) {
        return s == Strategy.NS ? V_NS : s.lazy() ? V_LAZY : V_EAGER;
    }

    /** Load phase (lazy: load + first traversal) = perByte * nb + perObject * n; the scheme's ordinal varies it. */
    static double loadPerByte(Strategy s) {
        return 1 + 0.5 * s.ordinal();
    }

    static double loadPerObject(Strategy s) {
        return 30 + 10 * s.ordinal();
    }

    static Measurement measurement(Strategy s, MossSeries.Point p, boolean created) {
        TreeShape sh = p.shape();
        long n = sh.objects();
        long np = sh.slots();
        long ni = sh.initializedSlots();
        long nb = sh.userBytes();
        int passes = p.work().visits();
        long nu = p.work().updateFraction() == 1 ? n : 0;
        double load;
        double prepare;
        if (created) {
            // Table 4: 10 + .5 p + .3 b + .7 i per object (heap: 5 + .2 p + .1 b + .4 i)
            load = s == null ? 5 * n + 0.2 * np + 0.1 * nb + 0.4 * ni : 10 * n + 0.5 * np + 0.3 * nb + 0.7 * ni;
            prepare = 40 * n + 2 * np + 0.5 * nb;
        } else {
            load = loadPerByte(s) * nb + loadPerObject(s) * n;
            prepare = nu > 0 ? 12 * n + 0.75 * np + 0.25 * nb : 4 * n + 0.5 * np;
        }
        if (p.series().equals("SI")) {
            prepare += (created ? 1.8 : nu > 0 ? 1.9 : 1.7) * ni;
        }
        double first = v(s == null ? Strategy.EIS : s) * n;
        if (!created && (s == Strategy.NS || s.lazy())) {
            // NS and the lazy schemes load in their first traversal: Table 8 regresses load + first traversal
            first = load;
            load = 0;
        }
        double rest = v(s == null ? Strategy.EIS : s) * n * (passes - 1);
        double write = 3 * nb;
        return new Measurement(
                s,
                n,
                np,
                ni,
                nb,
                n * passes,
                nu,
                Math.round(load),
                Math.round(first),
                Math.round(rest),
                Math.round(prepare + write),
                Math.round(prepare),
                0,
                0,
                "",
                passes);
    }

    static MossLab.Report report(Map<Strategy, CostModel.Parameters> params) {
        List<MossLab.PointResult> points = new ArrayList<>();
        for (String series : List.of("VS", "VB", "VH", "VN", "SI")) {
            // large collections, so that rounding the synthetic times to whole ns does not show
            for (MossSeries.Point p : MossSeries.points(series, (1 << 20) - 1, 1)) {
                Map<Strategy, Measurement> loaded = new EnumMap<>(Strategy.class);
                Map<Strategy, Measurement> created = new EnumMap<>(Strategy.class);
                for (Strategy s : Strategy.values()) {
                    loaded.put(s, measurement(s, p, false));
                    if (MossSeries.created(p)) {
                        created.put(s, measurement(s, p, true));
                    }
                }
                points.add(
                        new MossLab.PointResult(p, measurement(null, p, true), 0, loaded, Map.of(), created, Map.of()));
            }
        }
        MossLab.Options o = new MossLab.Options(List.of(), 0, 1, 8192, null, 1, true);
        return new MossLab.Report(o, points, 1, params, null, Map.of(), null);
    }

    static MossTables.Row row(MossTables.Table t, String label) {
        return t.rows().stream()
                .filter(r -> r.label().equals(label))
                .findFirst()
                .orElseThrow(() -> new AssertionError(label + " not in " + t.rows()));
    }

    @Test
    void creationTableRecoversTheCostsPerObjectSlotByteAndInitializedSlot() {
        MossTables.Table t = MossTables.table4(report(Map.of()));
        double[] ns = row(t, "NS").ours();
        assertEquals(10, ns[0], 1e-3);
        assertEquals(0.5, ns[1], 1e-4);
        assertEquals(0.3, ns[2], 1e-4);
        assertEquals(0.7, ns[3], 1e-3);
        assertEquals(1, ns[4], 1e-6);
        double[] heap = row(t, "heap").ours();
        assertEquals(5, heap[0], 1e-3);
        assertEquals(0.2, heap[1], 1e-4);
        assertEquals(0.1, heap[2], 1e-4);
        assertEquals(0.4, heap[3], 1e-3);
        assertEquals(33.7, row(t, "NS").moss()[0]); // Moss's NS per object beside ours
    }

    @Test
    void loadingTablesRecoverPerByteAndPerObjectAndAddV() {
        MossLab.Report r = report(Map.of());
        MossTables.Table t7 = MossTables.table7(r);
        for (Strategy s : new Strategy[] {Strategy.ECS, Strategy.EIS}) {
            double[] ours = row(t7, s.name()).ours();
            assertEquals(loadPerByte(s), ours[0], 1e-4, s.name());
            assertEquals(loadPerObject(s), ours[1], 1e-2, s.name());
            assertTrue(ours[2] > 0.999999 && ours[3] > 1e6, s + " r2 " + ours[2] + " F " + ours[3]);
        }
        MossTables.Table t8 = MossTables.table8(r);
        for (Strategy s : new Strategy[] {Strategy.LCS, Strategy.LIS, Strategy.NS}) {
            double[] ours = row(t8, s.name()).ours();
            assertEquals(loadPerByte(s), ours[0], 1e-4, s.name());
            assertEquals(loadPerObject(s), ours[1], 1e-2, s.name());
        }
        double[] ecs = row(t8, "ECS + traversal").ours();
        assertEquals(loadPerObject(Strategy.ECS) + V_EAGER, ecs[1], 1e-2);
        // Table 9: the load time per object at b and its ratio to NS's
        MossTables.Table t9 = MossTables.table9(r);
        double[] lcs = row(t9, "LCS").ours();
        double lcsAt8 = loadPerByte(Strategy.LCS) * 8 + loadPerObject(Strategy.LCS);
        double nsAt8 = loadPerByte(Strategy.NS) * 8 + loadPerObject(Strategy.NS);
        assertEquals(lcsAt8, lcs[0], 1e-2);
        assertEquals(100 * lcsAt8 / nsAt8, lcs[4], 1e-3);
        assertEquals(100 * loadPerByte(Strategy.LCS) / loadPerByte(Strategy.NS), lcs[8], 1e-3);
        assertTrue(Double.isNaN(row(t9, "NS").ours()[4]), "no ratio of NS to itself");
    }

    @Test
    void prepareTablesSeparateNewOldAndModifiedAndThePerInitializedSlotCost() {
        MossLab.Report r = report(Map.of());
        MossTables.Table t10 = MossTables.table10(r);
        double[] fresh = row(t10, "CS-new (ECS)").ours();
        assertEquals(40, fresh[0], 1e-2);
        assertEquals(2, fresh[1], 1e-3);
        assertEquals(0.5, fresh[2], 1e-3);
        double[] old = row(t10, "IS-old (EIS)").ours();
        assertEquals(4, old[0], 1e-2);
        assertEquals(0.5, old[1], 1e-3);
        assertEquals(0, old[2], 1e-3);
        double[] modified = row(t10, "IS-modified (EIS)").ours();
        assertEquals(12, modified[0], 1e-2);
        assertEquals(0.75, modified[1], 1e-3);
        assertEquals(0.25, modified[2], 1e-3);
        double[] t11 = row(MossTables.table11(r), "CS (ECS)").ours();
        assertEquals(1.8, t11[0], 1e-3);
        assertEquals(1.7, t11[1], 1e-3);
        assertEquals(1.9, t11[2], 1e-3);
    }

    @Test
    void differenceTablesSubtractTheFittedParameters() {
        Map<Strategy, CostModel.Parameters> p = new EnumMap<>(Strategy.class);
        for (Strategy s : Strategy.values()) {
            double k = s.ordinal();
            p.put(
                    s,
                    new CostModel.Parameters(
                            s, 0, 1 + k, 10 + k * k, 2 * k, 3 - k, v(s), 0.5 * k, 20 - k, k / 4, 1, 9));
        }
        MossLab.Report r = report(p);
        // Table 15: ECS (ordinal 3) - EIS (ordinal 1): MB 2, MO 8, MS 4, MI -2, UB 1, UO -2, US .5
        double[] ecsEis = row(MossTables.table15(r), "ECS-EIS").ours();
        double[] expected = {2, 8, 4, -2, 1, -2, 0.5};
        for (int j = 0; j < expected.length; j++) {
            assertEquals(expected[j], ecsEis[j], EPS, "column " + j);
        }
        // Table 16: LIS (ordinal 2) - NS (ordinal 0): MB 2, MO 4, MS 4, MI -2, V 9-20, UB 1, UO -2, US .5
        double[] lis = row(MossTables.table16(r), "LIS [LIS8]").ours();
        double[] e16 = {2, 4, 4, -2, V_LAZY - V_NS, 1, -2, 0.5};
        for (int j = 0; j < e16.length; j++) {
            assertEquals(e16[j], lis[j], EPS, "column " + j);
        }
        // without fitted parameters the difference tables have nothing to show and are left out
        List<String> ids = MossTables.all(report(Map.of())).stream()
                .map(MossTables.Table::id)
                .toList();
        assertEquals(List.of("4", "7", "8", "9", "10", "11"), ids);
    }

    @Test
    void aPhaseFitNeedsMoreRunsThanTerms() {
        assertNull(MossTables.fitPhase(List.of(), Measurement::loadNs, MossTables.Term.OBJECT));
    }

    @Test
    void createFitRecoversTheParametersThatGeneratedTheTimes() {
        CostModel.CreateParameters known = new CostModel.CreateParameters(Strategy.LIS, 3, 60, 0.8, 1.9, 13, 1, 0);
        List<CostModel.Observation> obs = new ArrayList<>();
        long seed = 5;
        for (int r = 0; r < 30; r++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            long n = 500 + (seed >>> 52);
            long p = 2 + ((seed >>> 20) & 63);
            long b = 8 * p + ((seed >>> 30) & 511);
            long i = 2 + ((seed >>> 40) % (p - 1));
            long nv = 3 * n;
            double w = (r % 4) * 2.0;
            double total = known.predictNs(n, n * b, n * p, n * i, nv, w);
            obs.add(new CostModel.Observation(n, n * b, n * p, n * i, nv, n, w, total));
        }
        CostModel.CreateParameters f = CostModel.fitCreate(Strategy.LIS, known.v(), obs);
        assertEquals(known.pb(), f.pb(), 1e-6);
        assertEquals(known.po(), f.po(), 1e-6);
        assertEquals(known.ps(), f.ps(), 1e-6);
        assertEquals(known.pi(), f.pi(), 1e-6);
        assertEquals(1, f.r2(), 1e-9);
        assertEquals(30, f.runs());
    }
}
