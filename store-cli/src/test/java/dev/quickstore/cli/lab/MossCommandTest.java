package dev.quickstore.cli.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.Json;
import dev.quickstore.cli.QsCommandTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qs lab moss} at a small size: help, tables, JSON and CSV, with the create-work-save runs and the phase tables. */
class MossCommandTest {
    static {
        // no full GC before each session: the timings of these tiny runs are not asserted (MossLab.betweenSessions)
        System.setProperty("qs.lab.moss.gcBetweenSessions", "false");
    }

    @TempDir
    Path tmp;

    @Test
    void helpNamesTheSchemesAndTheSeries() {
        QsCommandTest.Run r = QsCommandTest.qs("lab", "moss", "--help");
        assertEquals(0, r.code(), r.err());
        for (String s : new String[] {
            "NS", "EIS", "LIS", "ECS", "LCS", "VS", "VB", "--series", "--objects", "Create-work-save", "Table 13"
        }) {
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
        // 255 objects: largest height 8. VS 11, VB 12 x 2, VH heights 4..8 x 2, VN heights 4..8 x 2, SI 11 x 2, VV 7
        int vh = 5 * 2;
        int vn = 5 * 2;
        assertEquals(11 + 24 + vh + vn + 22 + 7, runs.size());
        int created = 0;
        for (JsonNode run : runs) {
            long heapVisits = run.get("heap").get("visits").asLong();
            // the fitted series' points without updates also ran as create-work-save sessions
            boolean create = !run.get("series").asText().equals("VV")
                    && run.get("workload").get("updateFraction").asDouble() == 0;
            assertEquals(create, run.has("created"), run.get("point").asText());
            for (String s : create ? new String[] {"NS", "EIS", "LIS", "ECS", "LCS"} : new String[0]) {
                JsonNode m = run.get("created").get(s);
                assertEquals(
                        run.get("heap").get("results").asText(),
                        m.get("results").asText(),
                        s);
                assertEquals(
                        run.get("heap").get("objects").asLong(),
                        m.get("objects").asLong(),
                        s);
                assertTrue(m.get("prepareNs").asLong() <= m.get("saveNs").asLong(), s);
                assertTrue(m.get("predictedNs").isNumber(), s + " predicted");
                created++;
            }
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
        assertEquals(5 * (11 + 12 + 5 + 5 + 11), created);
        for (String s : new String[] {"NS", "EIS", "LIS", "ECS", "LCS"}) {
            assertTrue(j.get("createParameters").get(s).get("v").asDouble() > 0, s);
        }
        List<String> ids = new ArrayList<>();
        for (JsonNode t : j.get("tables")) {
            ids.add(t.get("table").asText());
            for (JsonNode row : t.get("rows")) {
                assertEquals(
                        t.get("columns").size(),
                        row.get("ours").size(),
                        t.get("title").asText());
                assertEquals(
                        t.get("columns").size(),
                        row.get("moss").size(),
                        t.get("title").asText());
            }
        }
        assertEquals(List.of("4", "7", "8", "9", "10", "11", "13", "15", "16"), ids);
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
        assertTrue(t.out().contains("Create-work-save runs"), t.out());
        QsCommandTest.Run c =
                QsCommandTest.qs("lab", "moss", "--objects", "127", "--reps", "1", "--series", "VH", "--csv");
        assertEquals(0, c.code(), c.err());
        String[] sections = c.out().strip().split("\n\n");
        assertEquals(2, sections.length, c.out());
        String[] lines = sections[0].split("\n");
        assertTrue(lines[0].startsWith("series,point,scheme,"), lines[0]);
        assertTrue(lines[0].endsWith(",session,prepare_ns"), lines[0]);
        // 127 objects: VH heights 4..7, u=0 and 1, 5 schemes; and the u=0 points as create-work-save sessions
        assertEquals(1 + 4 * 2 * 5 + 4 * 5, lines.length, c.out());
        assertEquals(
                4 * 5, Arrays.stream(lines).filter(l -> l.contains(",cws,")).count());
        assertTrue(sections[1].startsWith("table,row,column,ours,moss"), sections[1]);
        QsCommandTest.Run bad = QsCommandTest.qs("lab", "moss", "--series", "XX");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("unknown series 'XX'"), bad.err());
        bad = QsCommandTest.qs("lab", "moss", "--tables", "3");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("no table 3"), bad.err());
    }

    @Test
    void tablesChoosesTheSeriesAndTheSessions() throws Exception {
        // Table 7 needs VS and VB, load-work-save sessions only
        QsCommandTest.Run r =
                QsCommandTest.qs("lab", "moss", "--objects", "127", "--reps", "1", "--tables", "7", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode j = Json.MAPPER.readTree(r.out());
        List<String> series = new ArrayList<>();
        j.get("series").forEach(s -> series.add(s.asText()));
        assertEquals(List.of("VS", "VB"), series);
        for (JsonNode run : j.get("runs")) {
            assertTrue(!run.has("created"), run.get("point").asText());
        }
        assertEquals(1, j.get("tables").size());
        assertEquals("7", j.get("tables").get(0).get("table").asText());
        // Table 11 needs SI and the create-work-save sessions
        QsCommandTest.Run c = QsCommandTest.qs("lab", "moss", "--objects", "127", "--reps", "1", "--tables", "11");
        assertEquals(0, c.code(), c.err());
        assertTrue(c.out().contains("Table 11 analogue"), c.out());
        assertTrue(c.out().contains("Create-work-save runs"), c.out());
        assertTrue(!c.out().contains("Table 10 analogue"), c.out());
    }
}
