package dev.quickstore.lab.swizzle;

import java.util.Map;

/**
 * Moss's published numbers (Moss 1992; DECstation 3100, 16.67 MHz MIPS R2000A, Mneme, microseconds), printed beside
 * this machine's. Moss's slots are 4 bytes, ours 8; his in-place headers 4 bytes longer than the others', ours the
 * same for every scheme.
 */
public final class MossPaper {
    private MossPaper() {}

    /** Table 12: MB, MO, MS, MI, V, UB, UO, US (microseconds; NaN where the paper leaves the cell empty). */
    public static final Map<Strategy, double[]> TABLE_12 = Map.of(
            Strategy.LCS, new double[] {2.56, 26.5, .77, 7.7, 13.14, 3.58, 34.3, -.37},
            Strategy.LIS, new double[] {2.37, 27.8, .77, 7.8, 13.14, 3.38, 42.8, Double.NaN},
            Strategy.ECS, new double[] {2.17, 22.4, .77, 7.7, 12.04, 3.58, 34.3, -.37},
            Strategy.EIS, new double[] {2.04, 26.0, .77, 7.8, 12.04, 3.38, 42.8, Double.NaN},
            Strategy.NS, new double[] {1.77, 25.1, Double.NaN, Double.NaN, 17.75, 3.38, 27.0, Double.NaN});

    /** Table 5: traversal with no work, microseconds per object (NS adjusted; IS/CS with and without checks). */
    public static final Map<Strategy, Double> TABLE_5 = Map.of(
            Strategy.NS, 17.75, Strategy.LIS, 13.14, Strategy.LCS, 13.14, Strategy.EIS, 12.04, Strategy.ECS, 12.04);

    /** Table 5: non-persistent C, microseconds per object. */
    public static final double TABLE_5_NPC = 11.83;

    /** Table 6: per-item read costs, microseconds (slot, byte, integer; the same for every scheme). */
    public static final double SLOT_READ = .55;

    public static final double BYTE_READ = .32;
    public static final double INT_READ = .35;

    /** Table 17: worst-case limit of swizzling over non-swizzling. */
    public static final Map<Strategy, Double> TABLE_17 =
            Map.of(Strategy.LCS, 2.64, Strategy.LIS, 2.55, Strategy.ECS, 2.42, Strategy.EIS, 2.36);

    /** The object sizes b of Tables 18-21. */
    public static final double[] SIZES = {20, 40, 100, 200};

    /** Table 18: break-even visits, fixed number of pointers, at b = 20, 40, 100, 200. */
    public static final Map<Strategy, double[]> TABLE_18 = Map.of(
            Strategy.LCS, new double[] {7.5, 10.9, 21, 38},
            Strategy.LIS, new double[] {7.0, 9.6, 17, 30},
            Strategy.ECS, new double[] {4.0, 5.4, 10, 17},
            Strategy.EIS, new double[] {4.2, 5.1, 8, 13});

    /** Table 19: break-even visits, varying number of pointers. */
    public static final Map<Strategy, double[]> TABLE_19 = Map.of(
            Strategy.LCS, new double[] {5.6, 10.9, 27, 53},
            Strategy.LIS, new double[] {5.1, 9.6, 23, 46},
            Strategy.ECS, new double[] {2.4, 5.4, 14, 29},
            Strategy.EIS, new double[] {2.6, 5.1, 13, 25});

    /** Table 20: swizzling over non-swizzling for one visit, fixed number of pointers. */
    public static final Map<Strategy, double[]> TABLE_20 = Map.of(
            Strategy.LCS, new double[] {1.38, 1.40, 1.42, 1.43},
            Strategy.LIS, new double[] {1.35, 1.35, 1.34, 1.34},
            Strategy.ECS, new double[] {1.22, 1.22, 1.22, 1.22},
            Strategy.EIS, new double[] {1.23, 1.21, 1.18, 1.17});

    /** Table 21: swizzling over non-swizzling for one visit, varying number of pointers. */
    public static final Map<Strategy, double[]> TABLE_21 = Map.of(
            Strategy.LCS, new double[] {1.27, 1.40, 1.54, 1.61},
            Strategy.LIS, new double[] {1.24, 1.34, 1.46, 1.52},
            Strategy.ECS, new double[] {1.11, 1.22, 1.34, 1.40},
            Strategy.EIS, new double[] {1.12, 1.21, 1.30, 1.34});
}
