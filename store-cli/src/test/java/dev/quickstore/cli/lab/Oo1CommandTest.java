package dev.quickstore.cli.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.Json;
import dev.quickstore.cli.QsCommandTest;
import dev.quickstore.cli.QsCommandTest.Run;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code qs lab oo1}: tables, CSV and JSON, heap and qs in fresh JVMs or in this one, and bad input. */
class Oo1CommandTest {
    @Test
    void theTableHasEveryTraversalOfTheSetWithItsRatioPagesAndFaults() {
        Run r = QsCommandTest.qs("lab", "oo1", "--parts", "600", "--quiet"); // a child JVM per system
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("OO1, 600 parts, traversal set of 45"), r.out());
        long rows = r.out()
                .lines()
                .filter(l -> l.matches("\\d+\\s+(cold|warm|hot)\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+x\\s+\\d+\\s+\\d+"))
                .count();
        assertEquals(45, rows, r.out());
        for (String row : List.of("traversal cold (mean)", "traversal hot (mean)", "lookup 1,000 cold", "insert 100")) {
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith(row) && l.endsWith("x")), row + ": " + r.out());
        }
        assertTrue(
                r.out().contains("qs: ") && r.out().contains(" pages in the volume; pages read: cold traversal "),
                r.out());
    }

    @Test
    void csvAndJsonCarryTheSameWorkOnBothSystems() throws Exception {
        Run csv = QsCommandTest.qs("lab", "oo1", "--parts", "600", "--quiet", "--in-process", "--csv", "--seed", "9");
        assertEquals(0, csv.code(), csv.err());
        List<String> lines = csv.out().lines().toList();
        assertEquals(
                "system,parts,traversal,phase,cpu_us,wall_us,pages_read,faults,visits,checksum,frames", lines.get(0));
        assertEquals(1 + 2 * 45, lines.size(), csv.out());
        for (int i = 1; i <= 45; i++) {
            String[] heap = lines.get(i).split(",");
            String[] qs = lines.get(45 + i).split(",");
            assertEquals("heap", heap[0]);
            assertEquals("qs", qs[0]);
            assertEquals("3280", qs[8], "visits of a depth-7 traversal");
            assertEquals(heap[9], qs[9], "checksum of traversal " + i);
        }
        Run json = QsCommandTest.qs("lab", "oo1", "--parts", "600", "--quiet", "--systems", "qs", "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode doc = Json.MAPPER.readTree(json.out());
        assertEquals(600, doc.get("parts").asInt());
        JsonNode run = doc.get("runs").get(0);
        assertEquals("qs", run.get("result").get("system").asText());
        assertEquals(45, run.get("result").get("traversals").size());
        assertTrue(run.get("pages").asLong() > 0);
    }

    @Test
    void badInputIsRefusedInOneLine() {
        Run r = QsCommandTest.qs("lab", "oo1", "--systems", "heap,exodus");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("unknown system 'exodus' (known: heap, qs, texas, texas-raw, qs-raw)"), r.err());
        Run small = QsCommandTest.qs("lab", "oo1", "--parts", "10");
        assertEquals(2, small.code());
        assertTrue(small.err().contains("--parts 10: OO1 needs at least 100 parts"), small.err());
        Run help = QsCommandTest.qs("lab", "oo1", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("45 depth-7 traversals"), help.out());
    }

    @Test
    void labTexasRunsHeapQsTexasAndTexasRawOnTheSameWork() {
        Run csv = QsCommandTest.qs("lab", "texas", "--parts", "600", "--quiet", "--in-process", "--csv", "--seed", "3");
        assertEquals(0, csv.code(), csv.err());
        List<String> lines = csv.out().lines().toList();
        assertEquals(1 + 4 * 45, lines.size(), csv.out());
        for (int i = 1; i <= 45; i++) {
            String[] heap = lines.get(i).split(",");
            String[] texas = lines.get(90 + i).split(",");
            assertEquals("heap", heap[0]);
            assertEquals("qs", lines.get(45 + i).split(",")[0]);
            assertEquals("texas", texas[0]);
            assertEquals("3280", texas[8], "visits of a depth-7 traversal");
            assertEquals(heap[9], texas[9], "checksum of traversal " + i);
            assertEquals("0", heap[10], "the heap holds no frames");
            long qsFrames = Long.parseLong(lines.get(45 + i).split(",")[10]); // identity: every page of the volume
            long texasFrames = Long.parseLong(texas[10]);
            assertTrue(
                    texasFrames > 0 && texasFrames <= qsFrames, "texas frames " + texasFrames + " vs qs " + qsFrames);
            String[] raw = lines.get(135 + i).split(",");
            assertEquals("texas-raw", raw[0]);
            assertEquals(heap[9], raw[9], "checksum of traversal " + i + " through the all-raw index");
        }
        Run table = QsCommandTest.qs("lab", "texas", "--parts", "600", "--quiet", "--in-process");
        assertEquals(0, table.code(), table.err());
        assertTrue(
                table.out().lines().anyMatch(l -> l.startsWith("texas: ") && l.contains("frames reserved")),
                table.out());
        assertTrue(
                table.out().lines().anyMatch(l -> l.startsWith("lookup 1,000 warm") && l.endsWith("x")), table.out());
        assertTrue(table.out().contains("texas-raw/qs"), table.out());
        Run help = QsCommandTest.qs("lab", "texas", "--help");
        assertEquals(0, help.code());
        assertTrue(
                help.out().contains("swizzles them when their page")
                        && help.out().contains("heap,qs,texas,texas-raw"),
                help.out());
    }
}
