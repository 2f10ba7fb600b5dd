package dev.quickstore.lab.cricket;

import static dev.quickstore.lab.cricket.Repetitions.median;
import static dev.quickstore.lab.cricket.Repetitions.ms;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.core.Store;
import dev.quickstore.core.options.CommitLogging;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.lab.cricket.TreeSearchBenchmark.CommitBreakdown;
import dev.quickstore.lab.cricket.TreeSearchBenchmark.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Update searches and commit logging (Shekita and Zwilling 1990, section 5.3): transactions of {@code
 * updatesPerCommit} searches that count a visit at their leaf, committed with diff logging ({@link
 * CommitLogging#PAGE_DIFFS}) and with full-page logging ({@link CommitLogging#FULL_PAGES}), in four rounds of half
 * the transactions each, diffs, full, full, diffs (ABBA: a drift of the machine during the run falls on both
 * equally). After each round the same updates run on the heap and the visit counters of both trees are digested (the
 * mapped tree's read back after reopening). Rows of the {@code logging} table, over qs-diff.
 */
final class CommitLoggingExperiment {
    /** The logging systems, by {@link CommitLogging#ordinal()}. */
    static final String[] SYSTEMS = {"qs-diff", "qs-full"};

    /**
     * @param rows the logging rows
     * @param breakdown where commit time went, per logging mode (means over the commits)
     * @param steals pages stolen during the update transactions (0: no-steal in effect)
     * @param heapVisits visit counter digests of the heap after each round
     * @param qsVisits of the mapped tree after each round
     */
    record Outcome(List<Row> rows, List<CommitBreakdown> breakdown, long steals, long[] heapVisits, long[] qsVisits) {}

    private CommitLoggingExperiment() {}

    static Outcome run(ComparedTrees t) {
        TreeSearchBenchmark.Config config = t.config;
        MappedTree qs = t.qs;
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
            t.progress.accept(String.format(
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
                    t.consume(MappedTree.update(root, t.updatePaths, next * k, (next + 1) * k));
                    long t0 = System.nanoTime();
                    tx.commit();
                    commitMs.get(m).add(ms(System.nanoTime() - t0));
                }
            }
            logBytes[m] += sm.stats().logEndLsn() - log0;
            steals += sm.poolStats().steals() - steals0;
            spent[m] = CommitStatsDelta.plus(spent[m], CommitStatsDelta.minus(sm.commitStats(), k0));
            t.consume(t.heap.update(t.updatePaths, from * k, next * k));
            heapVisits[round] = t.heap.visitsDigest();
            qs.reopen(config.options()); // the counters as a fresh opening reads them back
            try (ObjectTransaction tx = qs.begin()) {
                qsVisits[round] = MappedTree.visitsDigest(MappedTree.root(tx));
                tx.commit();
            }
        }
        List<Row> rows = new ArrayList<>();
        List<CommitBreakdown> breakdown = new ArrayList<>();
        double diffMs = 0;
        for (int m = 0; m < 2; m++) {
            double cm = median(
                    commitMs.get(m).stream().mapToDouble(Double::doubleValue).toArray());
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
        return new Outcome(List.copyOf(rows), List.copyOf(breakdown), steals, heapVisits, qsVisits);
    }
}
