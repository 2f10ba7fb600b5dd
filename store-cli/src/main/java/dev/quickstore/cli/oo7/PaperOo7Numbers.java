package dev.quickstore.cli.oo7;

import dev.quickstore.oo7.Oo7Operation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The OO7 numbers White and DeWitt 1994 (SIGMOD, "QuickStore: A High Performance Mapped Object Store", section
 * 5) print as numbers, for {@code qs oo7 report --html} to plot beside ours: the database sizes (Table 2), the
 * client I/O requests of the cold operations (Tables 3 and 4 small, 8 and 9 medium) and the average cost of a
 * page fault, (cold - hot) / faults, of T1 and T6 (Table 5, small). The paper's response times are drawn in its
 * Figures 8 to 16 only, with no numbers in the text, so none are quoted here. Systems: QS (QuickStore), E (the E
 * persistent programming language, software swizzling) and QS-B (QuickStore with objects padded to E's size);
 * all measured on a Sun SPARC ELC client (about 20 MIPS, 24 MB) and a Sun IPX server over Ethernet (section
 * 4.3).
 */
final class PaperOo7Numbers {
    private PaperOo7Numbers() {}

    /** The paper's systems, in its tables' order. */
    static final List<String> SYSTEMS = List.of("QS", "E", "QS-B");

    /** The series label of a paper system in a plot, e.g. {@code paper: QS (1994)}. */
    static String label(String system) {
        return "paper: " + system + " (1994)";
    }

    /** The hardware the paper measured on (section 4.3), for the report's caveat. */
    static final String HARDWARE = "a Sun SPARC ELC client (about 20 MIPS, 24 MB of memory) and a Sun IPX page"
            + " server (48 MB, the database on a raw 1.3 GB disk) on an isolated Ethernet";

    /** Table 2: database size in megabytes per system, or an empty map for a size the paper did not run. */
    static Map<String, Double> databaseMegabytes(String size) {
        return switch (size) {
            case "small" -> ordered(6.6, 10.5, 11.5);
            case "medium" -> ordered(54.2, 94.1, 98.5);
            default -> Map.of();
        };
    }

    /**
     * Tables 3 and 4 (small) or 8 and 9 (medium): client I/O requests of each cold operation, per operation then
     * system; empty for a size the paper did not run.
     */
    static Map<Oo7Operation, Map<String, Double>> coldIoRequests(String size) {
        Map<Oo7Operation, Map<String, Double>> m = new LinkedHashMap<>();
        switch (size) {
            case "small" -> {
                m.put(Oo7Operation.T1, ordered(474, 1018, 1047));
                m.put(Oo7Operation.T6, ordered(467, 600, 639));
                m.put(Oo7Operation.T7, ordered(26, 25, 31));
                m.put(Oo7Operation.T8, ordered(19, 18, 19));
                m.put(Oo7Operation.T9, ordered(9, 7, 9));
                m.put(Oo7Operation.Q1, ordered(31, 26, 33));
                m.put(Oo7Operation.Q2, ordered(109, 104, 121));
                m.put(Oo7Operation.Q3, ordered(413, 641, 663));
                m.put(Oo7Operation.Q4, ordered(62, 59, 74));
                m.put(Oo7Operation.Q5, ordered(467, 558, 583));
            }
            case "medium" -> {
                m.put(Oo7Operation.T1, ordered(13216, 35622, 36963));
                m.put(Oo7Operation.T6, ordered(610, 558, 802));
                m.put(Oo7Operation.T7, ordered(27, 25, 32));
                m.put(Oo7Operation.T8, ordered(130, 129, 130));
                m.put(Oo7Operation.Q1, ordered(34, 26, 35));
                m.put(Oo7Operation.Q2, ordered(901, 919, 1095));
                m.put(Oo7Operation.Q3, ordered(5997, 8045, 10951));
                m.put(Oo7Operation.Q4, ordered(68, 58, 81));
                m.put(Oo7Operation.Q5, ordered(595, 558, 751));
            }
            default -> {}
        }
        return m;
    }

    /** Table 5 (small only): average time per page fault in ms, (cold - hot) / faults, for T1 and T6. */
    static Map<Oo7Operation, Map<String, Double>> faultMillis(String size) {
        Map<Oo7Operation, Map<String, Double>> m = new LinkedHashMap<>();
        if (size.equals("small")) {
            m.put(Oo7Operation.T1, ordered(29.4, 23.7, 31.6));
            m.put(Oo7Operation.T6, ordered(33.1, 26.5, 34.5));
        }
        return m;
    }

    private static Map<String, Double> ordered(double qs, double e, double qsB) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("QS", qs);
        m.put("E", e);
        m.put("QS-B", qsB);
        return m;
    }
}
