package dev.quickstore.oo7;

import dev.quickstore.oo7.schema.Assembly;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import java.util.Locale;
import java.util.Objects;
import java.util.Random;

/**
 * Builds an OO7 database (Carey, DeWitt and Naughton 1993, section 3; design notes section 6) into an
 * {@link Oo7Store}, deterministically from a seed: the same configuration and seed give the same database,
 * object for object, in every store (see {@link Oo7Digest}).
 *
 * <h2>Build rules</h2>
 *
 * <ol>
 *   <li>Composite parts first, ids {@code 1 .. NumCompPerModule * NumModules}; composite {@code i} belongs to
 *       module {@code (i - 1) / NumCompPerModule + 1}. It is <em>young</em> (build date in [2000, 2999]) iff
 *       {@code i % 10 == 0}, otherwise its build date is in [0, 999].
 *   <li>Its document has id {@code i}, title {@code "Composite Part %08d"} and text {@code "I am the
 *       documentation for composite part #%08d.\n"} repeated and cut to {@code DocumentSize - 1} characters.
 *   <li>Atomic part {@code k} (1-based) of composite {@code i} has id {@code (i - 1) * N + k}; the first is the
 *       root part. Build date in [1000, 1999], {@code x} and {@code y} in [0, 99999], {@code docId = i}.
 *   <li>Connection 0 of part {@code j} (0-based) goes to part {@code (j + 1) mod N} (a ring, so every part is
 *       reachable from the root); the other {@code NumConnPerAtomic - 1} go to uniformly random parts of the
 *       same composite (self-connections allowed, as in OO7). Length in [0, 99999].
 *   <li>Per module: the module (id {@code m}, build date in [1000, 1999]), its manual (id {@code m}, title
 *       {@code "Manual for module %08d"}, text {@code "I am the manual for module #%08d.\n"} repeated and cut to
 *       {@code ManualSize - 1} characters), then the assembly hierarchy in preorder: {@code NumAssmLevels}
 *       levels of fan-out {@code NumAssmPerAssm}, complex and base assemblies numbered separately in creation
 *       order across modules (364 complex and 729 base per module), build dates in [1000, 1999].
 *   <li>Each base assembly draws {@code NumCompPerAssm} private composite ids uniformly from its own module and
 *       {@code NumCompPerAssm} shared ids uniformly from all modules; duplicates are kept (bags), and each
 *       draw also adds the base assembly to the composite's {@code usedInPriv} / {@code usedInShar} bag.
 *   <li>Types are {@code "type000"} .. {@code "type009"}, uniformly drawn.
 * </ol>
 *
 * <p>All draws come from one {@link Random} seeded with the seed, in exactly the order of the code below
 * (documented so that another implementation of these rules can reproduce the database). The build runs in
 * transactions of at most {@value #COMMIT_EVERY} composite parts and one transaction per module hierarchy.
 */
public final class Oo7Builder {

    /** Receives progress of a (possibly long) build. */
    @FunctionalInterface
    public interface Progress {
        /** Progress that reports nothing. */
        Progress NONE = (phase, done, total) -> {};

        /** {@code done} of {@code total} units of {@code phase} have been built. */
        void report(String phase, long done, long total);
    }

    static final int COMMIT_EVERY = 100;

    private final Oo7Config config;
    private final long seed;

    public Oo7Builder(Oo7Config config, long seed) {
        this.config = Objects.requireNonNull(config);
        this.seed = seed;
    }

    /** Builds the database into an empty store. */
    public void build(Oo7Store store, Progress progress) {
        Random rnd = new Random(seed);
        int total = config.totalCompositeParts();
        store.begin();
        for (int i = 1; i <= total; i++) {
            buildCompositePart(store, config, i, rnd);
            if (i % COMMIT_EVERY == 0 || i == total) {
                store.commit();
                progress.report("composite parts", i, total);
                store.begin();
            }
        }
        int[] nextIds = {1, 1}; // next complex id, next base id
        for (int m = 1; m <= config.numModules(); m++) {
            buildModule(store, m, rnd, nextIds);
            store.commit();
            progress.report("modules", m, config.numModules());
            if (m < config.numModules()) {
                store.begin();
            }
        }
    }

    /**
     * Builds composite part {@code id} with its document, atomic parts and connections (rules 1-4); also used
     * by SM1. Runs inside the caller's transaction.
     */
    static CompositePart buildCompositePart(Oo7Store store, Oo7Config config, int id, Random rnd) {
        String type = type(rnd);
        int date = id % 10 == 0
                ? between(rnd, Oo7Config.MIN_YOUNG_COMP_DATE, Oo7Config.MAX_YOUNG_COMP_DATE)
                : between(rnd, Oo7Config.MIN_OLD_COMP_DATE, Oo7Config.MAX_OLD_COMP_DATE);
        CompositePart cp = store.createCompositePart(id, type, date, null);
        Document doc = store.createDocument(id, documentTitle(id), documentText(id, config.documentSize()), cp, cp);
        cp.documentation(doc);

        int n = config.numAtomicPerComp();
        AtomicPart[] parts = new AtomicPart[n];
        for (int j = 0; j < n; j++) {
            String partType = type(rnd);
            int partDate = between(rnd, Oo7Config.MIN_ATOMIC_DATE, Oo7Config.MAX_ATOMIC_DATE);
            int x = rnd.nextInt(100_000);
            int y = rnd.nextInt(100_000);
            AtomicPart part = store.createAtomicPart((id - 1) * n + j + 1, partType, partDate, x, y, id, cp, cp);
            parts[j] = part;
            cp.parts().add(part);
            if (j == 0) {
                cp.rootPart(part);
            }
        }
        for (int j = 0; j < n; j++) {
            for (int c = 0; c < config.numConnPerAtomic(); c++) {
                int target = c == 0 ? (j + 1) % n : rnd.nextInt(n);
                String connType = type(rnd);
                int length = rnd.nextInt(100_000);
                Connection conn = store.createConnection(connType, length, parts[j], parts[target], cp);
                parts[j].to().add(conn);
                parts[target].from().add(conn);
            }
        }
        return cp;
    }

    private void buildModule(Oo7Store store, int m, Random rnd, int[] nextIds) {
        Module module = store.createModule(
                m, type(rnd), between(rnd, Oo7Config.MIN_ATOMIC_DATE, Oo7Config.MAX_ATOMIC_DATE), null);
        Manual manual = store.createManual(m, manualTitle(m), manualText(m, config.manualSize()), module, null);
        module.man(manual);
        Assembly root = buildAssembly(store, module, null, 1, rnd, nextIds);
        module.designRoot((ComplexAssembly) root);
    }

    private Assembly buildAssembly(
            Oo7Store store, Module module, ComplexAssembly parent, int level, Random rnd, int[] nextIds) {
        String type = type(rnd);
        int date = between(rnd, Oo7Config.MIN_ATOMIC_DATE, Oo7Config.MAX_ATOMIC_DATE);
        if (level < config.numAssmLevels()) {
            ComplexAssembly ca = store.createComplexAssembly(nextIds[0]++, type, date, module, parent, module);
            for (int s = 0; s < config.numAssmPerAssm(); s++) {
                ca.subAssemblies().add(buildAssembly(store, module, ca, level + 1, rnd, nextIds));
            }
            return ca;
        }
        BaseAssembly ba = store.createBaseAssembly(nextIds[1]++, type, date, module, parent, module);
        int firstOfModule = (module.id() - 1) * config.numCompPerModule() + 1;
        for (int c = 0; c < config.numCompPerAssm(); c++) {
            CompositePart cp = store.compositePartById(firstOfModule + rnd.nextInt(config.numCompPerModule()));
            ba.componentsPriv().add(cp);
            cp.usedInPriv().add(ba);
        }
        for (int c = 0; c < config.numCompPerAssm(); c++) {
            CompositePart cp = store.compositePartById(1 + rnd.nextInt(config.totalCompositeParts()));
            ba.componentsShar().add(cp);
            cp.usedInShar().add(ba);
        }
        module.assemblies().add(ba);
        return ba;
    }

    /** The title of composite part {@code id}'s document. */
    public static String documentTitle(int id) {
        return String.format(Locale.ROOT, "Composite Part %08d", id);
    }

    static String manualTitle(int moduleId) {
        return String.format(Locale.ROOT, "Manual for module %08d", moduleId);
    }

    static String documentText(int id, int size) {
        return repeatTo(String.format(Locale.ROOT, "I am the documentation for composite part #%08d.\n", id), size - 1);
    }

    static String manualText(int moduleId, int size) {
        return repeatTo(String.format(Locale.ROOT, "I am the manual for module #%08d.\n", moduleId), size - 1);
    }

    private static String repeatTo(String unit, int length) {
        StringBuilder sb = new StringBuilder(length + unit.length());
        while (sb.length() < length) {
            sb.append(unit);
        }
        sb.setLength(length);
        return sb.toString();
    }

    private static final String[] TYPES = new String[Oo7Config.NUM_TYPES];

    static {
        for (int t = 0; t < TYPES.length; t++) {
            TYPES[t] = String.format(Locale.ROOT, "type%03d", t);
        }
    }

    private static String type(Random rnd) {
        return TYPES[rnd.nextInt(Oo7Config.NUM_TYPES)];
    }

    private static int between(Random rnd, int lo, int hi) {
        return lo + rnd.nextInt(hi - lo + 1);
    }
}
