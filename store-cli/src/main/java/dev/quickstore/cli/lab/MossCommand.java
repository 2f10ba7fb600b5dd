package dev.quickstore.cli.lab;

import dev.quickstore.cli.Json;
import dev.quickstore.lab.swizzle.MossLab;
import dev.quickstore.lab.swizzle.MossSeries;
import dev.quickstore.lab.swizzle.MossTables;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code qs lab moss}: Moss's swizzling experiment (Moss 1992, "Working with persistent objects: to swizzle or not to
 * swizzle"; issue 16) regenerated on this machine ({@link MossLab}): every run measured and predicted, the fitted
 * load-work-save parameters beside Moss's Table 12, and the analogues of his Tables 4-21: the create-work-save
 * parameters (Table 13), the creation, loading and preparing breakdowns (Tables 4, 7-11, {@link MossTables}) and the
 * parameter differences (Tables 14-16).
 */
@Command(
        name = "moss",
        mixinStandardHelpOptions = true,
        header = "Moss (1992): to swizzle or not to swizzle (NS, EIS, LIS, ECS, LCS), regenerated.",
        description = {
            "Writes Moss's benchmark collections (binary trees of objects with slots and bytes) into the store's"
                    + " slotted pages, then runs load-work-save sessions on them under the five schemes: NS (no"
                    + " swizzling: an oid lookup per visit), EIS/LIS (eager/lazy in-place swizzling in the page"
                    + " buffers), ECS/LCS (eager/lazy copy swizzling into Java objects), and the same work on a heap"
                    + " model (Moss's non-persistent C). Every scheme must compute the heap model's results.",
            "Fits Moss's cost model LWS = MB*nb + MO*n + MS*np + MI*ni + V*nv + nvw + UB*nbu + UO*nu + US*npu per"
                    + " scheme from the measured runs (n, p, i, b, u, v counted, w measured on the heap model),"
                    + " prints each run's measured time next to the model's, the parameters next to Moss's, and his"
                    + " break-even and ratio tables from them. Times are the fastest of --reps sessions (per phase) measured"
                    + " in this one run; ratios are against NS in the same run.",
            "Create-work-save sessions: at every point of VS, VB, VH, VN and SI without updates each scheme also"
                    + " creates the collection in memory (NS: store objects in new pages; EIS/LIS: transient objects in"
                    + " buffer format; ECS/LCS: Java objects), works, and saves it into a new file; fitted as"
                    + " CWS = PB*nb + PO*n + PS*np + PI*ni + V*nv + nvw (Table 13).",
            "Phase tables beside Moss's: creation (Table 4), eager and lazy loading (Tables 7, 8), load time by object"
                    + " size (Table 9), preparing new, old and modified objects (Tables 10, 11), copy minus in-place"
                    + " and swizzling minus non-swizzling parameters (Tables 15, 16).",
            "Series: VS (vary slots), VB (vary bytes), VH (vary height), VN (vary n at fixed size), SI (initialized"
                    + " slots), BI, II, WS, WB (bytes, integers, slots read per visit), VV (vary visits: break-even by"
                    + " measurement), VT (vary the fraction of the collection touched, 1 to 1/256: lazy and NS load"
                    + " only what they touch). VB, VH, VN and SI also run with every object updated (u=1).",
            "Progress on stderr; the tables on stdout, or --json (runs, parameters, every table) or --csv (one line per"
                    + " run, session and scheme; then, after an empty line, one line per table cell: table, row,"
                    + " column, ours, Moss's). The defaults take about 7 minutes on 2 busy cores;"
                    + " --tables runs only what the named tables need."
        })
public final class MossCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--series",
            split = ",",
            paramLabel = "S",
            description = "series to run, comma separated (default: all: VS,VB,VH,VN,SI,BI,II,WS,WB,VV,VT)")
    List<String> series;

    @Option(
            names = "--tables",
            split = ",",
            paramLabel = "T",
            description = "Moss's tables to regenerate, comma separated numbers 4 to 21 (default: all); chooses the"
                    + " series, unless --series is given (4, 5, 12-17: VS,VB,VH,VN,SI; 18-21: those and VV; 6:"
                    + " BI,II,WS,WB; 7: VS,VB; 8, 9: VS,VB,VH,VN; 10: VH,VN,VB; 11: SI), and whether the"
                    + " create-work-save sessions run (only for 4, 10, 11, 13); the phase tables printed are these")
    List<Integer> tables;

    @Option(
            names = "--objects",
            paramLabel = "N",
            defaultValue = "65535",
            description = "largest collection in objects (heights scale from it; default ${DEFAULT-VALUE})")
    long objects;

    @Option(
            names = "--reps",
            defaultValue = "5",
            description = "measured sessions per point and scheme, after a warm-up one; the fastest counts"
                    + " (default ${DEFAULT-VALUE})")
    int reps;

    @Option(names = "--page-size", defaultValue = "8192", description = "page size (default ${DEFAULT-VALUE})")
    int pageSize;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "chooses the updated objects (default ${DEFAULT-VALUE})")
    long seed;

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "where to write the collection files (default: a temporary directory, removed at exit)")
    Path dir;

    @Option(names = "--json", description = "print everything as JSON instead of tables")
    boolean json;

    @Option(names = "--csv", description = "print one CSV line per run and scheme instead of tables")
    boolean csv;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (objects < 15 || reps < 1) {
            err.println("qs lab moss: --objects must be at least 15 and --reps at least 1");
            return 2;
        }
        List<String> chosen = series;
        boolean create = true;
        if (tables != null) {
            Set<String> fromTables = new java.util.LinkedHashSet<>();
            create = false;
            for (int t : tables) {
                List<String> need = seriesFor(t);
                if (need == null) {
                    err.println("qs lab moss: no table " + t + " to regenerate (--tables takes 4 to 21)");
                    return 2;
                }
                fromTables.addAll(need);
                create |= t == 4 || t == 10 || t == 11 || t == 13;
            }
            if (chosen == null) {
                chosen = MossSeries.ALL.stream().filter(fromTables::contains).toList();
            }
        }
        List<String> names = new ArrayList<>();
        for (String s : chosen == null ? MossSeries.ALL : chosen) {
            String u = s.trim().toUpperCase(Locale.ROOT);
            if (!MossSeries.ALL.contains(u)) {
                err.println(
                        "qs lab moss: unknown series '" + s + "' (one of " + String.join(",", MossSeries.ALL) + ")");
                return 2;
            }
            names.add(u);
        }
        Path work = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("qs-moss");
        MossLab.Report r;
        try {
            r = MossLab.run(new MossLab.Options(names, objects, reps, pageSize, work, seed, create), line -> {
                err.println(line);
                err.flush();
            });
        } finally {
            if (dir == null) {
                try (Stream<Path> files = Files.list(work)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                }
                Files.deleteIfExists(work);
            }
        }
        if (json) {
            out.println(Json.object(new MossRecords(r, phaseTables(r)).json()));
        } else if (csv) {
            new MossRecords(r, phaseTables(r)).csv(out);
        } else {
            new MossTextReport(r, phaseTables(r)).print(out);
        }
        out.flush();
        return 0;
    }

    /** The series a table of Moss's needs, or null if there is no such table. */
    static List<String> seriesFor(int table) {
        List<String> fitted = List.of("VS", "VB", "VH", "VN", "SI");
        return switch (table) {
            case 4, 5, 12, 13, 14, 15, 16, 17 -> fitted;
            case 18, 19, 20, 21 -> List.of("VS", "VB", "VH", "VN", "SI", "VV");
            case 6 -> List.of("BI", "II", "WS", "WB");
            case 7 -> List.of("VS", "VB");
            case 8, 9 -> List.of("VS", "VB", "VH", "VN");
            case 10 -> List.of("VH", "VN", "VB");
            case 11 -> List.of("SI");
            default -> null;
        };
    }

    /** The phase tables to print: those --tables names, or all. */
    private List<MossTables.Table> phaseTables(MossLab.Report r) {
        return MossTables.all(r).stream()
                .filter(t -> tables == null || tables.contains(Integer.valueOf(t.id())))
                .toList();
    }
}
