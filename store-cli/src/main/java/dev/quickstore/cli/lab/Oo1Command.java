package dev.quickstore.cli.lab;

import dev.quickstore.cli.Json;
import dev.quickstore.cli.oo7.QsJvm;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.lab.oo1.HeapOo1Database;
import dev.quickstore.lab.oo1.MappedOo1Database;
import dev.quickstore.lab.oo1.Oo1Benchmark;
import dev.quickstore.lab.oo1.Oo1Database;
import dev.quickstore.lab.oo1.Oo1Generator;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code qs lab oo1}: OO1 as Texas ran it (Kakkad and Wilson 1999, section 6; {@link Oo1Benchmark}) on the heap and
 * the mapped store, one database size per run: the per-traversal CPU time of a 45-traversal set (the analogue of
 * the paper's Figures 3 and 4), the phases' means, lookups and the insert, with the heap as the baseline of every
 * ratio.
 */
@Command(
        name = "oo1",
        mixinStandardHelpOptions = true,
        header = "OO1 (Cattell) as the Texas paper ran it, on the heap and the mapped store.",
        description = {
            "Builds Cattell's OO1 database (parts with three connections each, 90% to the closest 1% of parts) on"
                    + " each system, then runs a traversal set as Kakkad and Wilson 1999 did (45 depth-7 traversals"
                    + " from random roots: 1 cold, 34 warm, 10 hot; CPU time of the running thread, which includes"
                    + " the fault handler), 1,000 lookups cold and hot, and an insert of 100 parts with its commit.",
            "The same seed gives every system the same database and roots; their traversals must visit the same"
                    + " parts (checked). Progress goes to stderr, the tables to stdout."
        },
        footer = {
            "",
            "Examples:",
            "  qs lab oo1                      small database (20,000 parts), heap and qs",
            "  qs lab oo1 --size large         200,000 parts (Figure 3's database)",
            "  qs lab oo1 --csv > oo1.csv      one row per system and traversal",
            "  qs lab oo1 --json               every figure as JSON",
            "  qs lab oo1 --systems heap,qs,texas   add Texas mode (or: qs lab texas)",
            "  qs lab oo1 --systems heap,texas,texas-raw   Texas's smart index against its all-raw index"
        })
public final class Oo1Command implements Callable<Integer> {
    /** The systems --systems accepts. */
    static final List<String> SYSTEMS = List.of("heap", "qs", "texas", "texas-raw", "qs-raw");

    @Spec
    CommandSpec spec;

    @Option(
            names = "--size",
            description = "small (20,000 parts) or large (200,000); default ${DEFAULT-VALUE}",
            defaultValue = "small")
    String size;

    @Option(names = "--parts", description = "number of parts (overrides --size)")
    Integer parts;

    @Option(
            names = "--systems",
            split = ",",
            description = "systems to run: heap, qs (QuickStore: virtual addresses, identity placement), texas (Texas"
                    + " mode: persistent pointers swizzled at fault time, frames reserved one step ahead; ids found"
                    + " through a B+tree whose values are converted on use, the paper's smart index), texas-raw"
                    + " (Texas mode, ids found through a persistent array of part references swizzled with its"
                    + " page, the paper's all-raw index), qs-raw (qs with that array); the first is the baseline of"
                    + " the ratios; default ${DEFAULT-VALUE}",
            defaultValue = "heap,qs")
    List<String> systems;

    @Option(
            names = "--seed",
            description = "seed of the database, roots and lookups; default ${DEFAULT-VALUE}",
            defaultValue = "1")
    long seed;

    @Option(
            names = "--dir",
            description = "directory for the mapped store (must not exist); default: a temporary one, deleted after")
    Path dir;

    @Option(names = "--drop-cache", description = "empty the OS page cache before each cold run (root only)")
    boolean dropCache;

    @Option(names = "--json", description = "print JSON instead of tables")
    boolean json;

    @Option(names = "--csv", description = "print one CSV row per system and traversal instead of tables")
    boolean csv;

    @Option(
            names = {"-q", "--quiet"},
            description = "no progress on stderr")
    boolean quiet;

    @Option(
            names = "--in-process",
            description = "run every system in this JVM (default: a fresh JVM per system, so that one system's"
                    + " classes do not make the operations' call sites megamorphic for the next)")
    boolean inProcess;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int n = parts != null ? parts : Oo1Generator.Size.valueOf(size.toUpperCase(Locale.ROOT)).parts;
        if (n < 100) {
            throw new IllegalArgumentException("--parts " + n + ": OO1 needs at least 100 parts");
        }
        for (String s : systems) {
            if (!SYSTEMS.contains(s)) {
                throw new IllegalArgumentException(
                        "unknown system '" + s + "' (known: " + String.join(", ", SYSTEMS) + ")");
            }
        }
        if (json && csv) {
            throw new IllegalArgumentException("--json and --csv: choose one");
        }
        List<Run> runs = new ArrayList<>();
        for (String s : systems) {
            runs.add(inProcess || systems.size() == 1 ? runSystem(s, n, err) : runInChild(s, n));
        }
        checkSameWork(runs);
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("parts", n);
            doc.put("seed", seed);
            doc.put("runs", runs);
            out.println(Json.object(doc));
        } else if (csv) {
            out.println("system,parts,traversal,phase,cpu_us,wall_us,pages_read,faults,visits,checksum,frames");
            for (Run r : runs) {
                for (Oo1Benchmark.TraversalRun t : r.result().traversals()) {
                    out.printf(
                            Locale.ROOT,
                            "%s,%d,%d,%s,%.1f,%.1f,%d,%d,%d,%d,%d%n",
                            r.result().system(),
                            n,
                            t.index(),
                            t.phase(),
                            t.cpuNanos() / 1e3,
                            t.wallNanos() / 1e3,
                            t.pagesRead(),
                            t.faults(),
                            t.visits(),
                            t.checksum(),
                            t.framesReserved());
                }
            }
        } else {
            printTables(out, n, runs);
        }
        out.flush();
        return 0;
    }

    /** One system's build and benchmark. */
    public record Run(long buildMillis, long pages, Oo1Benchmark.Result result) {}

    private Run runSystem(String system, int n, PrintWriter err) throws IOException {
        Path storeDir = null;
        boolean temporary = false;
        Oo1Database db;
        if (system.equals("heap")) {
            db = new HeapOo1Database();
        } else {
            if (dir != null) {
                storeDir = dir;
            } else {
                storeDir = Files.createTempDirectory("qs-oo1-").resolve("db");
                temporary = true;
            }
            if (!system.equals("qs") && dir != null) {
                storeDir = Path.of(dir + "-" + system); // qs and texas in one run need two stores
            }
            StoreOptions o = StoreOptions.defaults();
            if (system.startsWith("texas")) {
                o = o.withRelocation(Relocation.TEXAS, 0);
            }
            db = MappedOo1Database.create(
                    storeDir,
                    o,
                    dropCache,
                    system.endsWith("-raw") ? MappedOo1Database.IdIndex.PART_ARRAY : MappedOo1Database.IdIndex.BTREE);
        }
        try (db) {
            long t0 = System.nanoTime();
            int step = Math.max(1, n / 10);
            Oo1Generator.build(db, n, seed, done -> {
                if (!quiet && (done % step < 5_000 || done == n)) {
                    progress(err, system + ": built " + done + "/" + n + " parts");
                }
            });
            long build = (System.nanoTime() - t0) / 1_000_000;
            long pages = db instanceof MappedOo1Database m ? m.pageCount() : 0;
            Oo1Benchmark.Result r = Oo1Benchmark.run(db, n, seed, s -> {
                if (!quiet) {
                    progress(err, s);
                }
            });
            return new Run(build, pages, r);
        } finally {
            if (temporary) {
                deleteTree(storeDir.getParent());
            }
        }
    }

    /** Runs {@code system} in a fresh JVM (this command with {@code --in-process --json}); progress passes through. */
    private Run runInChild(String system, int n) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(
                "lab",
                "oo1",
                "--in-process",
                "--json",
                "--systems",
                system,
                "--parts",
                Integer.toString(n),
                "--seed",
                Long.toString(seed)));
        if (quiet) {
            args.add("--quiet");
        }
        if (dropCache) {
            args.add("--drop-cache");
        }
        if (dir != null && !system.equals("heap")) {
            args.addAll(List.of("--dir", dir.toString()));
        }
        Process p = new ProcessBuilder(QsJvm.command(List.of("-Xm", "-XX:"), List.of(), args))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        if (p.waitFor() != 0) {
            throw new IllegalStateException(
                    "the " + system + " run (a child JVM) failed with exit " + p.exitValue() + "; its error is above");
        }
        var runs = Json.MAPPER.readTree(out).get("runs");
        return Json.MAPPER.treeToValue(runs.get(0), Run.class);
    }

    private static void progress(PrintWriter err, String line) {
        err.println("oo1: " + line);
        err.flush();
    }

    private static void checkSameWork(List<Run> runs) {
        for (int k = 1; k < runs.size(); k++) {
            Oo1Benchmark.Result a = runs.get(0).result(), b = runs.get(k).result();
            for (int i = 0; i < a.traversals().size(); i++) {
                if (a.traversals().get(i).checksum() != b.traversals().get(i).checksum()
                        || a.traversals().get(i).visits()
                                != b.traversals().get(i).visits()) {
                    throw new IllegalStateException("traversal " + (i + 1) + " differs between " + a.system() + " and "
                            + b.system() + " (a bug: the same seed must give the same visits)");
                }
            }
            if (a.lookupChecksum() != b.lookupChecksum()) {
                throw new IllegalStateException("lookups differ between " + a.system() + " and " + b.system());
            }
        }
    }

    private static void printTables(PrintWriter out, int n, List<Run> runs) {
        Oo1Benchmark.Result base = runs.get(0).result();
        out.printf(
                Locale.ROOT,
                "OO1, %,d parts, traversal set of %d (CPU time of the running thread, µs)%n",
                n,
                Oo1Benchmark.TRAVERSALS);
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-9s %-5s", "traversal", "phase"));
        for (Run r : runs) {
            head.append(String.format(Locale.ROOT, " %10s", r.result().system() + " µs"));
            if (r.result() != base) {
                head.append(String.format(Locale.ROOT, " %8s", "/" + base.system()));
            }
            if (!r.result().system().equals("heap")) {
                head.append(String.format(Locale.ROOT, " %6s %6s", "pages", "faults"));
            }
        }
        out.println(head);
        for (int i = 0; i < base.traversals().size(); i++) {
            StringBuilder row =
                    new StringBuilder(String.format(Locale.ROOT, "%-9d %-5s", i + 1, Oo1Benchmark.phase(i)));
            for (Run r : runs) {
                Oo1Benchmark.TraversalRun t = r.result().traversals().get(i);
                row.append(String.format(Locale.ROOT, " %10.1f", t.cpuNanos() / 1e3));
                if (r.result() != base) {
                    row.append(String.format(
                            Locale.ROOT,
                            " %7.2fx",
                            t.cpuNanos() / (double) base.traversals().get(i).cpuNanos()));
                }
                if (!r.result().system().equals("heap")) {
                    row.append(String.format(Locale.ROOT, " %6d %6d", t.pagesRead(), t.faults()));
                }
            }
            out.println(row);
        }
        out.println();
        out.printf(Locale.ROOT, "%-28s", "summary (µs)");
        for (Run r : runs) {
            out.printf(Locale.ROOT, " %12s", r.result().system());
        }
        StringBuilder ratios = new StringBuilder();
        if (runs.size() > 1) {
            ratios.append(
                    String.format(Locale.ROOT, " %12s", runs.get(1).result().system() + "/" + base.system()));
        }
        for (int k = 2; k < runs.size(); k++) { // e.g. texas/qs: the mapped designs beside the first one
            ratios.append(String.format(
                    Locale.ROOT,
                    " %12s",
                    runs.get(k).result().system() + "/" + runs.get(1).result().system()));
        }
        out.println(ratios);
        for (String phase : List.of("cold", "warm", "hot")) {
            row(out, "traversal " + phase + " (mean)", runs, r -> r.result().meanCpuNanos(phase) / 1e3);
        }
        row(out, "lookup 1,000 cold", runs, r -> r.result().lookupColdCpuNanos() / 1e3);
        row(out, "lookup 1,000 warm", runs, r -> r.result().lookupWarmCpuNanos() / 1e3);
        row(out, "lookup 1,000 hot", runs, r -> r.result().lookupHotCpuNanos() / 1e3);
        row(out, "insert 100 + commit (wall)", runs, r -> r.result().insertWallNanos() / 1e3);
        row(out, "build (ms, wall)", runs, r -> (double) r.buildMillis());
        for (Run r : runs) {
            if (!r.result().system().equals("heap")) {
                out.printf(
                        Locale.ROOT,
                        "%s: %,d pages in the volume; pages read: cold traversal %d, warm %d, hot %d, cold lookups %d,"
                                + " warm lookups %d; frames reserved: after the traversal set %,d, after the cold"
                                + " lookups %,d, after the warm lookups %,d%n",
                        r.result().system(),
                        r.pages(),
                        r.result().pagesRead("cold"),
                        r.result().pagesRead("warm"),
                        r.result().pagesRead("hot"),
                        r.result().lookupColdPagesRead(),
                        r.result().lookupWarmPagesRead(),
                        r.result().framesAfterTraversals(),
                        r.result().framesAfterColdLookups(),
                        r.result().framesAfterWarmLookups());
            }
        }
    }

    private static void row(PrintWriter out, String label, List<Run> runs, java.util.function.ToDoubleFunction<Run> f) {
        out.printf(Locale.ROOT, "%-28s", label);
        for (Run r : runs) {
            out.printf(Locale.ROOT, " %12.1f", f.applyAsDouble(r));
        }
        if (runs.size() > 1) {
            out.printf(Locale.ROOT, " %11.2fx", f.applyAsDouble(runs.get(1)) / f.applyAsDouble(runs.get(0)));
        }
        for (int k = 2; k < runs.size(); k++) { // e.g. texas/qs: the mapped designs side by side
            out.printf(Locale.ROOT, " %11.2fx", f.applyAsDouble(runs.get(k)) / f.applyAsDouble(runs.get(1)));
        }
        out.println();
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("deleting " + root, e);
        }
    }
}
