package dev.quickstore.lab.writes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.lab.writes.WriteDetectionLab.Row;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Hosking and Moss lab at a small size: every scheme ends with the heap model's values, every scheme logs the
 * same changes, and each scheme shows its mechanism (page protection write-faults, the barriers do not, scanning
 * diffs every resident page, the others only the updated ones).
 */
class WriteDetectionLabTest {
    @TempDir
    Path tmp;

    @Test
    void everySchemeAgreesWithTheHeapAndLogsTheSameChanges() throws Exception {
        var c = new WriteDetectionLab.Config(
                3000, 400, 2, List.of(0.01, 0.5), List.of(128, 1024), 1, 7, 0, tmp, StoreOptions.defaults());
        WriteDetectionLab.Results r = WriteDetectionLab.run(c, line -> {});
        assertTrue(r.agree(), r.disagreements().toString());
        List<String> schemes = List.of("pages", "cards-128", "cards-1024", "objects", "remsets", "scan");
        List<Row> per =
                r.rows().stream().filter(x -> x.table().equals("per-update")).toList();
        assertEquals(2 * schemes.size(), per.size());
        assertEquals(schemes, per.stream().map(Row::scheme).distinct().toList());
        for (Row x : per) {
            if (x.scheme().equals("pages")) {
                assertTrue(x.writeFaults() > 0, "page protection write-faults: " + x);
            } else if (!x.scheme().equals("scan")) {
                assertEquals(0, x.writeFaults(), "no write faults: " + x);
            }
        }
        List<Row> cp =
                r.rows().stream().filter(x -> x.table().equals("checkpoint")).toList();
        assertEquals(2 * schemes.size(), cp.size());
        for (double f : c.fractions()) {
            Row pages = find(cp, "pages", f);
            assertEquals(Math.round(f * c.parts()), pages.count());
            assertTrue(pages.logBytes() > 0);
            for (String s : schemes) {
                Row x = find(cp, s, f);
                // the same updates (values differ by the earlier schemes' increments: a few bytes either way)
                assertTrue(
                        Math.abs(x.logBytes() - pages.logBytes()) <= pages.logBytes() / 20,
                        s + " logs what pages logs at f=" + f + ": " + x.logBytes() + " vs " + pages.logBytes());
            }
            Row scan = find(cp, "scan", f);
            assertTrue(scan.pagesDiffed() >= r.databasePages(), "scan diffs every resident page: " + scan);
        }
        Row sparse = find(cp, "remsets", 0.01);
        assertTrue(sparse.pagesDiffed() < r.databasePages(), "remsets diffs only the updated pages: " + sparse);
    }

    private static Row find(List<Row> rows, String scheme, double f) {
        return rows.stream()
                .filter(x -> x.scheme().equals(scheme) && x.fraction() == f)
                .findFirst()
                .orElseThrow();
    }
}
