package dev.quickstore.lab.cricket;

import static dev.quickstore.lab.cricket.Repetitions.fastest;
import static dev.quickstore.lab.cricket.Repetitions.median;
import static dev.quickstore.lab.cricket.Repetitions.ms;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.lab.cricket.TreeSearchBenchmark.Row;
import java.util.List;

/**
 * Depth-first passes over the mapped tree and the cost of a first access per page (Shekita and Zwilling 1990,
 * section 6.2, Table 4 and Table 3's (4)): "a persistent tree is searched in a depth-first manner ... No processing
 * is done on a node other than to follow its edges". Cold passes run on a fresh opening, the first pass faulting the
 * tree in and a second pass hot in the same opening; hot passes run in one transaction. Rows of the {@code passes}
 * and {@code fault} tables, over the heap's passes ({@link HeapTimes}).
 */
final class PassMeasurement {
    /**
     * @param rows the passes and fault rows
     * @param handlerUsPerFault time inside the C fault handler per read fault of the cold pass (median)
     */
    record Outcome(List<Row> rows, double handlerUsPerFault) {}

    private PassMeasurement() {}

    static Outcome run(ComparedTrees t, HeapTimes heap) {
        TreeSearchBenchmark.Config config = t.config;
        int pageSize = t.pageSize();
        // ---- qs passes: cold (fresh opening), then a second pass hot ----
        double[] cold1 = new double[config.coldReps()];
        double[] cold2 = new double[config.coldReps()];
        double[] coldFaults = new double[config.coldReps()];
        double[] coldRead = new double[config.coldReps()];
        double[] coldHandler = new double[config.coldReps()];
        for (int r = 0; r < config.coldReps(); r++) {
            t.progress.accept("cold passes " + (r + 1) + "/" + config.coldReps() + " (store reopened)");
            t.makeCold(config.options());
            StoreCounters c0 = StoreCounters.of(t.qs.storageManager());
            try (ObjectTransaction tx = t.qs.begin()) {
                long t0 = System.nanoTime();
                TreeNode root = MappedTree.root(tx);
                t.check(ComparedTrees.PASS, MappedTree.pass(root));
                long t1 = System.nanoTime();
                StoreCounters c1 = StoreCounters.of(t.qs.storageManager());
                t.check(ComparedTrees.PASS, MappedTree.pass(root));
                long t2 = System.nanoTime();
                tx.commit();
                cold1[r] = ms(t1 - t0);
                cold2[r] = ms(t2 - t0);
                coldFaults[r] = c1.readFaults() - c0.readFaults();
                coldRead[r] = c1.pagesReadSince(c0, pageSize);
                coldHandler[r] = c1.readFaults() == c0.readFaults()
                        ? 0
                        : (c1.handlerNanos() - c0.handlerNanos()) / 1e3 / (c1.readFaults() - c0.readFaults());
            }
        }
        // ---- qs passes, hot ----
        double[] hot1 = new double[config.reps()];
        double[] hotFaults = new double[config.reps()];
        double[] hotRead = new double[config.reps()];
        t.progress.accept("hot passes: " + config.reps());
        try (ObjectTransaction tx = t.qs.begin()) {
            TreeNode root = MappedTree.root(tx);
            for (int r = 0; r < config.reps(); r++) {
                StoreCounters c0 = StoreCounters.of(t.qs.storageManager());
                long t0 = System.nanoTime();
                t.check(ComparedTrees.PASS, MappedTree.pass(root));
                long t1 = System.nanoTime();
                hot1[r] = ms(t1 - t0);
                StoreCounters c1 = StoreCounters.of(t.qs.storageManager());
                hotFaults[r] = c1.readFaults() - c0.readFaults();
                hotRead[r] = c1.pagesReadSince(c0, pageSize);
            }
            tx.commit();
        }
        double h1 = fastest(heap.onePass());
        double h2 = fastest(heap.twoPasses());
        double c1 = fastest(cold1);
        double c2 = fastest(cold2);
        double faults = median(coldFaults);
        double hot = fastest(hot1);
        double paperHeapNodeUs = CricketPaper.HEAP_ONE_PASS_MS * 1000 / TreeShape.PAPER.nodes();
        double paperHot = CricketPaper.CRICKET_TWO_PASSES_MS - CricketPaper.CRICKET_ONE_PASS_MS;
        double paperHeapHot = CricketPaper.HEAP_TWO_PASSES_MS - CricketPaper.HEAP_ONE_PASS_MS;
        double faultUs = faults > 0 ? (c1 - h1) * 1000 / faults : Double.NaN;
        double heapNodeUs = h1 * 1000 / config.shape().nodes();
        List<Row> rows = List.of(
                new Row(
                        "passes",
                        "1 pass",
                        "hot",
                        "heap",
                        1,
                        h1,
                        h1 * 1000,
                        null,
                        null,
                        null,
                        null,
                        CricketPaper.HEAP_ONE_PASS_MS,
                        null,
                        null),
                new Row(
                        "passes",
                        "1 pass",
                        "cold",
                        "qs",
                        1,
                        c1,
                        c1 * 1000,
                        faults,
                        median(coldRead),
                        null,
                        c1 / h1,
                        CricketPaper.CRICKET_ONE_PASS_MS,
                        null,
                        CricketPaper.CRICKET_ONE_PASS_MS / CricketPaper.HEAP_ONE_PASS_MS),
                new Row(
                        "passes",
                        "2 passes",
                        "hot",
                        "heap",
                        2,
                        h2,
                        h2 * 500,
                        null,
                        null,
                        null,
                        null,
                        CricketPaper.HEAP_TWO_PASSES_MS,
                        null,
                        null),
                new Row(
                        "passes",
                        "2 passes",
                        "cold+hot",
                        "qs",
                        2,
                        c2,
                        c2 * 500,
                        faults / 2,
                        median(coldRead) / 2,
                        null,
                        c2 / h2,
                        CricketPaper.CRICKET_TWO_PASSES_MS,
                        null,
                        CricketPaper.CRICKET_TWO_PASSES_MS / CricketPaper.HEAP_TWO_PASSES_MS),
                new Row(
                        "passes",
                        "1 pass",
                        "hot",
                        "qs",
                        1,
                        hot,
                        hot * 1000,
                        median(hotFaults),
                        median(hotRead),
                        null,
                        hot / h1,
                        paperHot,
                        null,
                        paperHot / paperHeapHot),
                new Row(
                        "fault",
                        "first access to a page",
                        "cold",
                        "qs",
                        Math.round(faults),
                        c1 - h1,
                        faultUs,
                        1.0,
                        median(coldRead),
                        null,
                        faultUs / heapNodeUs,
                        null,
                        CricketPaper.FAULT_CACHED_US,
                        CricketPaper.FAULT_CACHED_US / paperHeapNodeUs));
        return new Outcome(rows, median(coldHandler));
    }
}
