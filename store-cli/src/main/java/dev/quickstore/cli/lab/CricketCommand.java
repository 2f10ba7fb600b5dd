package dev.quickstore.cli.lab;

import static dev.quickstore.cli.lab.LabOutput.num;
import static dev.quickstore.cli.lab.LabOutput.ratio;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.lab.cricket.CricketPaper;
import dev.quickstore.lab.cricket.TreeSearchBenchmark;
import dev.quickstore.lab.cricket.TreeSearchBenchmark.Results;
import dev.quickstore.lab.cricket.TreeSearchBenchmark.Row;
import dev.quickstore.lab.cricket.TreeShape;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code qs lab cricket}: Cricket's tree-search benchmark (Shekita and Zwilling 1990, section 6.2, Tables 3 and 4)
 * on the heap and in a mapped store, with the update variant under diff and full-page commit logging
 * ({@link TreeSearchBenchmark}). A table on stdout (or {@code --json}/{@code --csv}), progress on stderr; exit 1 if
 * the store's results differ from the heap's.
 */
@Command(
        name = "cricket",
        mixinStandardHelpOptions = true,
        header = "Cricket's tree search (Shekita & Zwilling 1990): heap vs qs, Tables 3-4, diff vs full-page logging.",
        description = {
            "Builds the paper's tree (depth 4, fanout 11: 16,105 nodes, padded to 12 a page: 1,343 pages) on the"
                    + " Java heap and in a temporary mapped store, then measures in this process:",
            "  passes    depth-first passes over the whole tree (Table 4): one pass on a freshly opened store"
                    + " (cold: every page faulted in, from the OS page cache as it is), two passes (cold + hot),"
                    + " a hot pass; the heap's passes are hot.",
            "  fault     the cost of the first access to a page (Table 3 (4)): (cold pass - heap pass) / faults.",
            "  searches  --searches seeded random root-to-leaf searches, cold (store reopened) and hot.",
            "  logging   --commits transactions of --updates-per-commit searches that count a visit at their leaf,"
                    + " committed with diff logging and with full-page logging: commit time and log bytes.",
            "Ratios are over the heap (logging: over diff logging), measured in this run, beside the paper's"
                    + " (a DEC MicroVax 3200, 1990). Times are the fastest of --reps (hot) and --cold-reps (cold)"
                    + " rounds, the least disturbed on a shared machine; commit times are medians.",
            "Takes about a minute on 2 cores with the defaults."
        },
        footer = {
            "",
            "Examples:",
            "  qs lab cricket                         the paper's tree, the default sizes",
            "  qs lab cricket --searches 10000 --reps 9",
            "  qs lab cricket --json > cricket.json   everything as JSON (the table is not printed)",
            "  qs lab cricket --depth 3 --fanout 6    a small tree (259 nodes)"
        })
public final class CricketCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--searches",
            defaultValue = "1000",
            description = "random root-to-leaf searches per measurement (default: ${DEFAULT-VALUE})")
    int searches;

    @Option(
            names = "--reps",
            defaultValue = "5",
            description = "hot measurements, the fastest reported (default: ${DEFAULT-VALUE})")
    int reps;

    @Option(
            names = "--cold-reps",
            defaultValue = "3",
            description = "cold measurements, each on a fresh opening of the store, the fastest reported (default:"
                    + " ${DEFAULT-VALUE})")
    int coldReps;

    @Option(
            names = "--warmup",
            defaultValue = "10",
            description = "warm-up rounds of each traversal before measuring (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(
            names = "--warmup-ms",
            defaultValue = "2000",
            description = "and warm up for at least this long: the JIT compiles late on a loaded machine (default:"
                    + " ${DEFAULT-VALUE})")
    long warmupMillis;

    @Option(names = "--seed", defaultValue = "42", description = "seed of the searches (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(
            names = "--commits",
            defaultValue = "200",
            description = "update transactions per logging mode (default: ${DEFAULT-VALUE})")
    int commits;

    @Option(
            names = "--updates-per-commit",
            defaultValue = "10",
            description = "update searches per transaction (default: ${DEFAULT-VALUE})")
    int updatesPerCommit;

    @Option(
            names = "--depth",
            defaultValue = "4",
            description = "levels below the root, 1..6 (default: the paper's ${DEFAULT-VALUE})")
    int depth;

    @Option(
            names = "--fanout",
            defaultValue = "11",
            description = "children per inner node, 1..11 (default: the paper's ${DEFAULT-VALUE})")
    int fanout;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "create the store in DIR (new or empty) and keep it (default: a temporary directory,"
                    + " removed at exit)")
    Path dir;

    @Option(
            names = "--drop-caches",
            description = "empty the OS page cache before each cold measurement (needs root; the output says whether"
                    + " it was done): cold from disk, Table 3 (5)")
    boolean dropCaches;

    @Option(names = "--quiet", description = "no progress on stderr")
    boolean quiet;

    @ArgGroup(exclusive = true)
    Format format;

    static final class Format {
        @Option(names = "--json", required = true, description = "print the results as JSON instead of the table")
        boolean json;

        @Option(names = "--csv", required = true, description = "print the rows as CSV instead of the table")
        boolean csv;
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TreeShape shape = TreeShape.of(depth, fanout);
        var config = new TreeSearchBenchmark.Config(
                shape,
                searches,
                reps,
                coldReps,
                warmup,
                warmupMillis,
                seed,
                commits,
                updatesPerCommit,
                dir,
                dropCaches,
                StoreOptions.defaults());
        Results r = TreeSearchBenchmark.run(config, LabOutput.progress(err, "cricket", quiet));
        LabOutput.print(
                out,
                format != null && format.json,
                format != null && format.csv,
                r,
                r.rows(),
                CSV_HEADER,
                CricketCommand::csvCells,
                x -> table(out, x));
        return LabOutput.exitCode(
                err, r.agree(), () -> "cricket: the mapped store's results differ from the heap's: " + r.digests());
    }

    static final String CSV_HEADER =
            "table,workload,phase,system,ops,ms,usPerOp,faultsPerOp,pagesRead,logBytesPerOp,ratio,paperMs,"
                    + "paperUsPerOp,paperRatio";

    static List<String> csvCells(Row x) {
        return List.of(
                x.table(),
                '"' + x.workload() + '"',
                x.phase(),
                x.system(),
                Long.toString(x.ops()),
                num(x.ms()),
                num(x.usPerOp()),
                num(x.faultsPerOp()),
                num(x.pagesRead()),
                num(x.logBytesPerOp()),
                num(x.ratio()),
                num(x.paperMs()),
                num(x.paperUsPerOp()),
                num(x.paperRatio()));
    }

    static void table(PrintWriter out, Results r) {
        TreeShape s = r.config().shape();
        out.printf(
                Locale.ROOT,
                "Cricket tree search (Shekita & Zwilling 1990, section 6.2): depth %d, fanout %d, %,d nodes, %d a page%n",
                s.depth(),
                s.fanout(),
                r.nodes(),
                s.nodesPerPage());
        out.printf(
                Locale.ROOT,
                "qs: the tree on %,d pages of %,d bytes, volume %,d pages (paper: %,d pages of 4 KB); %s%n",
                r.treePages(),
                r.pageSize(),
                r.volumePages(),
                CricketPaper.TREE_PAGES,
                r.config().dir() == null
                        ? "temporary store, removed at exit"
                        : "store kept in " + r.config().dir());
        out.printf(
                Locale.ROOT,
                "seed %d; %d cold (store reopened, OS page cache %s), %d warm-up, %d hot rounds; times: the fastest round"
                        + " (commits: the median)%n",
                r.config().seed(),
                r.config().coldReps(),
                r.coldDroppedOsCache() ? "emptied" : "as it is",
                r.warmupRounds(),
                r.config().reps());

        out.println();
        out.println("Depth-first passes (Table 4)");
        out.printf(
                Locale.ROOT,
                "%-9s %-5s %-8s %10s %8s %8s %8s %10s %8s%n",
                "workload",
                "sys",
                "phase",
                "ms",
                "/heap",
                "faults",
                "read",
                "paper ms",
                "/heap");
        for (Row x : rows(r, "passes")) {
            out.printf(
                    Locale.ROOT,
                    "%-9s %-5s %-8s %10.3f %8s %8s %8s %10s %8s%n",
                    x.workload(),
                    x.system(),
                    x.phase(),
                    x.ms(),
                    ratio(x.ratio()),
                    count(x.faultsPerOp() == null ? null : x.faultsPerOp() * x.ops()),
                    count(x.pagesRead() == null ? null : x.pagesRead() * x.ops()),
                    x.paperMs() == null ? "-" : String.format(Locale.ROOT, "%,.0f", x.paperMs()),
                    ratio(x.paperRatio()));
        }
        out.printf(
                Locale.ROOT,
                "paper, EXODUS (ReadObject/ReleaseObject per node): 1 pass %,.0f ms (%.2fx), 2 passes %,.0f ms (%.2fx)%n",
                CricketPaper.EXODUS_ONE_PASS_MS,
                CricketPaper.EXODUS_ONE_PASS_MS / CricketPaper.HEAP_ONE_PASS_MS,
                CricketPaper.EXODUS_TWO_PASSES_MS,
                CricketPaper.EXODUS_TWO_PASSES_MS / CricketPaper.HEAP_TWO_PASSES_MS);

        out.println();
        out.println("First access to a page (Table 3): (cold pass - heap pass) / faults");
        out.printf(
                Locale.ROOT,
                "%-5s %8s %12s %12s %12s %14s%n",
                "sys",
                "faults",
                "us/page",
                "heap nodes",
                "paper us",
                "heap nodes");
        for (Row x : rows(r, "fault")) {
            out.printf(
                    Locale.ROOT,
                    "%-5s %8d %12.2f %12.1f %12s %14.1f%n",
                    x.system(),
                    x.ops(),
                    x.usPerOp(),
                    x.ratio(),
                    String.format(Locale.ROOT, "%,.0f", x.paperUsPerOp()),
                    x.paperRatio());
        }
        out.println("heap nodes: the page's cost in depth-first node visits on the heap, same machine (paper: Table 3"
                + " (4) over Table 4's 789 ms / 16,105 nodes)");
        out.printf(
                Locale.ROOT,
                "of which in the C fault handler (signal to return: pread, checksum, mprotect): %.2f us per fault%n",
                r.handlerUsPerFault());

        out.println();
        out.println("Random root-to-leaf searches");
        out.printf(
                Locale.ROOT,
                "%-16s %-5s %-6s %10s %10s %8s %10s %8s%n",
                "workload",
                "sys",
                "phase",
                "ms",
                "us/search",
                "/heap",
                "faults/s",
                "read");
        for (Row x : rows(r, "searches")) {
            out.printf(
                    Locale.ROOT,
                    "%-16s %-5s %-6s %10.3f %10.3f %8s %10s %8s%n",
                    x.workload(),
                    x.system(),
                    x.phase(),
                    x.ms(),
                    x.usPerOp(),
                    ratio(x.ratio()),
                    x.faultsPerOp() == null ? "-" : String.format(Locale.ROOT, "%.3f", x.faultsPerOp()),
                    count(x.pagesRead()));
        }

        out.println();
        out.printf(
                Locale.ROOT,
                "Commit logging (section 5.3): %d transactions of %d update searches each%n",
                r.config().commits(),
                r.config().updatesPerCommit());
        out.printf(Locale.ROOT, "%-8s %14s %8s %14s %8s%n", "sys", "commit us", "/diff", "log B/commit", "/diff");
        List<Row> logging = rows(r, "logging");
        Double diffBytes = logging.isEmpty() ? null : logging.get(0).logBytesPerOp();
        for (Row x : logging) {
            out.printf(
                    Locale.ROOT,
                    "%-8s %14.1f %8s %14.0f %8s%n",
                    x.system(),
                    x.usPerOp(),
                    ratio(x.ratio()),
                    x.logBytesPerOp(),
                    x.ratio() == null ? "-" : ratio(x.logBytesPerOp() / diffBytes));
        }
        out.printf(
                Locale.ROOT,
                "%-8s %12s %8s %10s %8s %8s %8s %8s%n",
                "sys",
                "REDO B",
                "records",
                "pre-image",
                "diff",
                "append",
                "flush",
                "total");
        for (TreeSearchBenchmark.CommitBreakdown b : r.commitBreakdown()) {
            out.printf(
                    Locale.ROOT,
                    "%-8s %12.0f %8.2f %10.1f %8.1f %8.1f %8.1f %8.1f%n",
                    b.system(),
                    b.redoBytes(),
                    b.redoRecords(),
                    b.preimageUs(),
                    b.diffUs(),
                    b.appendUs(),
                    b.flushUs(),
                    b.totalUs());
        }
        out.println("per commit, us (means; REDO B: bytes of the REDO records); rounds: diffs, full, full, diffs");
        out.printf(
                Locale.ROOT,
                "steals during the updates: %d%s%n",
                r.steals(),
                r.steals() == 0
                        ? " (the tree fits the buffer pool: no page left before its commit, no-steal in effect)"
                        : " (pages written back before commit, with undo records)");
        out.println();
        out.println(
                r.agree()
                        ? "results: heap and qs agree (pass, search and visit-counter digests)"
                        : "results: heap and qs DISAGREE: " + r.digests());
    }

    private static List<Row> rows(Results r, String table) {
        return r.rows().stream().filter(x -> x.table().equals(table)).toList();
    }

    private static String count(Double v) {
        return v == null ? "-" : String.format(Locale.ROOT, "%.0f", v);
    }
}
