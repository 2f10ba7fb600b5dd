package dev.quickstore.lab.writes;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.lab.writes.WriteDetectionLab.Row;
import dev.quickstore.lab.writes.WriteDetectionLab.Scheme;
import dev.quickstore.oo7.Oo7Builder;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.Oo7Result;
import dev.quickstore.oo7.Oo7Runner;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * OO7 small under each write-detection scheme (Hosking and Moss, section 4, their OO7 traversals): T1 (traversal)
 * and T2A/T2B/T2C (updates) hot, on the heap and in a mapped store per scheme (cards at the default card size), each
 * count checked against the heap's. {@code oo7} rows, operation + commit over page protection's.
 */
final class Oo7Experiment {
    private static final List<Oo7Operation> OPERATIONS =
            List.of(Oo7Operation.T1, Oo7Operation.T2A, Oo7Operation.T2B, Oo7Operation.T2C);

    private Oo7Experiment() {}

    /** Runs the heap and then every scheme in {@code root}; a count that differs from the heap's is added to {@code disagreements}. */
    static List<Row> run(
            WriteDetectionLab.Config c,
            List<Scheme> schemes,
            Path root,
            List<String> disagreements,
            Consumer<String> progress)
            throws IOException {
        Oo7Runner.Options options = new Oo7Runner.Options(OPERATIONS, c.oo7Reps(), 3);
        progress.accept("oo7 small: heap");
        Map<Oo7Operation, Long> heapCounts = new EnumMap<>(Oo7Operation.class);
        try (HeapOo7Store heap = new HeapOo7Store()) {
            new Oo7Builder(Oo7Config.SMALL, c.seed()).build(heap, Oo7Builder.Progress.NONE);
            Oo7Operations ops = new Oo7Operations(heap, Oo7Config.SMALL, c.seed(), Oo7Operations.Parameters.DEFAULTS);
            for (Oo7Result r : Oo7Runner.runAll(List.of(ops), options, false).get(heap.name())) {
                heapCounts.put(r.operation(), (long) r.count());
            }
        }
        List<Row> rows = new ArrayList<>();
        double[] pagesTotal = new double[OPERATIONS.size()];
        List<Scheme> oo7Schemes = schemes.stream()
                .filter(s -> s.detection() != WriteDetection.CARD_MARKING
                        || s.cardBytes() == StoreOptions.DEFAULT_CARD_BYTES)
                .toList();
        for (Scheme sc : oo7Schemes) {
            progress.accept("oo7 small: " + sc.name());
            Path dir = root.resolve("oo7-" + sc.name());
            try (MappedOo7Store store = MappedOo7Store.create(dir, false, sc.options(c.base()), ObjectPadding.NONE)) {
                new Oo7Builder(Oo7Config.SMALL, c.seed()).build(store, Oo7Builder.Progress.NONE);
                Oo7Operations ops =
                        new Oo7Operations(store, Oo7Config.SMALL, c.seed(), Oo7Operations.Parameters.DEFAULTS);
                List<Oo7Result> results =
                        Oo7Runner.runAll(List.of(ops), options, false).get(store.name());
                for (Oo7Result r : results) {
                    int k = OPERATIONS.indexOf(r.operation());
                    double opMs = r.medianOpNanos() / 1e6;
                    Long flushNs = r.counters().get("commitFlushNanos");
                    double flushMs = flushNs == null ? 0 : flushNs / 1e6;
                    double commitMs = r.medianCommitNanos() / 1e6 - flushMs;
                    if (sc.detection() == WriteDetection.PAGE_PROTECTION) {
                        pagesTotal[k] = opMs + commitMs;
                    }
                    long heapCount = heapCounts.get(r.operation());
                    if (heapCount != r.count()) {
                        disagreements.add(
                                sc.name() + " oo7 " + r.operation() + ": count " + r.count() + ", heap " + heapCount);
                    }
                    Long wf = r.counters().get("writeFaults");
                    rows.add(new Row(
                            "oo7",
                            sc.name(),
                            null,
                            r.operation().name(),
                            null,
                            0,
                            opMs,
                            commitMs,
                            flushMs,
                            pagesTotal[k] > 0 ? (opMs + commitMs) / pagesTotal[k] : null,
                            0,
                            0,
                            wf == null ? 0 : wf,
                            r.count(),
                            heapCount));
                }
            }
            WriteDetectionLab.deleteTree(dir);
        }
        return rows;
    }
}
