package dev.quickstore.lab.swizzle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Moss's benchmark series (Moss 1992, section 5.1, table of series), scaled to a maximum collection size: each
 * series is a list of {@link Point}s, a collection shape and a workload. VH's largest height (the paper's 19) maps to the
 * largest height whose tree has at most {@code objects} objects; the other series' heights are set below it so that
 * their collections stay within a few megabytes (SI, BI, II four levels lower, WS, WB two); sizes the paper
 * bounds in megabytes are bounded here by {@code objects * 32} bytes (Moss: 2-4 MB for 2^17 objects). The work series
 * BI, II, WS and WB vary what is read at each visit (Moss used BI and II for creation costs, Table 4, which this lab
 * fits on the create-work-save runs of VS, VB, VH, VN and SI instead; here they give Table 6's per-item read costs).
 * VV (not in the paper) varies the visits on Moss's "typical" object to find the break-even points by measurement;
 * VT (not in the paper either) varies the fraction of the collection a session touches (1 down to 1/256), where lazy
 * schemes and NS load only what they touch and eager ones everything. VB, VH, VN and SI also run with every object updated (u = 1: Table 10's and 11's
 * modified objects, and UB, UO, US); the runs of the fitted series without updates also run as create-work-save
 * sessions ({@link #created}: Tables 4, 10, 11 new objects, and 13).
 */
public final class MossSeries {
    /** Every series, in the paper's order, then VV and VT. */
    public static final List<String> ALL = List.of("VS", "VB", "VH", "VN", "SI", "BI", "II", "WS", "WB", "VV", "VT");

    static final int[] F2_233 = {2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233};
    static final int[] F1_233 = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233};
    static final int[] F4_932 = {4, 8, 12, 20, 32, 52, 84, 136, 220, 356, 576, 932};
    static final int[] VISITS = {1, 2, 3, 5, 8, 13, 21};
    /** Traversals in every series but VV: the first loads (lazy schemes), the others give V. */
    static final int PASSES = 3;

    private MossSeries() {}

    /** One benchmark: a collection and a workload. */
    public record Point(String series, String label, TreeShape shape, Workload work) {}

    /** The largest height whose tree has at most {@code objects} objects. */
    static int maxHeight(long objects) {
        return Math.max(4, 63 - Long.numberOfLeadingZeros(objects + 1));
    }

    /** The largest height at most {@code hmax} whose tree of objects of {@code objectBytes} fits {@code budget}. */
    static int heightFor(long budget, int objectBytes, int hmax) {
        int h = hmax;
        while (h > 4 && ((1L << h) - 1) * objectBytes > budget) {
            h--;
        }
        return h;
    }

    public static List<Point> points(String series, long objects, long seed) {
        int hmax = maxHeight(objects);
        long budget = objects * 32;
        int hdr = CollectionFile.HEADER_BYTES;
        List<Point> out = new ArrayList<>();
        Workload plain = new Workload(PASSES, 0, Workload.Work.NONE, 0, seed);
        Workload updating = new Workload(PASSES, 1, Workload.Work.NONE, 0, seed);
        switch (series.toUpperCase(Locale.ROOT)) {
            case "VS" -> {
                for (int s : F2_233) {
                    int h = heightFor(budget, hdr + 8 * s, hmax);
                    out.add(new Point("VS", "slots " + s, TreeShape.uniform(h, s, 0), plain));
                }
            }
            case "VB" -> {
                for (int b : F4_932) {
                    int h = heightFor(budget, hdr + 16 + b, hmax);
                    out.add(new Point("VB", "bytes " + b, TreeShape.uniform(h, 2, b), plain));
                    out.add(new Point("VB", "bytes " + b + " u=1", TreeShape.uniform(h, 2, b), updating));
                }
            }
            case "VH" -> {
                for (int h = Math.max(4, hmax - 5); h <= hmax; h++) {
                    out.add(new Point("VH", "height " + h, TreeShape.uniform(h, 2, 0), plain));
                    out.add(new Point("VH", "height " + h + " u=1", TreeShape.uniform(h, 2, 0), updating));
                }
            }
            case "VN" -> {
                for (int h = Math.max(4, hmax - 7); h <= hmax; h++) {
                    long per = 2 * budget / ((1L << h) - 1);
                    int s = (int) Math.max(2, Math.min(233, (per - hdr) / 8));
                    out.add(new Point("VN", "height " + h + " slots " + s, TreeShape.uniform(h, s, 0), plain));
                    out.add(new Point(
                            "VN", "height " + h + " slots " + s + " u=1", TreeShape.uniform(h, s, 0), updating));
                }
            }
            case "SI" -> {
                int h = Math.max(4, hmax - 4);
                for (int i : F2_233) {
                    out.add(new Point("SI", "leaf init " + i, new TreeShape(h, 2, 2, 0, 233, i, 0), plain));
                    out.add(new Point("SI", "leaf init " + i + " u=1", new TreeShape(h, 2, 2, 0, 233, i, 0), updating));
                }
            }
            case "BI" -> {
                int h = Math.max(4, hmax - 4);
                for (int k : F4_932) {
                    out.add(new Point(
                            "BI",
                            "bytes read " + k,
                            new TreeShape(h, 2, 2, 0, 0, 0, 932),
                            new Workload(PASSES, 0, Workload.Work.READ_BYTES, k, seed)));
                }
            }
            case "II" -> {
                int h = Math.max(4, hmax - 4);
                for (int k : F1_233) {
                    out.add(new Point(
                            "II",
                            "ints read " + k,
                            new TreeShape(h, 2, 2, 0, 0, 0, 932),
                            new Workload(PASSES, 0, Workload.Work.READ_INTS, k, seed)));
                }
            }
            case "WS" -> {
                int h = Math.max(4, hmax - 2);
                for (int k : new int[] {1, 2, 3, 5, 8, 13, 21, 34}) {
                    out.add(new Point(
                            "WS",
                            "slots read " + k,
                            new TreeShape(h, 2, 2, 0, 34, 0, 0),
                            new Workload(PASSES, 0, Workload.Work.READ_SLOTS, k, seed)));
                }
            }
            case "WB" -> {
                int h = Math.max(4, hmax - 2);
                for (int k : new int[] {4, 8, 12, 20, 32, 52, 84}) {
                    out.add(new Point(
                            "WB",
                            "bytes read " + k,
                            new TreeShape(h, 2, 2, 0, 0, 0, 84),
                            new Workload(PASSES, 0, Workload.Work.READ_BYTES, k, seed)));
                }
            }
            case "VV" -> {
                int h = Math.max(4, hmax - 1);
                // Moss's typical object: 2 initialized pointers in 2.5 slots, 24 further bytes (b about 44)
                TreeShape typical = new TreeShape(h, 3, 2, 24, 2, 2, 24);
                for (int v : VISITS) {
                    out.add(new Point("VV", "visits " + v, typical, new Workload(v, 0, Workload.Work.NONE, 0, seed)));
                }
            }
            case "VT" -> {
                int h = Math.max(4, hmax - 1);
                TreeShape typical = new TreeShape(h, 3, 2, 24, 2, 2, 24);
                for (int skip : new int[] {0, 1, 2, 3, 4, 6, 8}) {
                    if (skip < h) {
                        out.add(new Point(
                                "VT",
                                "touch 1/" + (1 << skip),
                                typical,
                                new Workload(PASSES, 0, Workload.Work.NONE, 0, seed, skip)));
                    }
                }
            }
            default ->
                throw new IllegalArgumentException(
                        "unknown series '" + series + "' (one of " + String.join(",", ALL) + ")");
        }
        return out;
    }

    /**
     * Whether a point also runs as a create-work-save session: the fitted series' points without updates (a
     * create-work-save session updates every object by definition: u = 1).
     */
    static boolean created(Point p) {
        return fitted(p.series()) && p.work().updateFraction() == 0;
    }

    /** The series whose runs the cost model is fitted on (the others are predicted). */
    static boolean fitted(String series) {
        return switch (series) {
            case "VS", "VB", "VH", "VN", "SI" -> true;
            default -> false;
        };
    }
}
