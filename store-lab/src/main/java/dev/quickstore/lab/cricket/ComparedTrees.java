package dev.quickstore.lab.cricket;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.oo7.mapped.ColdRun;
import java.util.function.Consumer;

/**
 * The two trees of one {@link TreeSearchBenchmark} run, the heap's ({@link HeapTree}) and the mapped store's
 * ({@link MappedTree}), with the search paths both follow and the check of every mapped traversal against the heap's
 * digest (Shekita and Zwilling 1990, section 6.2: the same search code on a non-persistent and a persistent tree).
 * The measurements ({@link PassMeasurement}, {@link SearchMeasurement}, {@link CommitLoggingExperiment}) run on it.
 */
final class ComparedTrees {
    /** Index of the depth-first pass digest in {@link #check}. */
    static final int PASS = 0;

    /** Index of the random searches' digest in {@link #check}. */
    static final int SEARCH = 1;

    final TreeSearchBenchmark.Config config;
    final Consumer<String> progress;
    final HeapTree heap;
    final MappedTree qs;
    final SearchPaths paths;
    final SearchPaths updatePaths;
    final long heapPass;
    final long heapSearch;
    private final long[] qsDigests; // the heap's, replaced by the first mismatch
    private final boolean[] mismatched = new boolean[2];
    private boolean droppedAll = true;
    private long sink; // keeps the JIT from dropping a traversal whose digest is not otherwise used

    ComparedTrees(TreeSearchBenchmark.Config config, Consumer<String> progress, HeapTree heap, MappedTree qs) {
        this.config = config;
        this.progress = progress;
        this.heap = heap;
        this.qs = qs;
        this.paths = SearchPaths.random(config.shape(), config.searches(), config.seed());
        this.updatePaths =
                SearchPaths.random(config.shape(), 2 * config.commits() * config.updatesPerCommit(), config.seed() + 1);
        this.heapPass = heap.pass();
        this.heapSearch = heap.search(paths, 0, paths.count());
        this.qsDigests = new long[] {heapPass, heapSearch};
    }

    int pageSize() {
        return qs.storageManager().pageSize();
    }

    /** Keeps a digest alive (the JIT may not drop the traversal that made it). */
    void consume(long digest) {
        sink += digest;
    }

    /**
     * Warm-up: {@code warmup} rounds of each traversal on both trees and at least {@code warmupMillis}; returns the
     * rounds run.
     */
    int warmUp() {
        long warmupEnd = System.nanoTime() + config.warmupMillis() * 1_000_000;
        int rounds = 0;
        for (; rounds < config.warmup() || System.nanoTime() - warmupEnd < 0; rounds++) {
            sink += heap.pass() + heap.search(paths, 0, paths.count());
            try (ObjectTransaction tx = qs.begin()) {
                TreeNode root = MappedTree.root(tx);
                check(PASS, MappedTree.pass(root));
                check(SEARCH, MappedTree.search(root, paths, 0, paths.count()));
                tx.commit();
            }
        }
        return rounds;
    }

    /** Reopens the store (its pages unmapped) and, if asked, empties the OS page cache. */
    void makeCold(StoreOptions options) {
        qs.reopen(options);
        if (config.dropCaches()) {
            droppedAll &= ColdRun.dropOsCache();
        }
    }

    /** Whether every {@link #makeCold} emptied the OS page cache. */
    boolean droppedAll() {
        return droppedAll;
    }

    /** Records the first digest of traversal {@code i} that differs from the heap's (or keeps the heap's). */
    void check(int i, long got) {
        if (!mismatched[i] && got != qsDigests[i]) {
            qsDigests[i] = got;
            mismatched[i] = true;
        }
    }

    /** The mapped tree's digest of traversal {@code i}: the heap's unless one differed. */
    long qsDigest(int i) {
        return qsDigests[i];
    }
}
