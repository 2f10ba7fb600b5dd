package dev.quickstore.lab.cricket;

import dev.quickstore.core.options.CommitLogging;
import dev.quickstore.core.options.StoreOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Cricket's tree-search benchmark (Shekita and Zwilling 1990, section 6.2, Tables 3 and 4) on the heap ({@link
 * HeapTree}) and in the mapped store ({@link MappedTree}), in one process, every ratio taken in this run.
 *
 * <ul>
 *   <li><b>Depth-first passes</b> (Table 4): "a persistent tree is searched in a depth-first manner ... No
 *       processing is done on a node other than to follow its edges". The paper's one-pass time had the tree in
 *       kernel memory and paid a fault and an exception per page; ours is the first pass of a fresh store opening
 *       with the OS page cache as it is ({@code cold}); two passes add a second, hot pass in the same opening.
 *       The heap's passes are hot, as the paper's non-persistent tree. Every time here is the fastest of its
 *       repetitions ({@code reps} hot, {@code coldReps} cold, after {@code warmup} rounds), the one least
 *       disturbed on a shared machine; commit times are medians.</li>
 *   <li><b>First access per page</b> (Table 3's (4), the paper's validation "789 msec for the base cost of
 *       executing the search code, plus 4,842 msec for the cost of handling page faults and exceptions on 1,343
 *       pages"): (cold one pass - heap one pass) / read faults.</li>
 *   <li><b>Random root-to-leaf searches</b> (issue 16): {@code searches} seeded searches, cold (a fresh opening)
 *       and hot (the same searches again).</li>
 *   <li><b>Update searches and commit logging</b> (section 5.3): transactions of {@code updatesPerCommit} searches
 *       that count a visit at their leaf, committed with diff logging ({@link CommitLogging#PAGE_DIFFS}) and with
 *       full-page logging ({@link CommitLogging#FULL_PAGES}), in four rounds of half the transactions each, diffs,
 *       full, full, diffs (so that a drift of the machine during the run falls on both equally): commit time
 *       (median), log bytes per commit, where commit time went ({@link CommitBreakdown}), steals (none when the
 *       tree fits the buffer pool: the run is then no-steal, as Cricket's recovery required).</li>
 * </ul>
 *
 * Every traversal is run on both trees with the same paths and their digests are compared ({@link
 * Results#agree()}). This class holds what is run and what comes out and runs the steps in order; the two trees and
 * the digest check are {@link ComparedTrees}, the steps {@link HeapTimes}, {@link PassMeasurement}, {@link
 * SearchMeasurement} and {@link CommitLoggingExperiment}.
 */
public final class TreeSearchBenchmark {
    /**
     * What to run.
     *
     * @param shape the tree ({@link TreeShape#PAPER} by default)
     * @param searches random root-to-leaf searches per measurement
     * @param reps hot measurements and heap measurements (the fastest is reported)
     * @param coldReps cold measurements (each on a fresh opening; the fastest is reported)
     * @param warmup hot rounds of every traversal before measuring (JIT)
     * @param warmupMillis and at least this long: the JIT's compiler threads get little CPU on a loaded machine,
     *     and a round count alone then measures code that is not compiled yet
     * @param seed seed of the searches (the update searches, distinct for each transaction of both modes, use {@code
     *     seed + 1})
     * @param commits update transactions per logging mode (in two rounds)
     * @param updatesPerCommit update searches per transaction
     * @param dir where the store is created (must not exist or be empty; kept), or null for a temporary directory
     *     deleted at the end
     * @param dropCaches empty the OS page cache before each cold measurement (root only; else reported as not done)
     * @param options storage-manager options of the mapped store
     */
    public record Config(
            TreeShape shape,
            int searches,
            int reps,
            int coldReps,
            int warmup,
            long warmupMillis,
            long seed,
            int commits,
            int updatesPerCommit,
            Path dir,
            boolean dropCaches,
            StoreOptions options) {
        public Config {
            Objects.requireNonNull(shape, "shape");
            Objects.requireNonNull(options, "options");
            if (searches < 1
                    || reps < 1
                    || coldReps < 1
                    || warmup < 0
                    || warmupMillis < 0
                    || commits < 1
                    || updatesPerCommit < 1) {
                throw new IllegalArgumentException("searches, reps, cold reps, commits and updates per commit must be"
                        + " at least 1 and warm-up at least 0: " + searches + ", " + reps + ", " + coldReps + ", "
                        + commits + ", " + updatesPerCommit + ", " + warmup);
            }
        }

        /** The paper's tree and the defaults of {@code qs lab cricket}. */
        public static Config defaults() {
            return new Config(TreeShape.PAPER, 1000, 5, 3, 10, 2000, 42, 200, 10, null, false, StoreOptions.defaults());
        }
    }

    /**
     * One measurement row.
     *
     * @param table passes, fault, searches or logging
     * @param workload what was run
     * @param phase cold (first use after a fresh opening), hot, cold+hot, or commit
     * @param system heap, qs, qs-diff or qs-full
     * @param ops operations in one measurement (passes, searches, page faults, commits)
     * @param ms the measurement's time, ms: the fastest of its repetitions (logging: the median commit)
     * @param usPerOp {@code ms} per operation, microseconds
     * @param faultsPerOp read faults per operation (null for the heap)
     * @param pagesRead pages read from the volume during one measurement (null for the heap)
     * @param logBytesPerOp log bytes per commit (logging table only)
     * @param ratio over the table's baseline in this run: the heap's same workload; logging: over qs-diff
     * @param paperMs the paper's time for the same workload (Table 4), ms
     * @param paperUsPerOp the paper's time per operation (Table 3), microseconds
     * @param paperRatio the paper's corresponding ratio
     */
    public record Row(
            String table,
            String workload,
            String phase,
            String system,
            long ops,
            double ms,
            double usPerOp,
            Double faultsPerOp,
            Double pagesRead,
            Double logBytesPerOp,
            Double ratio,
            Double paperMs,
            Double paperUsPerOp,
            Double paperRatio) {}

    /**
     * Where the commits of one logging mode spent their time ({@link CommitStats}, means per commit).
     *
     * @param system qs-diff or qs-full
     * @param redoBytes REDO record bytes per commit
     * @param redoRecords REDO records per commit (one per changed page)
     * @param preimageUs copying the pre-images (diffs only), microseconds
     * @param diffUs diffing and encoding the records
     * @param appendUs appending them to the log buffer
     * @param flushUs the COMMIT record and the log force (write + fsync)
     * @param totalUs the whole commit
     */
    public record CommitBreakdown(
            String system,
            double redoBytes,
            double redoRecords,
            double preimageUs,
            double diffUs,
            double appendUs,
            double flushUs,
            double totalUs) {}

    /**
     * Digests of the same traversals on both trees (equal when the mapped tree returned what the heap did).
     *
     * @param heapPass digest of a depth-first pass on the heap
     * @param qsPass on the mapped store (every cold and hot pass; the first that differs if any)
     * @param heapSearch digest of the random searches on the heap
     * @param qsSearch on the mapped store
     * @param heapVisits visit counters on the heap after each round of update transactions (four rounds)
     * @param qsVisits on the mapped store after the same updates, read back after reopening
     */
    public record Digests(
            long heapPass, long qsPass, long heapSearch, long qsSearch, long[] heapVisits, long[] qsVisits) {
        /** Whether every traversal returned the same digest on both trees. */
        public boolean agree() {
            return heapPass == qsPass && heapSearch == qsSearch && Arrays.equals(heapVisits, qsVisits);
        }

        @Override
        public String toString() {
            return "pass heap " + heapPass + " qs " + qsPass + ", searches heap " + heapSearch + " qs " + qsSearch
                    + ", visits heap " + Arrays.toString(heapVisits) + " qs " + Arrays.toString(qsVisits);
        }
    }

    /**
     * The run's results.
     *
     * @param config what was run
     * @param nodes nodes of the tree
     * @param treePages distinct pages holding the mapped tree's nodes
     * @param volumePages pages of the store's volume
     * @param pageSize the store's page size
     * @param coldDroppedOsCache whether the cold measurements ran with the OS page cache emptied
     * @param warmupRounds warm-up rounds run (at least {@code warmup}, more to fill {@code warmupMillis})
     * @param handlerUsPerFault time inside the C fault handler per read fault of the cold pass (median)
     * @param steals pages stolen during the update transactions (0: no-steal in effect)
     * @param commitBreakdown where commit time went, per logging mode (means over the commits)
     * @param rows the measurements
     * @param digests heap against qs
     */
    public record Results(
            Config config,
            int nodes,
            int treePages,
            long volumePages,
            int pageSize,
            boolean coldDroppedOsCache,
            int warmupRounds,
            double handlerUsPerFault,
            long steals,
            List<CommitBreakdown> commitBreakdown,
            List<Row> rows,
            Digests digests) {
        public boolean agree() {
            return digests.agree();
        }
    }

    private final Config config;
    private final Consumer<String> progress;

    private TreeSearchBenchmark(Config config, Consumer<String> progress) {
        this.config = config;
        this.progress = progress;
    }

    /** Runs the benchmark; {@code progress} receives one line per step (the CLI prints them on stderr). */
    public static Results run(Config config, Consumer<String> progress) throws IOException {
        return new TreeSearchBenchmark(config, progress).run();
    }

    private Results run() throws IOException {
        boolean temporary = config.dir() == null;
        Path dir = temporary ? Files.createTempDirectory("qs-cricket-") : config.dir();
        if (!temporary && Files.isDirectory(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                if (s.findAny().isPresent()) {
                    throw new IllegalArgumentException("--dir " + dir + " is not empty: the benchmark creates its"
                            + " store there (give a new or empty directory)");
                }
            }
        }
        Path storeDir = temporary ? dir.resolve("tree") : dir;
        try {
            return measure(storeDir);
        } finally {
            if (temporary) {
                deleteTree(dir);
            }
        }
    }

    /**
     * Builds both trees, warms up, then runs in this order the heap's passes and searches ({@link HeapTimes}), the
     * mapped passes ({@link PassMeasurement}), searches ({@link SearchMeasurement}) and update transactions ({@link
     * CommitLoggingExperiment}).
     */
    private Results measure(Path storeDir) throws IOException {
        TreeShape shape = config.shape();
        progress.accept(String.format(
                "building the tree: depth %d, fanout %d, %,d nodes, %d a page",
                shape.depth(), shape.fanout(), shape.nodes(), shape.nodesPerPage()));
        HeapTree heap = HeapTree.build(shape);
        try (MappedTree qs = MappedTree.create(storeDir, shape, config.options())) {
            int pageSize = qs.storageManager().pageSize();
            long volumePages = qs.storageManager().pageCount();
            progress.accept(String.format(
                    "tree stored on %,d pages (%,d in the volume) in %s", qs.treePages(), volumePages, storeDir));
            ComparedTrees trees = new ComparedTrees(config, progress, heap, qs);
            qs.reopen(config.options());

            progress.accept("warm-up: " + config.warmup() + " rounds of each traversal on heap and qs, at least "
                    + config.warmupMillis() + " ms");
            int rounds = trees.warmUp();
            HeapTimes heapTimes = HeapTimes.measure(trees, config.reps());
            PassMeasurement.Outcome passes = PassMeasurement.run(trees, heapTimes);
            List<Row> searches = SearchMeasurement.run(trees, heapTimes);
            CommitLoggingExperiment.Outcome logging = CommitLoggingExperiment.run(trees);
            List<Row> rows = new ArrayList<>(passes.rows());
            rows.addAll(searches);
            rows.addAll(logging.rows());
            Digests d = new Digests(
                    trees.heapPass,
                    trees.qsDigest(ComparedTrees.PASS),
                    trees.heapSearch,
                    trees.qsDigest(ComparedTrees.SEARCH),
                    logging.heapVisits(),
                    logging.qsVisits());
            return new Results(
                    config,
                    shape.nodes(),
                    qs.treePages(),
                    volumePages,
                    pageSize,
                    config.dropCaches() && trees.droppedAll(),
                    rounds,
                    passes.handlerUsPerFault(),
                    logging.steals(),
                    logging.breakdown(),
                    List.copyOf(rows),
                    d);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("removing the temporary store " + dir, e);
        }
    }
}
