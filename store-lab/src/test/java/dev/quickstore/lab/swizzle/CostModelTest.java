package dev.quickstore.lab.swizzle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cost model's formulas against hand-computed values, and the fit recovering known parameters. */
class CostModelTest {
    static final CostModel.Parameters S = new CostModel.Parameters(Strategy.ECS, 100, 2, 10, 1, 4, 3, 0.5, 6, 2, 1, 0);
    static final CostModel.Parameters NS = new CostModel.Parameters(Strategy.NS, 0, 1, 8, 0, 0, 5, 0, 0, 0, 1, 0);

    @Test
    void predictionIsTheWeightedSumOfTheTerms() {
        // K + MB nb + MO n + MS np + MI ni + (V + w) nv + UB b nu + UO nu + US p nu
        // = 100 + 2*200 + 10*10 + 1*30 + 4*20 + (3+1)*30 + 0.5*20*5 + 6*5 + 2*3*5 = 940
        assertEquals(940, S.predictNs(10, 200, 30, 20, 30, 5, 1), 1e-9);
    }

    @Test
    void breakEvenVisitsFixedAndVarying() {
        // fixed: c = (dMO + 2.5 dMS + 2 dMI) / dV = (2 + 2.5 + 8) / 2; a = dMB / dV = 1 / 2
        CostModel.BreakEven f = CostModel.breakEven(S, NS, false);
        assertEquals(6.25, f.c(), 1e-12);
        assertEquals(0.5, f.a(), 1e-12);
        assertEquals(16.25, f.at(20), 1e-12);
        // varying: c = dMO / dV = 1; a = (dMB + dMS * .25/8 + dMI * .2/8) / dV = (1 + .03125 + .1) / 2
        CostModel.BreakEven v = CostModel.breakEven(S, NS, true);
        assertEquals(1, v.c(), 1e-12);
        assertEquals(0.565625, v.a(), 1e-12);
        // no per-visit saving: never breaks even
        assertTrue(Double.isInfinite(CostModel.breakEven(NS, S, false).c()));
    }

    @Test
    void ratiosForOneVisitAndTheLimits() {
        // b = 20, fixed: swizzling 2*20 + 10 + 2.5*1 + 2*4 + 3 = 63.5, non-swizzling 20 + 8 + 5 = 33
        assertEquals(63.5 / 33, CostModel.ratioOneVisit(S, NS, 20, false), 1e-12);
        // b = 80, varying: p = 2.5, i = 2 (the same object): the same numbers with b = 80
        assertEquals((160 + 10 + 2.5 + 8 + 3) / (80 + 8 + 5.0), CostModel.ratioOneVisit(S, NS, 80, true), 1e-12);
        assertEquals((2 + 5 / 8.0) / 1, CostModel.worstCase(S, NS), 1e-12);
        assertEquals(3 / 5.0, CostModel.bestCase(S, NS), 1e-12);
    }

    @Test
    void mossTable18AndTable17FromHisOwnParametersWithFourByteSlots() {
        // Moss's LCS and NS rows of Table 12 (microseconds); his slots are 4 bytes, ours 8, so the per-slot terms
        // scale: fixed-model c does not depend on the slot size and must match his 4.06 (+-.38)
        CostModel.Parameters lcs =
                new CostModel.Parameters(Strategy.LCS, 0, 2.56, 26.5, .77, 7.7, 13.14, 0, 0, 0, 1, 0);
        CostModel.Parameters ns = new CostModel.Parameters(Strategy.NS, 0, 1.77, 25.1, 0, 0, 17.75, 0, 0, 0, 1, 0);
        CostModel.BreakEven f = CostModel.breakEven(lcs, ns, false);
        assertEquals(4.06, f.c(), 0.02);
        assertEquals(0.17, f.a(), 0.005);
        assertEquals(1.38, CostModel.ratioOneVisit(lcs, ns, 20, false), 0.005); // Table 20, LCS, b = 20
    }

    @Test
    void fitRecoversTheParametersThatGeneratedTheTimes() {
        List<CostModel.Observation> obs = new ArrayList<>();
        long seed = 3;
        for (int r = 0; r < 40; r++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            long n = 1000 + (seed >>> 50);
            long p = 2 + ((seed >>> 20) & 31);
            long b = 8 * p + ((seed >>> 30) & 255);
            long i = 2 + ((seed >>> 40) % (p - 1));
            long nu = (r % 3 == 0) ? n : 0;
            long nv = 3 * n;
            double w = (r % 5) * 1.5;
            double total = S.predictNs(n, n * b, n * p, n * i, nv, nu, w) - S.k(); // the fit has no constant
            obs.add(new CostModel.Observation(n, n * b, n * p, n * i, nv, nu, w, total));
        }
        CostModel.Parameters f = CostModel.fit(Strategy.ECS, S.v(), obs);
        assertEquals(0, f.k());
        assertEquals(S.mb(), f.mb(), 1e-6);
        assertEquals(S.mo(), f.mo(), 1e-6);
        assertEquals(S.ms(), f.ms(), 1e-6);
        assertEquals(S.mi(), f.mi(), 1e-6);
        assertEquals(S.ub(), f.ub(), 1e-6);
        assertEquals(S.uo(), f.uo(), 1e-6);
        assertEquals(S.us(), f.us(), 1e-6);
        assertEquals(1, f.r2(), 1e-9);
    }
}
