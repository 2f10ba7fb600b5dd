package dev.quickstore.lab.cricket;

import static dev.quickstore.lab.cricket.Repetitions.fastest;
import static dev.quickstore.lab.cricket.Repetitions.median;
import static dev.quickstore.lab.cricket.Repetitions.ms;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.lab.cricket.TreeSearchBenchmark.Row;
import java.util.List;

/**
 * Random root-to-leaf searches (issue 16; the searches of Shekita and Zwilling 1990, section 6.2, with seeded paths
 * rather than a pass): the same searches cold (each measurement on a fresh opening) and hot (again in one
 * transaction), over the heap's ({@link HeapTimes}). Rows of the {@code searches} table.
 */
final class SearchMeasurement {
    private SearchMeasurement() {}

    static List<Row> run(ComparedTrees t, HeapTimes heap) {
        TreeSearchBenchmark.Config config = t.config;
        SearchPaths paths = t.paths;
        int pageSize = t.pageSize();
        double[] coldS = new double[config.coldReps()];
        double[] coldSFaults = new double[config.coldReps()];
        double[] coldSRead = new double[config.coldReps()];
        for (int r = 0; r < config.coldReps(); r++) {
            t.progress.accept(String.format(
                    "cold searches %d/%d: %,d searches (store reopened)", r + 1, config.coldReps(), paths.count()));
            t.makeCold(config.options());
            StoreCounters k0 = StoreCounters.of(t.qs.storageManager());
            try (ObjectTransaction tx = t.qs.begin()) {
                long t0 = System.nanoTime();
                TreeNode root = MappedTree.root(tx);
                t.check(ComparedTrees.SEARCH, MappedTree.search(root, paths, 0, paths.count()));
                long t1 = System.nanoTime();
                tx.commit();
                StoreCounters k1 = StoreCounters.of(t.qs.storageManager());
                coldS[r] = ms(t1 - t0);
                coldSFaults[r] = k1.readFaults() - k0.readFaults();
                coldSRead[r] = k1.pagesReadSince(k0, pageSize);
            }
        }
        double[] hotS = new double[config.reps()];
        double[] hotSFaults = new double[config.reps()];
        double[] hotSRead = new double[config.reps()];
        t.progress.accept("hot searches: " + config.reps() + " x " + paths.count());
        try (ObjectTransaction tx = t.qs.begin()) {
            TreeNode root = MappedTree.root(tx);
            for (int r = 0; r < config.reps(); r++) {
                StoreCounters k0 = StoreCounters.of(t.qs.storageManager());
                long t0 = System.nanoTime();
                t.check(ComparedTrees.SEARCH, MappedTree.search(root, paths, 0, paths.count()));
                hotS[r] = ms(System.nanoTime() - t0);
                StoreCounters k1 = StoreCounters.of(t.qs.storageManager());
                hotSFaults[r] = k1.readFaults() - k0.readFaults();
                hotSRead[r] = k1.pagesReadSince(k0, pageSize);
            }
            tx.commit();
        }
        int n = paths.count();
        String searches = String.format("%,d searches", n);
        double hs = fastest(heap.searches());
        return List.of(
                new Row(
                        "searches",
                        searches,
                        "hot",
                        "heap",
                        n,
                        hs,
                        hs * 1000 / n,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null),
                qsRow(searches, "cold", n, fastest(coldS), coldSFaults, coldSRead, hs),
                qsRow(searches, "hot", n, fastest(hotS), hotSFaults, hotSRead, hs));
    }

    /** The mapped tree's row: {@code ms} for {@code n} searches (faults and pages read: medians), over the heap's. */
    private static Row qsRow(
            String workload, String phase, int n, double ms, double[] faults, double[] read, double heapMs) {
        return new Row(
                "searches",
                workload,
                phase,
                "qs",
                n,
                ms,
                ms * 1000 / n,
                median(faults) / n,
                median(read),
                null,
                ms / heapMs,
                null,
                null,
                null);
    }
}
