package dev.quickstore.lab.cricket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.lab.cricket.TreeSearchBenchmark.Row;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The benchmark at a small size: every table is produced, heap and qs agree, the cold pass faults in each tree
 * page once, full-page commit records are larger than diffs, and nothing is stolen (the tree fits the pool).
 */
class TreeSearchBenchmarkTest {
    @Test
    void smallRunAgreesWithTheHeapAndFillsEveryTable() throws Exception {
        TreeShape shape = TreeShape.of(3, 6);
        var config =
                new TreeSearchBenchmark.Config(shape, 200, 2, 2, 1, 0, 7, 20, 5, null, false, StoreOptions.defaults());
        List<String> progress = new ArrayList<>();
        TreeSearchBenchmark.Results r = TreeSearchBenchmark.run(config, progress::add);
        assertTrue(r.agree(), "heap and qs digests: " + r.digests());
        assertEquals(shape.nodes(), r.nodes());
        assertEquals(shape.pages(), r.treePages());
        assertEquals(0, r.steals(), "the tree fits the pool: no steal");
        assertTrue(progress.size() > 5, "progress lines: " + progress);

        Row cold = row(r, "passes", "1 pass", "qs", "cold");
        // each tree page is read once: by a fault, or (the root node's) by the storage manager's root lookup
        assertTrue(
                cold.faultsPerOp() >= r.treePages() - 1 && cold.faultsPerOp() <= r.treePages(),
                "a cold pass faults each tree page in once: " + cold + " for " + r.treePages() + " pages");
        assertTrue(cold.pagesRead() >= r.treePages() && cold.pagesRead() <= r.treePages() + 2, cold.toString());
        assertEquals(0.0, row(r, "passes", "1 pass", "qs", "hot").faultsPerOp(), "a hot pass takes no fault");
        assertTrue(cold.ratio() > 0 && cold.paperRatio() > 7, cold.toString());
        Row fault = row(r, "fault", "first access to a page", "qs", "cold");
        assertEquals(Math.round(cold.faultsPerOp()), fault.ops());
        assertTrue(row(r, "searches", "200 searches", "qs", "cold").faultsPerOp() > 0);
        assertEquals(0.0, row(r, "searches", "200 searches", "qs", "hot").faultsPerOp());

        Row diff = row(r, "logging", "5 updates/commit", "qs-diff", "commit");
        Row full = row(r, "logging", "5 updates/commit", "qs-full", "commit");
        assertEquals(20, diff.ops());
        assertTrue(
                full.logBytesPerOp() > 4 * diff.logBytesPerOp() && full.logBytesPerOp() >= 8192,
                "full pages " + full.logBytesPerOp() + " B/commit, diffs " + diff.logBytesPerOp());
        assertTrue(full.ratio() > 0, full.toString());
    }

    private static Row row(TreeSearchBenchmark.Results r, String table, String workload, String system, String phase) {
        return r.rows().stream()
                .filter(x -> x.table().equals(table)
                        && x.workload().equals(workload)
                        && x.system().equals(system)
                        && x.phase().equals(phase))
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        "no row " + table + "/" + workload + "/" + system + "/" + phase + " in " + r.rows()));
    }
}
