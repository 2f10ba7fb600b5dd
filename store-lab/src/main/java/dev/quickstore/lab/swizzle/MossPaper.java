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

    private static final double N = Double.NaN;

    /**
     * Table 4: creation and initialization costs, per object, per slot, per byte, per integer (microseconds); rows
     * NS, IS/CS (both schemes create alike), NPC.
     */
    public static final Map<String, double[]> TABLE_4 = Map.of(
            "NS", new double[] {33.7, .394, .374, .401},
            "IS/CS", new double[] {10.5, .393, .368, .399},
            "NPC", new double[] {9.1, .387, .367, .385});

    /** Table 7: eager loading and swizzling, measured: per byte, per object (microseconds), r^2, F. */
    public static final Map<String, double[]> TABLE_7 = Map.of(
            "CS", new double[] {2.17, 29.8, .9903, 3357},
            "IS", new double[] {2.04, 29.4, .9962, 8816});

    /**
     * Table 8: lazy loading (LCS, LIS, NS measured) and the eager schemes with one no-work traversal added: per byte,
     * per object (microseconds), r^2, F.
     */
    public static final Map<String, double[]> TABLE_8 = Map.of(
            "LCS", new double[] {2.56, 49.4, .9951, 6962},
            "LIS", new double[] {2.37, 44.3, .9953, 7272},
            "NS", new double[] {1.77, 42.8, .9993, 26832},
            "ECS", new double[] {2.17, 37.5, N, N},
            "EIS", new double[] {2.04, 41.4, N, N});

    /** The object sizes b of Table 9. */
    public static final double[] TABLE_9_SIZES = {8, 24, 50, 200};

    /**
     * Table 9: loading time per object (microseconds) at b = 8, 24, 50, 200, then the ratio to NS in percent at the
     * same sizes and as b grows without bound.
     */
    public static final Map<Strategy, double[]> TABLE_9 = Map.of(
            Strategy.LCS, new double[] {63, 104, 171, 555, 115, 125, 133, 141, 145},
            Strategy.LIS, new double[] {63, 101, 163, 518, 115, 122, 126, 131, 134},
            Strategy.ECS, new double[] {55, 90, 146, 472, 100, 108, 113, 120, 123},
            Strategy.EIS, new double[] {58, 90, 143, 449, 105, 108, 111, 114, 115},
            Strategy.NS, new double[] {55, 83, 129, 394, N, N, N, N, N});

    /**
     * Table 10: preparing, per object, per slot, per byte (microseconds), r^2, F; rows CS/IS - new, old, modified
     * (NaN where the paper's cell is empty: size was not significant).
     */
    public static final Map<String, double[]> TABLE_10 = Map.of(
            "CS-new", new double[] {29.6, .40, .20, .9999, 362679},
            "IS-new", new double[] {29.1, .43, .19, .9999, 181722},
            "CS-old", new double[] {4.6, .77, N, .9998, 200728},
            "IS-old", new double[] {4.4, .77, N, .9996, 86504},
            "CS-modified", new double[] {11.9, .40, .20, .9997, 87147},
            "IS-modified", new double[] {6.6, .77, N, .9996, 94829});

    /** Table 11: prepare cost per initialized slot (microseconds), new, old, modified. */
    public static final Map<String, double[]> TABLE_11 = Map.of(
            "CS", new double[] {1.81, 1.80, 1.81},
            "IS", new double[] {1.89, 1.90, 1.89});

    /** Table 13: create-work-save parameters PB, PO, PS, PI, V (microseconds). */
    public static final Map<Strategy, double[]> TABLE_13 = Map.of(
            Strategy.LCS, new double[] {3.95, 65.3, .79, 1.81, 13.14},
            Strategy.LIS, new double[] {3.94, 78.3, .82, 1.89, 13.14},
            Strategy.ECS, new double[] {3.95, 65.3, .79, 1.81, 12.04},
            Strategy.EIS, new double[] {3.94, 78.3, .82, 1.89, 12.04},
            Strategy.NS, new double[] {3.75, 60.7, .39, N, 17.75});

    /**
     * Table 15: copy minus in-place swizzling parameters MB, MO, MS, MI, UB, UO, US, UI (microseconds), "now" (copy
     * swizzling unswizzles by traversal, touching unmodified objects) and "projected" (it skips them; ours does).
     * Empty cells (no difference) are 0.
     */
    public static final Map<String, double[]> TABLE_15 = Map.of(
            "LCS-LIS now", new double[] {.19, -1.3, 0, -.10, .20, -8.5, -.37, 0},
            "LCS-LIS projected", new double[] {.19, -5.9, -.77, -1.90, .20, -3.9, .40, 1.80},
            "ECS-EIS now", new double[] {.13, -3.6, 0, -.10, .20, -8.5, -.37, 0},
            "ECS-EIS projected", new double[] {.13, -8.2, -.77, -1.90, .20, -3.9, .40, 1.80});

    /**
     * Table 16: swizzling minus non-swizzling, MB, MO, MS, MI, V, UB, UO, US, UI (microseconds). LCSP/ECSP: copy
     * swizzling that skips unmodified objects when saving; LIS8/EIS8: in-place swizzling without the 4 extra header
     * bytes. Empty cells (no difference) are 0.
     */
    public static final Map<String, double[]> TABLE_16 = Map.of(
            "LCS", new double[] {.79, 1.4, .77, 7.7, -4.6, .20, 7.3, -.37, 0},
            "LCSP", new double[] {.79, -3.2, 0, 5.9, -4.6, .20, 11.9, .40, 1.80},
            "LIS", new double[] {.60, 2.7, .77, 7.8, -4.6, 0, 15.8, 0, 0},
            "LIS8", new double[] {.60, -6.8, .77, 7.8, -4.6, 0, 2.3, 0, 0},
            "ECS", new double[] {.40, 2.7, .77, 7.7, -5.7, .20, 7.3, -.37, 0},
            "ECSP", new double[] {.40, -7.3, 0, 5.9, -5.7, .20, 11.9, .40, 1.80},
            "EIS", new double[] {.27, 0.9, .77, 7.8, -5.7, 0, 15.8, 0, 0},
            "EIS8", new double[] {.27, -7.3, .77, 7.8, -5.7, 0, 2.3, 0, 0});
}
