package dev.quickstore.cli.lab;

import static dev.quickstore.cli.lab.LabOutput.num;
import static dev.quickstore.cli.lab.LabOutput.ratio;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.lab.writes.WriteDetectionLab;
import dev.quickstore.lab.writes.WriteDetectionLab.Results;
import dev.quickstore.lab.writes.WriteDetectionLab.Row;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code qs lab hosking-moss}: Hosking and Moss's write-detection experiments on the store's five schemes
 * ({@link WriteDetectionLab}): cost per update, checkpoint cost against the fraction updated, card sizes 2^k, OO7
 * small T1/T2A/T2B/T2C. A table on stdout (or {@code --json}/{@code --csv}), progress on stderr; exit 1 if a
 * scheme's results differ from the heap's.
 */
@Command(
        name = "hosking-moss",
        mixinStandardHelpOptions = true,
        header = "Hosking & Moss's five write-detection schemes: cost per update, checkpoint cost vs fraction"
                + " updated, card sizes, OO7.",
        description = {
            "Builds --parts parts (OO1-sized objects, 56 bytes) in a temporary mapped store and reopens it once per"
                    + " write-detection scheme: pages (page protection: write faults), cards-N (card marking with"
                    + " N-byte cards, one row per --cards size), objects (object marking), remsets (remembered sets"
                    + " of updated words), scan (no barrier: every resident page pre-imaged and diffed). All pages"
                    + " resident (hot). Then measures in this process:",
            "  per-update   one transaction updates --update-parts random parts once (first) and --repeats more"
                    + " times (repeated): ns per update, over the same loop on heap objects (the paper's Table III).",
            "  checkpoint   per --fractions f, a transaction increments two fields of f x parts: begin, run and"
                    + " commit (the checkpoint) apart, REDO bytes, pages diffed; ratio (begin + commit) over pages"
                    + " (the paper's hot-update figures against the fraction of parts modified).",
            "  oo7          OO7 small T1, T2A, T2B, T2C hot on the heap and in a store per scheme (cards at 512 B);"
                    + " counts checked against the heap's.",
            "Times are the fastest of --reps transactions (the least disturbed on a shared machine) after a warm-up"
                    + " round over every scheme and 3 unmeasured transactions on each (OO7: medians); ratios are within"
                    + " this run. Takes about two to three minutes on 2 cores with the defaults."
        },
        footer = {
            "",
            "Examples:",
            "  qs lab hosking-moss                               the defaults",
            "  qs lab hosking-moss --oo7-reps 0 --reps 9         no OO7, more repetitions",
            "  qs lab hosking-moss --fractions 0.01,0.5 --cards 128,4096",
            "  qs lab hosking-moss --json > hm.json              everything as JSON (the table is not printed)"
        })
public final class HoskingMossCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--parts",
            defaultValue = "20000",
            description = "parts in the database (default: ${DEFAULT-VALUE})")
    int parts;

    @Option(
            names = "--update-parts",
            defaultValue = "5000",
            description = "parts the per-update transaction updates (default: ${DEFAULT-VALUE})")
    int updateParts;

    @Option(
            names = "--repeats",
            defaultValue = "4",
            description = "repeated updates of each of them after the first (default: ${DEFAULT-VALUE})")
    int repeats;

    @Option(
            names = "--fractions",
            split = ",",
            defaultValue = "0.001,0.01,0.05,0.1,0.25,0.5,1",
            description = "fractions of the parts the checkpoint transactions update (default: ${DEFAULT-VALUE})")
    List<Double> fractions;

    @Option(
            names = "--cards",
            split = ",",
            defaultValue = "128,256,512,1024,2048,4096",
            description = "card sizes in bytes, powers of two from pageSize/64 to pageSize (default: ${DEFAULT-VALUE})")
    List<Integer> cards;

    @Option(
            names = "--reps",
            defaultValue = "5",
            description = "measured transactions per point, the fastest reported (default: ${DEFAULT-VALUE})")
    int reps;

    @Option(
            names = "--oo7-reps",
            defaultValue = "3",
            description = "hot repetitions of each OO7 operation; 0 skips OO7 (default: ${DEFAULT-VALUE})")
    int oo7Reps;

    @Option(names = "--seed", defaultValue = "42", description = "seed of the updates (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "build the stores in DIR (new or empty) and keep the parts store (default: a temporary"
                    + " directory, removed at exit)")
    Path dir;

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
        var config = new WriteDetectionLab.Config(
                parts, updateParts, repeats, fractions, cards, reps, seed, oo7Reps, dir, StoreOptions.defaults());
        Results r = WriteDetectionLab.run(config, LabOutput.progress(err, "hosking-moss", quiet));
        LabOutput.print(
                out,
                format != null && format.json,
                format != null && format.csv,
                r,
                r.rows(),
                CSV_HEADER,
                HoskingMossCommand::csvCells,
                x -> table(out, x));
        return LabOutput.exitCode(
                err, r.agree(), () -> "hosking-moss: results differ from the heap's: " + r.disagreements());
    }

    static final String CSV_HEADER =
            "table,scheme,fraction,operation,nsPerUpdate,beginMs,runMs,commitMs,flushMs,ratio,logBytes,pagesDiffed,"
                    + "writeFaults,count,heapCount";

    static List<String> csvCells(Row x) {
        return List.of(
                x.table(),
                x.scheme(),
                num(x.fraction()),
                x.operation(),
                num(x.nsPerUpdate()),
                num(x.beginMs()),
                num(x.runMs()),
                num(x.commitMs()),
                num(x.flushMs()),
                num(x.ratio()),
                Long.toString(x.logBytes()),
                Long.toString(x.pagesDiffed()),
                Long.toString(x.writeFaults()),
                Long.toString(x.count()),
                x.heapCount() == null ? "" : Long.toString(x.heapCount()));
    }

    static void table(PrintWriter out, Results r) {
        var c = r.config();
        out.printf(
                Locale.ROOT,
                "Hosking & Moss write detection: %,d parts on %,d pages of %,d bytes, all resident; seed %d; fastest of"
                        + " %d transactions%n",
                c.parts(),
                r.databasePages(),
                r.pageSize(),
                c.seed(),
                c.reps());

        out.println();
        out.printf(
                Locale.ROOT,
                "Cost per update (paper: Table III): %,d random parts, first update then %d repeats; heap: %.2f ns"
                        + " first, %.2f ns repeated%n",
                c.updateParts(),
                c.repeats(),
                r.heapFirstNs(),
                r.heapRepeatedNs());
        out.printf(
                Locale.ROOT,
                "%-12s %12s %8s %12s %8s %10s %10s %10s %12s%n",
                "scheme",
                "first ns",
                "/heap",
                "repeated ns",
                "/heap",
                "begin ms",
                "commit ms",
                "force ms",
                "write faults");
        List<Row> per = rows(r, "per-update");
        for (int i = 0; i + 1 < per.size(); i += 2) {
            Row f = per.get(i);
            Row rp = per.get(i + 1);
            out.printf(
                    Locale.ROOT,
                    "%-12s %12.1f %8s %12.1f %8s %10.3f %10.3f %10.3f %12d%n",
                    f.scheme(),
                    f.nsPerUpdate(),
                    ratio(f.ratio()),
                    rp.nsPerUpdate(),
                    ratio(rp.ratio()),
                    f.beginMs(),
                    f.commitMs(),
                    f.flushMs(),
                    f.writeFaults());
        }
        for (String s : r.paperPerUpdate()) {
            out.println("paper: " + s);
        }

        out.println();
        out.println("Checkpoint ms (begin + commit, without the log force) against the fraction of parts updated"
                + " (paper: hot update figures); (x): over pages");
        List<Row> cp = rows(r, "checkpoint");
        List<Double> fr = c.fractions();
        StringBuilder h = new StringBuilder(String.format(Locale.ROOT, "%-12s", "scheme"));
        for (double f : fr) {
            h.append(String.format(Locale.ROOT, " %17s", "f=" + trim(f)));
        }
        out.println(h);
        for (String scheme : schemes(cp)) {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-12s", scheme));
            for (double f : fr) {
                Row x = find(cp, scheme, f);
                b.append(String.format(
                        Locale.ROOT, " %9.3f %7s", x.beginMs() + x.commitMs(), "(" + ratio(x.ratio()) + ")"));
            }
            out.println(b);
        }
        out.println();
        out.println("REDO bytes per checkpoint and pages diffed");
        h = new StringBuilder(String.format(Locale.ROOT, "%-12s", "scheme"));
        for (double f : fr) {
            h.append(String.format(Locale.ROOT, " %17s", "f=" + trim(f)));
        }
        out.println(h);
        for (String scheme : schemes(cp)) {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-12s", scheme));
            for (double f : fr) {
                Row x = find(cp, scheme, f);
                b.append(String.format(Locale.ROOT, " %10d %6d", x.logBytes(), x.pagesDiffed()));
            }
            out.println(b);
        }
        out.println();
        out.println("Run phase of the checkpoint transactions: ns per updated part (two field stores)");
        out.println(h);
        for (String scheme : schemes(cp)) {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%-12s", scheme));
            for (double f : fr) {
                b.append(String.format(
                        Locale.ROOT, " %17.1f", find(cp, scheme, f).nsPerUpdate()));
            }
            out.println(b);
        }
        for (String s : r.paperCheckpoint()) {
            out.println("paper: " + s);
        }

        List<Row> oo7 = rows(r, "oo7");
        if (!oo7.isEmpty()) {
            out.println();
            out.println("OO7 small, hot (medians; commit without the log force); (x): operation + commit over pages");
            out.printf(
                    Locale.ROOT,
                    "%-10s %-5s %10s %10s %8s %12s %8s %8s%n",
                    "scheme",
                    "op",
                    "op ms",
                    "commit ms",
                    "/pages",
                    "write faults",
                    "count",
                    "= heap");
            for (Row x : oo7) {
                out.printf(
                        Locale.ROOT,
                        "%-10s %-5s %10.3f %10.3f %8s %12d %8d %8s%n",
                        x.scheme(),
                        x.operation(),
                        x.runMs(),
                        x.commitMs(),
                        ratio(x.ratio()),
                        x.writeFaults(),
                        x.count(),
                        x.heapCount() != null && x.heapCount() == x.count() ? "yes" : "NO");
            }
        }
        out.println();
        for (String s : r.paperConclusions()) {
            out.println("paper: " + s);
        }
        out.println("commit ms: the commit without its log force and the store checkpoint (write-back) that may follow;"
                + " force ms: those two (the same REDO bytes for every scheme); the checkpoint tables leave them out");
        out.println(
                r.agree()
                        ? "results: every scheme agrees with the heap (parts' fields after all updates; OO7 counts)"
                        : "results: DISAGREE: " + r.disagreements());
    }

    private static List<Row> rows(Results r, String table) {
        return r.rows().stream().filter(x -> x.table().equals(table)).toList();
    }

    private static List<String> schemes(List<Row> rows) {
        return new ArrayList<>(
                new LinkedHashSet<>(rows.stream().map(Row::scheme).toList()));
    }

    private static Row find(List<Row> rows, String scheme, double f) {
        return rows.stream()
                .filter(x -> x.scheme().equals(scheme) && x.fraction() == f)
                .findFirst()
                .orElseThrow();
    }

    private static String trim(double f) {
        return f == Math.rint(f) ? Long.toString((long) f) : Double.toString(f);
    }
}
