package dev.quickstore.cli.oo7;

import dev.quickstore.cli.ExitCodes;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.Oo7Report;
import dev.quickstore.oo7.Oo7Result;
import dev.quickstore.oo7.Oo7Runner;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.peers.Peers;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs oo7 run}: OO7 on the heap, the mapped stores and the peers, one table (cold and hot). */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        header = "Run OO7 on the heap and the mapped stores; print one table.",
        description = {
            "Build an OO7 database on each system and run the benchmark operations on all of them; print one"
                    + " table with the median time per system, the ratio to the first system (the baseline)"
                    + " and the mapped stores' faults and log bytes, and the database size (pages) of each"
                    + " mapped store.",
            "Systems: heap (plain Java objects), qs (the mapped store, page protection), qs-cards, qs-objects,"
                    + " qs-remsets, qs-scan (the mapped store with Hosking and Moss's other write-detection"
                    + " schemes: card marking, object marking, remembered sets, scanning), qs-kernel (write detection"
                    + " by the kernel, Linux 6.7+: no write fault once a page was committed), qs-b (the mapped store with objects padded"
                    + " to the size an OID-based layout needs, White and DeWitt 1994 section 4).",
            "Peers (the stores Java users pick today, written as their users would; docs/peers.md): eclipsestore"
                    + " (Eclipse Store), lmdb (LMDB through lmdbjava), mvstore (H2 MVStore). Each builds into a"
                    + " temporary directory (its size on disk is reported), commits are forced to the device,"
                    + " and it runs cold (--cold in-process: the peer's makeCold in this JVM, e.g. Eclipse Store"
                    + " restarts its storage and reloads the graph;"
                    + " --cold process: a fresh JVM per operation opens the built directory) and hot, after"
                    + " the mapped stores.",
            "Protocol: warm-up rounds alternating between heap and the first mapped store (or peer), so that"
                    + " the code is compiled; then cold rounds (mapped stores and peers; --cold), then the last"
                    + " warm-up round, which caches the pages again; then measured hot rounds."
                    + " Cold in-process is cold caches with compiled code, as the paper's cold runs;"
                    + " --cold process measures a cold JVM too. Every operation also"
                    + " reports the commit time and the peak heap (peakHeapKiB: the heap pools' peaks from begin"
                    + " to the end of the commit, whole JVM). One mapped store is open at a time"
                    + " (one arena per process): the second one runs its warm-up and hot rounds after the"
                    + " first is closed (qs and qs-b share their generated classes and code paths).",
            "--cold in-process (default) closes and reopens the store before every cold operation;"
                    + " --cold process runs every cold operation in a freshly started JVM on the built store"
                    + " (progress on stderr) and folds the results into the same table, CSV and JSON.",
            "Mapped stores build into temporary directories deleted at exit, or use the database of --store"
                    + " DIR (built by qs oo7 build; its system, size and seed apply).",
            "qs-cs is the mapped store as a page server's client: with --server qs://HOST:PORT --secret FILE it"
                    + " runs on that server's OO7 database (built by qs oo7 build with the --size and --seed"
                    + " given here); without, this run builds a temporary store, serves it with qs serve in a"
                    + " child process and connects. Its cold runs disconnect and connect again (an empty"
                    + " client cache; the server keeps its buffer pool), so they measure pages served over"
                    + " the socket against qs's pages read from the OS page cache."
        },
        footer = {
            "",
            "Examples:",
            "  qs oo7 run                                   small database, heap and qs, default operations",
            "  qs oo7 run --system heap,qs,qs-b --ops T1,T6,Q5 --json small.json",
            "  qs oo7 run --cold process --reps 3 --json cold.json   cold operations in fresh JVMs",
            "  qs oo7 run --system heap --size medium --reps 3",
            "  qs oo7 run --system heap,qs,qs-cs --ops T1,T6     embedded vs client-server (a server is started)",
            "  qs oo7 run --system heap,qs,e --ops T1,T6,Q1    QuickStore vs E: hardware faults vs software checks",
            "  qs oo7 run --system heap,qs,qs-cards,qs-objects,qs-remsets,qs-scan --ops T1,T2A,T2B,T2C,T3A,T3B,T3C",
            "                                               the five write-detection schemes of Hosking and Moss",
            "  qs oo7 run --system heap,qs,eclipsestore,lmdb,mvstore --json peers.json   against the peers",
            "  qs oo7 run --server qs://127.0.0.1:7420 --secret db/server.secret   heap vs that server's database",
            "  qs oo7 build /tmp/oo7 && qs oo7 run --system qs --store /tmp/oo7",
            "  qs oo7 report cold.json small.json           one table from several runs"
        })
final class Oo7RunCommand implements Callable<Integer> {
    @Option(
            names = "--system",
            split = ",",
            converter = SystemConverter.class,
            description = "systems to measure, the first is the baseline: heap, qs (page protection), qs-cards (card"
                    + " marking), qs-objects (object marking), qs-remsets (remembered sets), qs-scan"
                    + " (scanning), qs-kernel (kernel write tracking), qs-b (padded objects), qs-cs (page-server client), e (software"
                    + " persistence: OIDs and residency checks, E / EPVM 3.0), peers eclipsestore,"
                    + " lmdb, mvstore (default: heap,qs,qs-cards,qs-b; with --store: heap and the system"
                    + " the database was built for)")
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
            description = "run the mapped system on the OO7 database built there by qs oo7 build (its updates"
                    + " persist; only that one mapped system)")
    Path store;

    @Option(
            names = "--server",
            paramLabel = "qs://HOST:PORT",
            description = "run qs-cs on the OO7 database of this page server (qs serve over a store built by qs"
                    + " oo7 build; --size and --seed must be the ones it was built with); default systems"
                    + " heap,qs-cs")
    String server;

    @Option(
            names = "--secret",
            paramLabel = "FILE",
            description = "with --server: a copy of the served store's server.secret (mode 0600)")
    Path secret;

    @Option(
            names = "--cold",
            paramLabel = "MODE",
            defaultValue = "in-process",
            description = "cold protocol: in-process (reopen the store in this JVM), process (a fresh JVM per"
                    + " cold operation) or none (default: ${DEFAULT-VALUE})")
    String cold;

    @Option(
            names = "--drop-caches",
            description = "before each cold operation also sync and drop the OS page cache"
                    + " (writes /proc/sys/vm/drop_caches: needs root; otherwise reported as not dropped)")
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

    @Option(
            names = "--wide",
            description = "print the wide table (spread and every counter per system) and the commit breakdown"
                    + " instead of the compact one")
    boolean wide;

    @Option(
            names = "--json",
            paramLabel = "FILE",
            description = "also write the results as JSON to FILE (input of qs oo7 report)")
    Path json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Oo7Command.ColdMode coldMode = Oo7Command.ColdMode.of(cold);
        String storeSize = null;
        Long storeSeed = null;
        SystemUnderTest built = null;
        if (store != null) {
            Properties p = Oo7Command.description(store);
            storeSize = p.getProperty("size");
            storeSeed = Long.parseLong(p.getProperty("seed"));
            built = SystemUnderTest.of("system in " + Oo7Command.DESCRIPTION_FILE, p.getProperty("system", "qs"));
        }
        if (server != null && store != null) {
            throw new IllegalArgumentException(
                    "--server and --store: run on one database, a served one (qs-cs)" + " or a local one");
        }
        if (server != null && secret == null) {
            throw new IllegalArgumentException(
                    "--server " + server + " needs --secret FILE (a copy of the" + " store's server.secret)");
        }
        List<SystemUnderTest> list = systems != null
                ? List.copyOf(new LinkedHashSet<>(systems))
                : server != null
                        ? List.of(SystemUnderTest.heap, SystemUnderTest.qs_cs)
                        : built != null
                                ? List.of(SystemUnderTest.heap, built)
                                : List.of(
                                        SystemUnderTest.heap,
                                        SystemUnderTest.qs,
                                        SystemUnderTest.qs_cards,
                                        SystemUnderTest.qs_b);
        List<SystemUnderTest> mapped =
                list.stream().filter(SystemUnderTest::mapped).toList();
        List<SystemUnderTest> peers =
                list.stream().filter(SystemUnderTest::peer).toList();
        if (server != null && !list.contains(SystemUnderTest.qs_cs)) {
            throw new IllegalArgumentException(
                    "--server " + server + ": only qs-cs runs on a server; add it to" + " --system");
        }
        if (coldMode == Oo7Command.ColdMode.PROCESS && list.contains(SystemUnderTest.qs_cs)) {
            throw new IllegalArgumentException("--cold process: not for qs-cs, whose cold runs connect again in"
                    + " this process (a fresh client cache); use --cold in-process");
        }
        if (store != null) {
            if (!mapped.equals(List.of(built))) {
                throw new IllegalArgumentException("--store " + store + " holds an OO7 database of " + built.label()
                        + "; --system must name that one mapped system, e.g. --system heap," + built.label()
                        + " (got "
                        + list.stream().map(SystemUnderTest::label).toList() + ")");
            }
            if (size != null && !Oo7Config.named(size).name().equals(storeSize)) {
                throw new IllegalArgumentException("--size " + size + ": " + store + " holds OO7 " + storeSize);
            }
            if (seed != null && !seed.equals(storeSeed)) {
                throw new IllegalArgumentException("--seed " + seed + ": " + store + " was built with " + storeSeed);
            }
        }
        Oo7Config config = Oo7Config.named(size != null ? size : storeSize != null ? storeSize : "small");
        long seedValue = seed != null ? seed : storeSeed != null ? storeSeed : 42;
        Oo7Operations.Parameters params =
                new Oo7Operations.Parameters(Oo7Command.parse(Oo7Operations.T2Update.class, "--t2", t2), q4, sm1);
        List<Oo7Operation> operations = ops == null
                ? Oo7Runner.defaultOperations(config)
                : ops.stream()
                        .map(s -> Oo7Command.parse(Oo7Operation.class, "--ops", s))
                        .toList();
        Oo7Runner.Options options = new Oo7Runner.Options(operations, reps, warmup);
        Map<String, String> storeOptions = storeOptions();
        HeapOo7Store heap = null;
        List<Path> temporary = new java.util.concurrent.CopyOnWriteArrayList<>();
        // Ctrl-C (SIGINT) and SIGTERM run shutdown hooks: the temporary stores go with the process
        // The run goes on while the hook deletes (the JVM stops it only after the hooks) and may recreate a
        // directory (a new log segment): the hook deletes until the stores stay gone for 200 ms (at most ~3 s).
        Thread cleanup = new Thread(
                () -> temporary.forEach(t -> {
                    try {
                        for (int round = 0; round < 15; round++) {
                            Oo7Command.deleteTree(t);
                            Thread.sleep(200);
                            if (!Files.exists(t)) {
                                break;
                            }
                        }
                    } catch (IOException e) {
                        System.err.println("qs: could not remove temporary store " + t + ": " + e.getMessage());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }),
                "qs-oo7-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            Map<String, List<Oo7Result>> results = new LinkedHashMap<>();
            Map<String, Map<String, Object>> attributes = new LinkedHashMap<>();
            list.forEach(s -> results.put(s.label(), new ArrayList<>()));
            Map<SystemUnderTest, Path> dirs = new LinkedHashMap<>();
            for (SystemUnderTest system : list) {
                String how;
                if (system == SystemUnderTest.heap) {
                    heap = new HeapOo7Store();
                    how = String.format(
                            Locale.ROOT, "built in %.1f ms", Oo7Command.build(heap, config, seedValue, err) / 1e6);
                } else if (system.peer()) {
                    Path dir = Files.createTempDirectory("qs-oo7-" + system.label() + "-");
                    temporary.add(dir);
                    dirs.put(system, dir);
                    try (Oo7Store p = Peers.open(system.label(), dir)) {
                        how = String.format(
                                Locale.ROOT,
                                "built in %.1f ms (temporary store, removed at exit)",
                                Oo7Command.build(p, config, seedValue, err) / 1e6);
                    }
                    err.println("qs: temporary " + system.label() + " store in " + dir);
                    // closed: every commit is on disk; the size of the files is the database
                    long bytes = Oo7Command.directoryBytes(dir);
                    attributes
                            .computeIfAbsent(system.label(), k -> new LinkedHashMap<>())
                            .put("databaseBytes", bytes);
                    how += String.format(Locale.ROOT, "; database %.1f MiB on disk", bytes / 1048576.0);
                } else if (system.clientServer() && server != null) {
                    how = "the database of the page server " + server;
                } else if (store != null) {
                    dirs.put(system, store);
                    how = "opened " + store;
                } else {
                    Path dir = Files.createTempDirectory("qs-oo7-" + system.label() + "-");
                    temporary.add(dir);
                    Files.delete(dir); // the store creates it
                    dirs.put(system, dir);
                    try (MappedOo7Store m =
                            MappedOo7Store.create(dir, false, system.storeOptions(storeOptions), system.padding())) {
                        how = String.format(
                                Locale.ROOT,
                                "built in %.1f ms (temporary store, removed at exit)",
                                Oo7Command.build(m, config, seedValue, err) / 1e6);
                        err.println("qs: temporary " + system.label() + " store in " + dir);
                    }
                    if (system.clientServer()) {
                        how += "; served by qs serve in a child process";
                    }
                }
                if (system.mapped() && dirs.containsKey(system)) {
                    // closed (checkpointed): the header's page count is the size of the database
                    long pages = VolumeFile.readHeader(dirs.get(system)).pageCount();
                    attributes
                            .computeIfAbsent(system.label(), k -> new LinkedHashMap<>())
                            .put("databasePages", pages);
                    how += String.format(
                            Locale.ROOT, "; database %d pages = %.1f MiB", pages, pages * 8192 / 1048576.0);
                }
                out.printf(Locale.ROOT, "OO7 %s on %s: %s%n", config.name(), system.label(), how);
            }
            out.printf(
                    Locale.ROOT,
                    "seed %d, T2 %s, Q4 %d, SM1 %d; %d warm-up, %d cold (%s), %d hot rounds%s%n",
                    seedValue,
                    params.t2Update().name().toLowerCase(Locale.ROOT),
                    params.q4Lookups(),
                    params.sm1Size(),
                    warmup,
                    coldMode == Oo7Command.ColdMode.NONE ? 0 : reps,
                    switch (coldMode) {
                        case IN_PROCESS -> "store reopened in this process";
                        case PROCESS -> "a fresh JVM per operation";
                        case NONE -> "none";
                    },
                    reps,
                    storeOptions.isEmpty() ? "" : "; qs options " + storeOptions);
            out.flush();
            List<String> coldLines = new ArrayList<>();
            if (coldMode == Oo7Command.ColdMode.PROCESS) {
                List<SystemUnderTest> coldSystems = new ArrayList<>(mapped);
                coldSystems.addAll(peers);
                for (SystemUnderTest system : coldSystems) {
                    Oo7ColdProcess.Outcome o = new Oo7ColdProcess(
                                    system, dirs.get(system), config, seedValue, params, storeOptions, dropCaches, err)
                            .run(operations, reps);
                    results.get(system.label()).addAll(o.results());
                    Map<String, Object> a = attributes.get(system.label());
                    a.put("cold", "process");
                    a.put("coldRuns", o.runs());
                    a.put("pageCacheDroppedRuns", o.dropped());
                    coldLines.add(system.label() + " cold runs: a fresh JVM per operation; " + o.pageCacheText());
                }
            }
            Oo7Operations heapOps = heap == null ? null : new Oo7Operations(heap, config, seedValue, params);
            if (mapped.isEmpty() && peers.isEmpty()) {
                results.putAll(Oo7Runner.runAll(List.of(heapOps), options, false));
            }
            boolean first = true;
            for (SystemUnderTest system : mapped) {
                ServerProcess served = system.clientServer() && server == null
                        ? ServerProcess.start(dirs.get(system), "optimistic")
                        : null;
                try (ServerProcess stop = served;
                        MappedOo7Store m = system.clientServer()
                                ? MappedOo7Store.connect(
                                        served != null ? served.uri() : server,
                                        served != null ? served.secret() : secret,
                                        system.padding())
                                : MappedOo7Store.open(
                                        dirs.get(system),
                                        dropCaches,
                                        system.storeOptions(storeOptions),
                                        system.padding())) {
                    Oo7Operations mOps = new Oo7Operations(m, config, seedValue, params);
                    List<Oo7Operations> group = first && heapOps != null ? List.of(heapOps, mOps) : List.of(mOps);
                    Oo7Runner.runAll(group, options, coldMode == Oo7Command.ColdMode.IN_PROCESS)
                            .forEach((name, rs) -> results.get(name).addAll(rs));
                    if (relocate != null) {
                        coldLines.add(String.format(
                                        Locale.ROOT,
                                        "relocation (%s, %s): %d pages placed away from their preferred frames at"
                                                + " the last open (--relocate %s); %d pages still translated at"
                                                + " load%n",
                                        "ONE_TIME".equals(storeOptions.get("qs.relocation")) ? "QS-OR" : "QS-CR",
                                        system.label(),
                                        m.relocatedPages(),
                                        relocate,
                                        m.pagesNeedingTranslation())
                                + Oo7Report.firstAndLaterColdRuns(results.get(system.label()))
                                        .stripTrailing());
                    }
                    if (coldMode == Oo7Command.ColdMode.IN_PROCESS && m.isClient()) {
                        attributes
                                .computeIfAbsent(system.label(), k -> new LinkedHashMap<>())
                                .put("cold", "reconnect");
                        coldLines.add(system.label() + " cold runs: the client disconnected and connected again"
                                + " (an empty client cache); the pages came over the socket from the server's"
                                + " buffer pool" + (stop != null ? " (server log " + stop.log() + ")" : ""));
                    } else if (coldMode == Oo7Command.ColdMode.IN_PROCESS) {
                        Map<String, Object> a = attributes.get(system.label());
                        a.put("cold", "in-process");
                        a.put("pageCacheDropped", m.coldDropsOsCache());
                        coldLines.add(
                                m.coldDropsOsCache()
                                        ? system.label()
                                                + " cold runs: store closed and reopened, OS page cache dropped"
                                        : system.label()
                                                + " cold runs: store closed and reopened; pages come from the"
                                                + " OS page cache"
                                                + (dropCaches ? " (dropping it was not permitted)" : "")
                                                + " (--drop-caches drops it, as root)");
                    }
                }
                first = false;
            }
            for (SystemUnderTest system : peers) {
                try (Oo7Store p = Peers.open(system.label(), dirs.get(system))) {
                    Oo7Operations pOps = new Oo7Operations(p, config, seedValue, params);
                    List<Oo7Operations> group = first && heapOps != null ? List.of(heapOps, pOps) : List.of(pOps);
                    Oo7Runner.runAll(group, options, coldMode == Oo7Command.ColdMode.IN_PROCESS)
                            .forEach((name, rs) -> results.get(name).addAll(rs));
                }
                if (coldMode == Oo7Command.ColdMode.IN_PROCESS) {
                    attributes.get(system.label()).put("cold", "in-process");
                    coldLines.add(system.label() + " cold runs: the store closed and opened again in this JVM"
                            + " (its makeCold); files read through the OS page cache"
                            + (dropCaches ? " (--drop-caches drops it for peers with --cold process only)" : ""));
                }
                first = false;
            }
            out.print(Oo7Report.report(results, wide));
            coldLines.forEach(out::println);
            if (csv != null) {
                Files.writeString(csv, Oo7ResultFiles.csv(config, results), StandardCharsets.UTF_8);
            }
            if (json != null) {
                Files.writeString(
                        json, Oo7ResultFiles.json(config, seedValue, results, attributes), StandardCharsets.UTF_8);
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already exiting: the hook runs and removes the temporary stores itself
            }
            if (heap != null) {
                heap.close();
            }
            for (Path t : temporary) {
                Oo7Command.deleteTree(t);
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
                    throw new IllegalArgumentException(
                            "--relocation: unknown value '" + relocation + "'; expected one of [continual, one-time]");
            };
            m.put("qs.relocation", r);
        }
        return m;
    }
}
