package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.oo7.Oo7Benchmark;
import dev.quickstore.oo7.Oo7Builder;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs oo7 ...}: the OO7 benchmark driver (Carey, DeWitt, Naughton 1993; QuickStore paper sections 4-5). */
@Command(
        name = "oo7",
        mixinStandardHelpOptions = true,
        description =
                "The OO7 benchmark: build a database and run its traversals, queries and structural modifications.",
        subcommands = {Oo7Command.Run.class, Oo7Command.Build.class})
final class Oo7Command implements Runnable {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static <E extends Enum<E>> E parse(Class<E> type, String option, String value) {
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": unknown value '" + value + "'; expected one of "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    /** The systems OO7 runs on. */
    enum SystemUnderTest {
        /** The OO7 model as plain Java heap objects: the transient baseline. */
        heap,
        /** The mapped persistent store (QuickStore/J): generated objects in the memory-mapped arena. */
        qs,
        /** {@code qs-cards}: the mapped store with card marking instead of page protection (Hosking and Moss). */
        qs_cards;

        /** The name on the command line and in tables, CSV and JSON ({@code qs-cards}). */
        String label() {
            return name().replace('_', '-');
        }

        static SystemUnderTest parse(String s) {
            for (SystemUnderTest v : values()) {
                if (v.label().equalsIgnoreCase(s.trim())) {
                    return v;
                }
            }
            throw new IllegalArgumentException("unknown system '" + s + "'; expected heap, qs or qs-cards");
        }
    }

    /** Parses {@code --system} names: heap, qs, qs-cards. */
    static final class SystemConverter implements picocli.CommandLine.ITypeConverter<SystemUnderTest> {
        @Override
        public SystemUnderTest convert(String value) {
            return SystemUnderTest.parse(value);
        }
    }

    /** The file in a store directory built by {@code qs oo7 build} that records the size and seed. */
    static final String DESCRIPTION_FILE = "oo7.properties";

    static Oo7Builder.Progress progress(PrintWriter err, Oo7Config config, String system) {
        return (phase, done, total) -> {
            if (done == total || done % Math.max(1, total / 10) == 0) {
                err.printf(Locale.ROOT, "building OO7 %s on %s: %s %d/%d%n", config.name(), system, phase, done, total);
                err.flush();
            }
        };
    }

    static long build(Oo7Store store, Oo7Config config, long seed, PrintWriter err) {
        long t0 = System.nanoTime();
        new Oo7Builder(config, seed).build(store, progress(err, config, store.name()));
        return System.nanoTime() - t0;
    }

    @Command(
            name = "build",
            mixinStandardHelpOptions = true,
            description = {
                "Build an OO7 database into a new persistent store in DIR (for qs oo7 run --store DIR).",
            },
            footer = {"", "Examples:", "  qs oo7 build --size small /tmp/oo7-small"})
    static final class Build implements Callable<Integer> {
        @Option(
                names = "--size",
                defaultValue = "small",
                description = "small, medium or large (default: ${DEFAULT-VALUE})")
        String size;

        @Option(
                names = "--seed",
                defaultValue = "42",
                description = "random seed of the builder (default: ${DEFAULT-VALUE})")
        long seed;

        @picocli.CommandLine.Parameters(index = "0", paramLabel = "DIR", description = "directory of the new store")
        Path dir;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Oo7Config config = Oo7Config.named(size);
            try (MappedOo7Store store = MappedOo7Store.create(dir, false)) {
                long nanos = build(store, config, seed, err);
                Properties p = new Properties();
                p.setProperty("size", config.name());
                p.setProperty("seed", Long.toString(seed));
                try (Writer w = Files.newBufferedWriter(dir.resolve(DESCRIPTION_FILE), StandardCharsets.UTF_8)) {
                    p.store(w, "OO7 database built by qs oo7 build");
                }
                out.printf(
                        Locale.ROOT,
                        "OO7 %s built in %s in %.1f ms (seed %d)%n",
                        config.name(),
                        dir,
                        nanos / 1e6,
                        seed);
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = {
                "Build an OO7 database on each system and run the benchmark operations on all of them in one"
                        + " process; print one table with the median time per system, the ratio to the first"
                        + " system (the baseline) and the mapped store's faults and log bytes.",
                "Protocol: cold rounds (qs only: the store is closed and reopened before every operation), warm-up"
                        + " rounds alternating between the systems, then measured hot rounds of each system.",
                "qs builds into a temporary store deleted at exit, or uses the database of --store DIR."
            },
            footer = {
                "",
                "Examples:",
                "  qs oo7 run                                   small database, heap and qs, default operations",
                "  qs oo7 run --system heap --size medium --reps 3",
                "  qs oo7 run --ops T1,T6,Q5,T8 --csv oo7.csv --json oo7.json",
                "  qs oo7 build /tmp/oo7 && qs oo7 run --store /tmp/oo7"
            })
    static final class Run implements Callable<Integer> {
        @Option(
                names = "--system",
                defaultValue = "heap,qs",
                split = ",",
                converter = SystemConverter.class,
                description = "systems to measure, the first is the baseline: heap, qs (page protection),"
                        + " qs-cards (card marking) (default: ${DEFAULT-VALUE}). Mapped systems share the"
                        + " process-wide view, so each runs in its own group after the previous one closed,"
                        + " with the heap baseline interleaved again")
        List<SystemUnderTest> systems;

        @Option(names = "--size", description = "small, medium or large (default: small, or the size of --store)")
        String size;

        @Option(
                names = "--seed",
                description = "random seed of the builder and the operations (default: 42, or the seed of --store)")
        Long seed;

        @Option(
                names = "--store",
                paramLabel = "DIR",
                description = "run qs on the OO7 database built there by qs oo7 build (its updates persist)")
        Path store;

        @Option(
                names = "--drop-caches",
                description = "before each cold operation also sync and drop the OS page cache"
                        + " (writes /proc/sys/vm/drop_caches: needs root)")
        boolean dropCaches;

        @Option(names = "--reps", defaultValue = "5", description = "measured rounds (default: ${DEFAULT-VALUE})")
        int reps;

        @Option(names = "--warmup", defaultValue = "3", description = "warm-up rounds (default: ${DEFAULT-VALUE})")
        int warmup;

        @Option(
                names = "--ops",
                split = ",",
                paramLabel = "OP",
                description = "operations to run, e.g. T1,T6,Q5 (default: all that apply to the size)")
        List<String> ops;

        @Option(
                names = "--t2",
                defaultValue = "swap",
                description = "T2 update: swap (OO7) or increment (QuickStore) x and y (default: ${DEFAULT-VALUE})")
        String t2;

        @Option(names = "--q4", defaultValue = "10", description = "Q4 lookups (default: ${DEFAULT-VALUE})")
        int q4;

        @Option(
                names = "--sm1",
                defaultValue = "5",
                description = "SM1 composite parts inserted (default: ${DEFAULT-VALUE})")
        int sm1;

        @Option(
                names = "--pool-pages",
                paramLabel = "N",
                description = "qs: buffer pool frames (8 KiB pages; default 4096 = 32 MiB)")
        Integer poolPages;

        @Option(
                names = "--replacement",
                paramLabel = "POLICY",
                description = "qs: buffer replacement: simplified (QuickStore's clock, default), classic (second"
                        + " chance with per-frame reprotection) or store (store fixes only)")
        String replacement;

        @Option(
                names = "--relocate",
                paramLabel = "FRACTION",
                description = "qs: open with this fraction (0..1) of the pages relocated on purpose (aligned"
                        + " groups of 16 pages), pointers translated at fault time (applies to every cold reopen;"
                        + " see --relocation)")
        Double relocate;

        @Option(
                names = "--relocation",
                paramLabel = "POLICY",
                description = "qs: continual (QS-CR, default: translate on every load, commit the original"
                        + " addresses) or one-time (QS-OR: commit the translated pages and the placement at the"
                        + " first run; later runs translate nothing)")
        String relocation;

        @Option(names = "--csv", paramLabel = "FILE", description = "also write the results as CSV to FILE")
        Path csv;

        @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON to FILE")
        Path json;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            List<SystemUnderTest> list = List.copyOf(new LinkedHashSet<>(systems));
            String storeSize = null;
            Long storeSeed = null;
            if (store != null) {
                Properties p = new Properties();
                try (Reader r = Files.newBufferedReader(store.resolve(DESCRIPTION_FILE), StandardCharsets.UTF_8)) {
                    p.load(r);
                }
                storeSize = p.getProperty("size");
                storeSeed = Long.parseLong(p.getProperty("seed"));
                if (size != null && !Oo7Config.named(size).name().equals(storeSize)) {
                    throw new IllegalArgumentException("--size " + size + ": " + store + " holds OO7 " + storeSize);
                }
                if (seed != null && !seed.equals(storeSeed)) {
                    throw new IllegalArgumentException(
                            "--seed " + seed + ": " + store + " was built with " + storeSeed);
                }
            }
            Oo7Config config = Oo7Config.named(size != null ? size : storeSize != null ? storeSize : "small");
            long seedValue = seed != null ? seed : storeSeed != null ? storeSeed : 42;
            Oo7Operations.Parameters params =
                    new Oo7Operations.Parameters(parse(Oo7Operations.T2Update.class, "--t2", t2), q4, sm1);
            List<Oo7Operation> operations = ops == null
                    ? Oo7Benchmark.defaultOperations(config)
                    : ops.stream()
                            .map(s -> parse(Oo7Operation.class, "--ops", s))
                            .toList();
            Oo7Benchmark.Options options = new Oo7Benchmark.Options(operations, reps, warmup);
            List<Oo7Store> stores = new ArrayList<>();
            Map<String, String> storeOptions = storeOptions();
            Map<String, String> saved = new java.util.HashMap<>();
            storeOptions.forEach((k, v) -> saved.put(k, System.setProperty(k, v)));
            try {
                // the heap baseline first; mapped systems one group at a time (one application view per
                // process): each group is [heap, mapped] so every ratio is taken against a baseline measured
                // in the same interleaved run; the heap's results are those of the first group
                Oo7Operations heapRun = null;
                List<SystemUnderTest> mappedSystems = new ArrayList<>();
                for (SystemUnderTest system : list) {
                    if (system == SystemUnderTest.heap) {
                        Oo7Store s = new HeapOo7Store();
                        stores.add(s);
                        String how =
                                String.format(Locale.ROOT, "built in %.1f ms", build(s, config, seedValue, err) / 1e6);
                        out.printf(Locale.ROOT, "OO7 %s on %s: %s%n", config.name(), s.name(), how);
                        heapRun = new Oo7Operations(s, config, seedValue, params);
                    } else {
                        mappedSystems.add(system);
                    }
                }
                out.printf(
                        Locale.ROOT,
                        "seed %d, T2 %s, Q4 %d, SM1 %d; %d cold (qs), %d warm-up, %d hot rounds%s%n",
                        seedValue,
                        params.t2Update().name().toLowerCase(Locale.ROOT),
                        params.q4Lookups(),
                        params.sm1Size(),
                        reps,
                        warmup,
                        reps,
                        storeOptions.isEmpty() ? "" : "; qs options " + storeOptions);
                out.flush();
                Map<String, List<Oo7Benchmark.Result>> results = new java.util.LinkedHashMap<>();
                List<String> notes = new ArrayList<>();
                if (mappedSystems.isEmpty() && heapRun != null) {
                    results.putAll(Oo7Benchmark.runAll(List.of(heapRun), options));
                }
                for (SystemUnderTest system : mappedSystems) {
                    Store.Options o = Store.Options.defaults();
                    o = o.withWriteDetection(
                            system == SystemUnderTest.qs_cards
                                    ? Store.WriteDetection.CARD_MARKING
                                    : Store.WriteDetection.PAGE_PROTECTION);
                    MappedOo7Store m;
                    String how;
                    if (store != null) {
                        m = MappedOo7Store.open(store, dropCaches, o);
                        how = "opened " + store;
                    } else {
                        m = MappedOo7Store.createTemporary(dropCaches, o);
                        how = String.format(
                                Locale.ROOT,
                                "built in %.1f ms in %s (temporary)",
                                build(m, config, seedValue, err) / 1e6,
                                m.dir());
                    }
                    try {
                        out.printf(Locale.ROOT, "OO7 %s on %s: %s%n", config.name(), m.name(), how);
                        out.flush();
                        List<Oo7Operations> runs = new ArrayList<>();
                        if (heapRun != null) {
                            runs.add(heapRun);
                        }
                        runs.add(new Oo7Operations(m, config, seedValue, params));
                        Map<String, List<Oo7Benchmark.Result>> group = Oo7Benchmark.runAll(runs, options);
                        group.forEach(results::putIfAbsent);
                        if (relocate != null) {
                            notes.add(String.format(
                                            Locale.ROOT,
                                            "relocation (%s, %s): %d pages placed away from their preferred frames at"
                                                    + " the last open (--relocate %s); %d pages still translated at"
                                                    + " load%n",
                                            "ONE_TIME".equals(storeOptions.get("qs.relocation")) ? "QS-OR" : "QS-CR",
                                            m.name(),
                                            m.relocatedPages(),
                                            relocate,
                                            m.pagesNeedingTranslation())
                                    + Oo7Benchmark.firstAndLaterColdRuns(results.get(m.name())));
                        }
                        if (m.supportsCold()) {
                            notes.add(
                                    m.coldDropsOsCache()
                                            ? "cold runs: store closed and reopened, OS page cache dropped"
                                            : "cold runs: store closed and reopened; pages come from the OS page cache"
                                                    + (dropCaches ? " (dropping it was not permitted)" : "")
                                                    + " (--drop-caches drops it, as root)");
                        }
                    } finally {
                        m.close();
                    }
                }
                out.print(Oo7Benchmark.comparison(results));
                String breakdown = Oo7Benchmark.commitBreakdown(results);
                if (!breakdown.isEmpty()) {
                    out.println();
                    out.println("commit breakdown (ms, medians per column; diff MB/s = dirty page bytes / diff time):");
                    out.print(breakdown);
                }
                for (String note : new LinkedHashSet<>(notes)) {
                    out.print(note.endsWith("\n") ? note : note + "\n");
                }
                if (csv != null) {
                    Files.writeString(csv, Oo7Benchmark.csvAll(config, results), StandardCharsets.UTF_8);
                }
                if (json != null) {
                    Files.writeString(json, Oo7Benchmark.jsonAll(config, seedValue, results), StandardCharsets.UTF_8);
                }
            } finally {
                try {
                    for (Oo7Store s : stores) {
                        s.close();
                    }
                } finally {
                    saved.forEach((k, v) -> {
                        if (v == null) {
                            System.clearProperty(k);
                        } else {
                            System.setProperty(k, v);
                        }
                    });
                }
            }
            return ExitCodes.OK;
        }

        /**
         * The storage-manager options of --pool-pages, --replacement, --relocate, --relocation as store-core
         * properties.
         */
        Map<String, String> storeOptions() {
            Map<String, String> m = new java.util.LinkedHashMap<>();
            if (poolPages != null) {
                if (poolPages < 8) {
                    throw new IllegalArgumentException("--pool-pages " + poolPages + ": at least 8");
                }
                m.put("qs.poolPages", Integer.toString(poolPages));
            }
            if (replacement != null) {
                String r = switch (replacement.trim().toLowerCase(Locale.ROOT)) {
                    case "simplified", "simplified_clock" -> "SIMPLIFIED_CLOCK";
                    case "classic", "classic_clock" -> "CLASSIC_CLOCK";
                    case "store", "store_clock" -> "STORE_CLOCK";
                    default ->
                        throw new IllegalArgumentException("--replacement: unknown value '" + replacement
                                + "'; expected one of [simplified, classic, store]");
                };
                m.put("qs.replacement", r);
            }
            if (relocate != null) {
                if (!(relocate >= 0 && relocate <= 1)) {
                    throw new IllegalArgumentException("--relocate " + relocate + ": a fraction in [0, 1]");
                }
                m.put("qs.relocateFraction", Double.toString(relocate));
            }
            if (relocation != null) {
                String r = switch (relocation.trim().toLowerCase(Locale.ROOT)) {
                    case "continual", "qs-cr", "cr" -> "CONTINUAL";
                    case "one-time", "one_time", "onetime", "qs-or", "or" -> "ONE_TIME";
                    default ->
                        throw new IllegalArgumentException("--relocation: unknown value '" + relocation
                                + "'; expected one of [continual, one-time]");
                };
                m.put("qs.relocation", r);
            }
            return m;
        }
    }
}
