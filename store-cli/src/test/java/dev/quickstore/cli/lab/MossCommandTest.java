package dev.quickstore.cli.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.Json;
import dev.quickstore.cli.QsCommandTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qs lab moss} at a small size: help, tables, JSON and CSV. */
class MossCommandTest {
    @TempDir
    Path tmp;

    @Test
    void helpNamesTheSchemesAndTheSeries() {
        QsCommandTest.Run r = QsCommandTest.qs("lab", "moss", "--help");
        assertEquals(0, r.code(), r.err());
        for (String s : new String[] {"NS", "EIS", "LIS", "ECS", "LCS", "VS", "VB", "--series", "--objects"}) {
            assertTrue(r.out().contains(s), s + " in " + r.out());
        }
    }

    @Test
    void smallRunPrintsRunsParametersAndBreakEvenAsJson() throws Exception {
        QsCommandTest.Run r = QsCommandTest.qs(
                "lab",
                "moss",
                "--objects",
                "255",
                "--reps",
                "1",
                "--series",
                "VS,VB,VH,VN,SI,VV",
                "--json",
                "--dir",
                tmp.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("moss: 1/"), r.err());
        JsonNode j = Json.MAPPER.readTree(r.out());
        JsonNode runs = j.get("runs");
        // 255 objects: largest height 8. VS 11, VB 12 x 2, VH heights 4..8 x 2, VN heights 4..8 x 2, SI 11, VV 7
        int vh = 5 * 2;
        int vn = 5 * 2;
        assertEquals(11 + 24 + vh + vn + 11 + 7, runs.size());
        for (JsonNode run : runs) {
            long heapVisits = run.get("heap").get("visits").asLong();
            for (String s : new String[] {"NS", "EIS", "LIS", "ECS", "LCS"}) {
                JsonNode m = run.get("schemes").get(s);
                assertEquals(heapVisits, m.get("visits").asLong(), s);
                assertEquals(
                        run.get("heap").get("results").asText(),
                        m.get("results").asText(),
                        s);
                assertTrue(m.get("totalNs").asLong() > 0, s);
                assertTrue(m.get("predictedNs").isNumber(), s + " predicted");
            }
        }
        for (String s : new String[] {"NS", "EIS", "LIS", "ECS", "LCS"}) {
            assertTrue(j.get("parameters").get(s).get("v").asDouble() > 0, s);
        }
        assertTrue(j.get("derived").get("ECS").has("breakEvenFixed"), r.out());
        try (var files = Files.list(tmp)) {
            assertEquals(0, files.count(), "collection files removed after their points");
        }
    }

    @Test
    void tablesAndCsv() {
        QsCommandTest.Run t = QsCommandTest.qs("lab", "moss", "--objects", "127", "--reps", "1", "--series", "VH,WS");
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("Runs: measured ms / model ms"), t.out());
        assertTrue(t.out().contains("cost model not fitted"), t.out());
        assertTrue(t.out().contains("Table 6 analogue"), t.out());
        QsCommandTest.Run c =
                QsCommandTest.qs("lab", "moss", "--objects", "127", "--reps", "1", "--series", "VH", "--csv");
        assertEquals(0, c.code(), c.err());
        String[] lines = c.out().strip().split("\n");
        assertTrue(lines[0].startsWith("series,point,scheme,"), lines[0]);
        assertEquals(1 + 4 * 2 * 5, lines.length, c.out()); // 127 objects: VH heights 4..7, u=0 and 1, 5 schemes
        QsCommandTest.Run bad = QsCommandTest.qs("lab", "moss", "--series", "XX");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("unknown series 'XX'"), bad.err());
    }
}
