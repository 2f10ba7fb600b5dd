package dev.quickstore.lab.cricket;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.core.Store;
import dev.quickstore.core.options.CommitLogging;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.oo7.mapped.ColdRun;
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
 * Results#agree()}).
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

    /** The logging systems, by {@link CommitLogging#ordinal()}. */
    static final String[] SYSTEMS = {"qs-diff", "qs-full"};

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
    private final SearchPaths paths;
    private final SearchPaths updatePaths;
    private boolean droppedAll = true;
    private final boolean[] mismatched = new boolean[2];
    private long sink; // keeps the JIT from dropping a traversal whose digest is not otherwise used

    private TreeSearchBenchmark(Config config, Consumer<String> progress) {
        this.config = config;
        this.progress = progress;
        this.paths = SearchPaths.random(config.shape(), config.searches(), config.seed());
        this.updatePaths =
                SearchPaths.random(config.shape(), 2 * config.commits() * config.updatesPerCommit(), config.seed() + 1);
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

    private Results measure(Path storeDir) throws IOException {
        TreeShape shape = config.shape();
        List<Row> rows = new ArrayList<>();
        progress.accept(String.format(
                "building the tree: depth %d, fanout %d, %,d nodes, %d a page",
                shape.depth(), shape.fanout(), shape.nodes(), shape.nodesPerPage()));
        HeapTree heap = HeapTree.build(shape);
        try (MappedTree qs = MappedTree.create(storeDir, shape, config.options())) {
            int pageSize = qs.storageManager().pageSize();
            long volumePages = qs.storageManager().pageCount();
            progress.accept(String.format(
                    "tree stored on %,d pages (%,d in the volume) in %s", qs.treePages(), volumePages, storeDir));
            long heapPass = heap.pass();
            long heapSearch = heap.search(paths, 0, paths.count());
            long[] qsDigests = {heapPass, heapSearch}; // replaced by the first mismatch
            qs.reopen(config.options());

            progress.accept("warm-up: " + config.warmup() + " rounds of each traversal on heap and qs, at least "
                    + config.warmupMillis() + " ms");
            long warmupEnd = System.nanoTime() + config.warmupMillis() * 1_000_000;
            int rounds = 0;
            for (; rounds < config.warmup() || System.nanoTime() - warmupEnd < 0; rounds++) {
                sink += heap.pass() + heap.search(paths, 0, paths.count());
                try (ObjectTransaction tx = qs.begin()) {
                    TreeNode root = MappedTree.root(tx);
                    check(qsDigests, 0, MappedTree.pass(root));
                    check(qsDigests, 1, MappedTree.search(root, paths, 0, paths.count()));
                    tx.commit();
                }
            }

            // ---- heap, hot ----
            double[] heap1 = new double[config.reps()];
            double[] heap2 = new double[config.reps()];
            double[] heapS = new double[config.reps()];
            for (int r = 0; r < config.reps(); r++) {
                long t0 = System.nanoTime();
                sink += heap.pass();
                long t1 = System.nanoTime();
                sink += heap.pass();
                long t2 = System.nanoTime();
                sink += heap.search(paths, 0, paths.count());
                long t3 = System.nanoTime();
                heap1[r] = ms(t1 - t0);
                heap2[r] = ms(t2 - t0);
                heapS[r] = ms(t3 - t2);
            }

            // ---- qs passes: cold (fresh opening), then a second pass hot ----
            double[] cold1 = new double[config.coldReps()];
            double[] cold2 = new double[config.coldReps()];
            double[] coldFaults = new double[config.coldReps()];
            double[] coldRead = new double[config.coldReps()];
            double[] coldHandler = new double[config.coldReps()];
            for (int r = 0; r < config.coldReps(); r++) {
                progress.accept("cold passes " + (r + 1) + "/" + config.coldReps() + " (store reopened)");
                makeCold(qs, config.options());
                Counters c0 = Counters.of(qs.storageManager());
                try (ObjectTransaction tx = qs.begin()) {
                    long t0 = System.nanoTime();
                    TreeNode root = MappedTree.root(tx);
                    check(qsDigests, 0, MappedTree.pass(root));
                    long t1 = System.nanoTime();
                    Counters c1 = Counters.of(qs.storageManager());
                    check(qsDigests, 0, MappedTree.pass(root));
                    long t2 = System.nanoTime();
                    tx.commit();
                    cold1[r] = ms(t1 - t0);
                    cold2[r] = ms(t2 - t0);
                    coldFaults[r] = c1.readFaults - c0.readFaults;
                    coldRead[r] = (c1.bytesRead - c0.bytesRead) / (double) pageSize;
                    coldHandler[r] = c1.readFaults == c0.readFaults
                            ? 0
                            : (c1.handlerNanos - c0.handlerNanos) / 1e3 / (c1.readFaults - c0.readFaults);
                }
            }
            // ---- qs passes, hot ----
            double[] hot1 = new double[config.reps()];
            double[] hotFaults = new double[config.reps()];
            double[] hotRead = new double[config.reps()];
            progress.accept("hot passes: " + config.reps());
            try (ObjectTransaction tx = qs.begin()) {
                TreeNode root = MappedTree.root(tx);
                for (int r = 0; r < config.reps(); r++) {
                    Counters c0 = Counters.of(qs.storageManager());
                    long t0 = System.nanoTime();
                    check(qsDigests, 0, MappedTree.pass(root));
                    long t1 = System.nanoTime();
                    hot1[r] = ms(t1 - t0);
                    Counters c1 = Counters.of(qs.storageManager());
                    hotFaults[r] = c1.readFaults - c0.readFaults;
                    hotRead[r] = (c1.bytesRead - c0.bytesRead) / (double) pageSize;
                }
                tx.commit();
            }
            double h1 = fastest(heap1);
            double h2 = fastest(heap2);
            double c1 = fastest(cold1);
            double c2 = fastest(cold2);
            double faults = median(coldFaults);
            double hot = fastest(hot1);
            double paperHeapNodeUs = CricketPaper.HEAP_ONE_PASS_MS * 1000 / TreeShape.PAPER.nodes();
            rows.add(new Row(
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
                    null));
            rows.add(new Row(
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
                    CricketPaper.CRICKET_ONE_PASS_MS / CricketPaper.HEAP_ONE_PASS_MS));
            rows.add(new Row(
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
                    null));
            rows.add(new Row(
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
                    CricketPaper.CRICKET_TWO_PASSES_MS / CricketPaper.HEAP_TWO_PASSES_MS));
            double paperHot = CricketPaper.CRICKET_TWO_PASSES_MS - CricketPaper.CRICKET_ONE_PASS_MS;
            double paperHeapHot = CricketPaper.HEAP_TWO_PASSES_MS - CricketPaper.HEAP_ONE_PASS_MS;
            rows.add(new Row(
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
                    paperHot / paperHeapHot));
            double faultUs = faults > 0 ? (c1 - h1) * 1000 / faults : Double.NaN;
            double heapNodeUs = h1 * 1000 / shape.nodes();
            rows.add(new Row(
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

            // ---- random root-to-leaf searches ----
            double[] coldS = new double[config.coldReps()];
            double[] coldSFaults = new double[config.coldReps()];
            double[] coldSRead = new double[config.coldReps()];
            for (int r = 0; r < config.coldReps(); r++) {
                progress.accept(String.format(
                        "cold searches %d/%d: %,d searches (store reopened)", r + 1, config.coldReps(), paths.count()));
                makeCold(qs, config.options());
                Counters k0 = Counters.of(qs.storageManager());
                try (ObjectTransaction tx = qs.begin()) {
                    long t0 = System.nanoTime();
                    TreeNode root = MappedTree.root(tx);
                    check(qsDigests, 1, MappedTree.search(root, paths, 0, paths.count()));
                    long t1 = System.nanoTime();
                    tx.commit();
                    Counters k1 = Counters.of(qs.storageManager());
                    coldS[r] = ms(t1 - t0);
                    coldSFaults[r] = k1.readFaults - k0.readFaults;
                    coldSRead[r] = (k1.bytesRead - k0.bytesRead) / (double) pageSize;
                }
            }
            double[] hotS = new double[config.reps()];
            double[] hotSFaults = new double[config.reps()];
            double[] hotSRead = new double[config.reps()];
            progress.accept("hot searches: " + config.reps() + " x " + paths.count());
            try (ObjectTransaction tx = qs.begin()) {
                TreeNode root = MappedTree.root(tx);
                for (int r = 0; r < config.reps(); r++) {
                    Counters k0 = Counters.of(qs.storageManager());
                    long t0 = System.nanoTime();
                    check(qsDigests, 1, MappedTree.search(root, paths, 0, paths.count()));
                    hotS[r] = ms(System.nanoTime() - t0);
                    Counters k1 = Counters.of(qs.storageManager());
                    hotSFaults[r] = k1.readFaults - k0.readFaults;
                    hotSRead[r] = (k1.bytesRead - k0.bytesRead) / (double) pageSize;
                }
                tx.commit();
            }
            int n = paths.count();
            String searches = String.format("%,d searches", n);
            double hs = fastest(heapS);
            rows.add(new Row(
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
                    null));
            double cs = fastest(coldS);
            rows.add(new Row(
                    "searches",
                    searches,
                    "cold",
                    "qs",
                    n,
                    cs,
                    cs * 1000 / n,
                    median(coldSFaults) / n,
                    median(coldSRead),
                    null,
                    cs / hs,
                    null,
                    null,
                    null));
            double qhs = fastest(hotS);
            rows.add(new Row(
                    "searches",
                    searches,
                    "hot",
                    "qs",
                    n,
                    qhs,
                    qhs * 1000 / n,
                    median(hotSFaults) / n,
                    median(hotSRead),
                    null,
                    qhs / hs,
                    null,
                    null,
                    null));

            // ---- update searches: diff vs full-page commit logging, in ABBA order (drift cancels) ----
            CommitLogging[] order = {
                CommitLogging.PAGE_DIFFS, CommitLogging.FULL_PAGES, CommitLogging.FULL_PAGES, CommitLogging.PAGE_DIFFS
            };
            long[] heapVisits = new long[order.length];
            long[] qsVisits = new long[order.length];
            long steals = 0;
            int k = config.updatesPerCommit();
            int firstHalf = (config.commits() + 1) / 2;
            List<List<Double>> commitMs = List.of(new ArrayList<>(), new ArrayList<>());
            long[] logBytes = new long[2];
            CommitStats[] spent = new CommitStats[2];
            int next = 0; // the next update transaction: its searches are updatePaths[next * k, (next + 1) * k)
            for (int round = 0; round < order.length; round++) {
                CommitLogging mode = order[round];
                int m = mode.ordinal();
                int count = round < 2 ? firstHalf : config.commits() - firstHalf;
                progress.accept(String.format(
                        "%s: %d transactions of %d update searches, each committed (round %d of 4)",
                        SYSTEMS[m], count, k, round + 1));
                qs.reopen(config.options().withCommitLogging(mode));
                Store sm = qs.storageManager();
                long log0 = sm.stats().logEndLsn();
                long steals0 = sm.poolStats().steals();
                CommitStats k0 = sm.commitStats();
                int from = next;
                for (int c = 0; c < count; c++, next++) {
                    try (ObjectTransaction tx = qs.begin()) {
                        TreeNode root = MappedTree.root(tx);
                        sink += MappedTree.update(root, updatePaths, next * k, (next + 1) * k);
                        long t0 = System.nanoTime();
                        tx.commit();
                        commitMs.get(m).add(ms(System.nanoTime() - t0));
                    }
                }
                logBytes[m] += sm.stats().logEndLsn() - log0;
                steals += sm.poolStats().steals() - steals0;
                spent[m] = plus(spent[m], minus(sm.commitStats(), k0));
                sink += heap.update(updatePaths, from * k, next * k);
                heapVisits[round] = heap.visitsDigest();
                qs.reopen(config.options()); // the counters as a fresh opening reads them back
                try (ObjectTransaction tx = qs.begin()) {
                    qsVisits[round] = MappedTree.visitsDigest(MappedTree.root(tx));
                    tx.commit();
                }
            }
            List<CommitBreakdown> breakdown = new ArrayList<>();
            double diffMs = 0;
            for (int m = 0; m < 2; m++) {
                double cm = median(commitMs.get(m).stream()
                        .mapToDouble(Double::doubleValue)
                        .toArray());
                long commits = spent[m].commits();
                if (m == 0) {
                    diffMs = cm;
                }
                rows.add(new Row(
                        "logging",
                        String.format("%d updates/commit", k),
                        "commit",
                        SYSTEMS[m],
                        commits,
                        cm,
                        cm * 1000,
                        null,
                        null,
                        logBytes[m] / (double) commits,
                        m == 0 ? null : cm / diffMs,
                        null,
                        null,
                        null));
                CommitStats x = spent[m];
                breakdown.add(new CommitBreakdown(
                        SYSTEMS[m],
                        x.redoBytes() / (double) commits,
                        x.redoRecords() / (double) commits,
                        x.preimageNanos() / 1e3 / commits,
                        x.diffNanos() / 1e3 / commits,
                        x.appendNanos() / 1e3 / commits,
                        x.flushNanos() / 1e3 / commits,
                        x.totalNanos() / 1e3 / commits));
            }
            Digests d = new Digests(heapPass, qsDigests[0], heapSearch, qsDigests[1], heapVisits, qsVisits);
            return new Results(
                    config,
                    shape.nodes(),
                    qs.treePages(),
                    volumePages,
                    pageSize,
                    config.dropCaches() && droppedAll,
                    rounds,
                    median(coldHandler),
                    steals,
                    List.copyOf(breakdown),
                    List.copyOf(rows),
                    d);
        }
    }

    private void makeCold(MappedTree qs, StoreOptions options) {
        qs.reopen(options);
        if (config.dropCaches()) {
            droppedAll &= ColdRun.dropOsCache();
        }
    }

    /** Records the first digest of traversal {@code i} that differs from the heap's (or keeps the heap's). */
    private void check(long[] digests, int i, long got) {
        if (!mismatched[i] && got != digests[i]) {
            digests[i] = got;
            mismatched[i] = true;
        }
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    /** The fastest of the repetitions: on a shared machine, the one least disturbed by other processes. */
    static double fastest(double[] v) {
        return Arrays.stream(v).min().orElseThrow();
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    /**
     * The counters this measurement needs: read faults, and bytes read by them plus by the storage manager's own
     * page reads (looking up the named root reads the root directory's page and the root node's page through the
     * storage manager, not by a fault).
     */
    private record Counters(long readFaults, long bytesRead, long handlerNanos) {
        static Counters of(Store s) {
            FaultCounters f = s.faultCounters();
            long own = s.stats().pageReads() * s.pageSize();
            return f == null
                    ? new Counters(0, own, 0)
                    : new Counters(f.readFaults(), f.bytesRead() + own, f.handlerNanos());
        }
    }

    private static CommitStats minus(CommitStats a, CommitStats b) {
        return new CommitStats(
                a.commits() - b.commits(),
                a.pages() - b.pages(),
                a.redoRecords() - b.redoRecords(),
                a.redoBytes() - b.redoBytes(),
                a.preimageNanos() - b.preimageNanos(),
                a.reprotectNanos() - b.reprotectNanos(),
                a.stableNanos() - b.stableNanos(),
                a.diffNanos() - b.diffNanos(),
                a.appendNanos() - b.appendNanos(),
                a.flushNanos() - b.flushNanos(),
                a.logNanos() - b.logNanos(),
                a.checkpointNanos() - b.checkpointNanos(),
                a.totalNanos() - b.totalNanos(),
                a.cardPages() - b.cardPages(),
                a.cards() - b.cards());
    }

    private static CommitStats plus(CommitStats a, CommitStats b) {
        if (a == null) {
            return b;
        }
        return new CommitStats(
                a.commits() + b.commits(),
                a.pages() + b.pages(),
                a.redoRecords() + b.redoRecords(),
                a.redoBytes() + b.redoBytes(),
                a.preimageNanos() + b.preimageNanos(),
                a.reprotectNanos() + b.reprotectNanos(),
                a.stableNanos() + b.stableNanos(),
                a.diffNanos() + b.diffNanos(),
                a.appendNanos() + b.appendNanos(),
                a.flushNanos() + b.flushNanos(),
                a.logNanos() + b.logNanos(),
                a.checkpointNanos() + b.checkpointNanos(),
                a.totalNanos() + b.totalNanos(),
                a.cardPages() + b.cardPages(),
                a.cards() + b.cards());
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
