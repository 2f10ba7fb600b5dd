package dev.quickstore.cli.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.Json;
import dev.quickstore.cli.QsCommandTest;
import dev.quickstore.cli.QsCommandTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qs lab cricket} at a small size: the table, CSV and JSON forms, heap and qs agreeing. */
class CricketCommandTest {
    private static final String[] SMALL = {
        "lab",
        "cricket",
        "--depth",
        "3",
        "--fanout",
        "6",
        "--searches",
        "100",
        "--reps",
        "1",
        "--cold-reps",
        "1",
        "--warmup",
        "0",
        "--warmup-ms",
        "0",
        "--commits",
        "5",
        "--updates-per-commit",
        "3"
    };

    @TempDir
    Path tmp;

    private static Run qs(String... extra) {
        String[] args = new String[SMALL.length + extra.length];
        System.arraycopy(SMALL, 0, args, 0, SMALL.length);
        System.arraycopy(extra, 0, args, SMALL.length, extra.length);
        return QsCommandTest.qs(args);
    }

    @Test
    void tablePrintsEverySectionAndTheHeapAndQsAgree() throws Exception {
        Path dir = tmp.resolve("kept");
        Run r = qs("--dir", dir.toString());
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertTrue(out.contains("depth 3, fanout 6, 259 nodes, 12 a page"), out);
        assertTrue(out.contains("the tree on 22 pages of 8,192 bytes"), out);
        assertTrue(out.contains("store kept in " + dir), out);
        assertTrue(
                Files.isDirectory(dir.resolve("log"))
                        || Files.list(dir).findAny().isPresent(),
                "store kept");
        assertTrue(
                out.lines()
                        .anyMatch(l -> l.matches(
                                "workload\\s+sys\\s+phase\\s+ms\\s+/heap\\s+faults\\s+read\\s+" + "paper ms\\s+/heap")),
                out);
        // the cold pass faults the tree in (the root node's page is read by the root lookup) and is over the heap
        assertTrue(
                out.lines()
                        .anyMatch(l -> l.matches("1 pass\\s+qs\\s+cold\\s+[\\d.]+\\s+[\\d.]+x\\s+2[12]\\s+2[234]\\s+"
                                + "5,680\\s+7\\.20x")),
                out);
        assertTrue(
                out.lines().anyMatch(l -> l.matches("1 pass\\s+qs\\s+hot\\s+[\\d.]+\\s+[\\d.]+x\\s+0\\s+0\\s.*")), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("qs\\s+2[12]\\s+[\\d.]+\\s+[\\d.]+\\s+3,605\\s+73\\.6")), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("100 searches\\s+qs\\s+hot\\s+.*\\s0\\.000\\s+0")), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("qs-diff\\s+[\\d.]+\\s+-\\s+\\d+\\s+-")), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("qs-full\\s+[\\d.]+\\s+[\\d.]+x\\s+\\d+\\s+[\\d.]+x")), out);
        assertTrue(
                out.lines().anyMatch(l -> l.matches("of which in the C fault handler .*: \\d+\\.\\d\\d us per fault")),
                out);
        assertTrue(out.contains("rounds: diffs, full, full, diffs"), out);
        assertTrue(out.contains("steals during the updates: 0 "), out);
        assertTrue(out.contains("results: heap and qs agree"), out);
        assertTrue(r.err().contains("cricket: building the tree"), r.err());
    }

    @Test
    void csvAndJsonCarryTheSameRows() throws Exception {
        Run csv = qs("--csv", "--quiet");
        assertEquals(0, csv.code(), csv.err());
        assertEquals("", csv.err(), "--quiet: no progress");
        List<String> lines = csv.out().lines().toList();
        assertEquals(
                "table,workload,phase,system,ops,ms,usPerOp,faultsPerOp,pagesRead,logBytesPerOp,ratio,paperMs,"
                        + "paperUsPerOp,paperRatio",
                lines.get(0));
        assertEquals(11, lines.size() - 1, csv.out()); // 5 passes, 1 fault, 3 searches, 2 logging
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("logging,\"3 updates/commit\",commit,qs-full,5,")));

        Run json = qs("--json");
        assertEquals(0, json.code(), json.err());
        JsonNode root = Json.MAPPER.readTree(json.out());
        assertEquals(259, root.get("nodes").asInt());
        assertEquals(22, root.get("treePages").asInt());
        assertEquals(11, root.get("rows").size());
        JsonNode d = root.get("digests");
        assertEquals(d.get("heapPass").asLong(), d.get("qsPass").asLong());
        assertEquals(d.get("heapSearch").asLong(), d.get("qsSearch").asLong());
        assertEquals(d.get("heapVisits"), d.get("qsVisits"));
        assertEquals(4, d.get("heapVisits").size(), "four rounds: diffs, full, full, diffs");
        // a full-page commit logs each changed page as one 8,260-byte REDO record; a diff logs the counter's bytes
        JsonNode diff = root.get("commitBreakdown").get(0);
        JsonNode full = root.get("commitBreakdown").get(1);
        assertEquals("qs-full", full.get("system").asText());
        assertEquals(
                8260.0,
                full.get("redoBytes").asDouble() / full.get("redoRecords").asDouble(),
                1e-9);
        assertTrue(diff.get("redoBytes").asDouble() / diff.get("redoRecords").asDouble() < 100, diff.toString());
    }

    @Test
    void helpNamesTheTablesAndRefusesABadShape() {
        Run h = QsCommandTest.qs("lab", "cricket", "--help");
        assertEquals(0, h.code(), h.err());
        assertTrue(h.out().contains("Table 4") && h.out().contains("--updates-per-commit"), h.out());
        Run bad = QsCommandTest.qs("lab", "cricket", "--fanout", "12");
        assertEquals(2, bad.code(), bad.out() + bad.err());
        assertTrue(bad.err().contains("fanout 12 outside 1..11"), bad.err());
        Run both = QsCommandTest.qs("lab", "cricket", "--json", "--csv");
        assertEquals(2, both.code(), both.err());
    }
}
