package dev.quickstore.oo7;

import java.util.Locale;

/**
 * The OO7 database parameters (Carey, DeWitt and Naughton 1993, table 1; White and DeWitt 1994, table 1;
 * design notes section 6).
 *
 * <p>{@code manualSize} 100K means 100,000 characters (not 102,400): with the manual text rule of
 * {@link Oo7Builder} that is what makes T8 count exactly 2,632 'I's in the small database.
 *
 * @param name a label for reports
 * @param numAtomicPerComp atomic parts per composite part (20 small, 200 medium/large)
 * @param numConnPerAtomic outgoing connections per atomic part (3)
 * @param documentSize document size in characters (2,000 small, 20,000 medium/large); text is one less
 * @param manualSize manual size in characters (100,000 small, 1,000,000 medium/large); text is one less
 * @param numCompPerModule composite parts per module (500)
 * @param numAssmPerAssm sub-assemblies per complex assembly (3)
 * @param numAssmLevels levels of the assembly hierarchy including the base level (7)
 * @param numCompPerAssm composite parts per base assembly, in each of the private and shared bags (3)
 * @param numModules modules (1 small/medium, 10 large)
 */
public record Oo7Config(
        String name,
        int numAtomicPerComp,
        int numConnPerAtomic,
        int documentSize,
        int manualSize,
        int numCompPerModule,
        int numAssmPerAssm,
        int numAssmLevels,
        int numCompPerAssm,
        int numModules) {

    public static final Oo7Config SMALL = new Oo7Config("small", 20, 3, 2_000, 100_000, 500, 3, 7, 3, 1);
    public static final Oo7Config MEDIUM = new Oo7Config("medium", 200, 3, 20_000, 1_000_000, 500, 3, 7, 3, 1);
    public static final Oo7Config LARGE = new Oo7Config("large", 200, 3, 20_000, 1_000_000, 500, 3, 7, 3, 10);

    /** Lowest and highest build date of atomic parts, modules and assemblies. */
    public static final int MIN_ATOMIC_DATE = 1000, MAX_ATOMIC_DATE = 1999;

    /** Build-date range of old composite parts. */
    public static final int MIN_OLD_COMP_DATE = 0, MAX_OLD_COMP_DATE = 999;

    /** Build-date range of young composite parts (those whose id is a multiple of ten). */
    public static final int MIN_YOUNG_COMP_DATE = 2000, MAX_YOUNG_COMP_DATE = 2999;

    /** Number of distinct type strings ({@code "type000"} .. {@code "type009"}). */
    public static final int NUM_TYPES = 10;

    public Oo7Config {
        if (numAtomicPerComp < 1
                || numConnPerAtomic < 1
                || documentSize < 2
                || manualSize < 2
                || numCompPerModule < 1
                || numAssmPerAssm < 1
                || numAssmLevels < 2
                || numCompPerAssm < 1
                || numModules < 1) {
            throw new IllegalArgumentException("invalid OO7 configuration: " + name);
        }
    }

    /** {@link #SMALL}, {@link #MEDIUM} or {@link #LARGE} by (case-insensitive) name. */
    public static Oo7Config named(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "small" -> SMALL;
            case "medium" -> MEDIUM;
            case "large" -> LARGE;
            default -> throw new IllegalArgumentException("unknown OO7 size: " + name + " (small|medium|large)");
        };
    }

    /** Base assemblies per module: {@code NumAssmPerAssm^(NumAssmLevels-1)} (729). */
    public int baseAssembliesPerModule() {
        return pow(numAssmPerAssm, numAssmLevels - 1);
    }

    /** Complex assemblies per module: the inner nodes of the hierarchy (364). */
    public int complexAssembliesPerModule() {
        int n = 0;
        for (int level = 0; level < numAssmLevels - 1; level++) {
            n += pow(numAssmPerAssm, level);
        }
        return n;
    }

    /** Composite parts in the whole database. */
    public int totalCompositeParts() {
        return numCompPerModule * numModules;
    }

    /** Atomic parts in the whole database. */
    public int totalAtomicParts() {
        return totalCompositeParts() * numAtomicPerComp;
    }

    private static int pow(int base, int exp) {
        int r = 1;
        for (int i = 0; i < exp; i++) {
            r = Math.multiplyExact(r, base);
        }
        return r;
    }
}
