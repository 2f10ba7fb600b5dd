package dev.quickstore.cli.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.Json;
import dev.quickstore.cli.QsCommandTest;
import dev.quickstore.cli.QsCommandTest.Run;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code qs lab hosking-moss} at a small size: help, the table, CSV and JSON forms, every scheme agreeing. */
class HoskingMossCommandTest {
    private static final String[] SMALL = {
        "lab",
        "hosking-moss",
        "--parts",
        "1500",
        "--update-parts",
        "200",
        "--repeats",
        "1",
        "--fractions",
        "0.01,0.5",
        "--cards",
        "128,512",
        "--reps",
        "1",
        "--oo7-reps",
        "0"
    };

    private static Run qs(String... extra) {
        String[] args = new String[SMALL.length + extra.length];
        System.arraycopy(SMALL, 0, args, 0, SMALL.length);
        System.arraycopy(extra, 0, args, SMALL.length, extra.length);
        return QsCommandTest.qs(args);
    }

    @Test
    void helpNamesTheExperiments() {
        Run r = QsCommandTest.qs("lab", "hosking-moss", "--help");
        assertEquals(0, r.code(), r.err());
        for (String s : new String[] {"per-update", "checkpoint", "oo7", "--fractions", "--cards", "--json"}) {
            assertTrue(r.out().contains(s), s + " in " + r.out());
        }
    }

    @Test
    void tableCsvAndJson() throws Exception {
        Run t = qs();
        assertEquals(0, t.code(), t.err());
        assertTrue(t.err().contains("hosking-moss: measuring remsets"), "progress on stderr: " + t.err());
        String out = t.out();
        assertTrue(out.contains("1,500 parts on"), out);
        assertTrue(out.lines().anyMatch(l -> l.matches("scheme\\s+first ns\\s+/heap\\s+repeated ns.*")), out);
        for (String s : new String[] {"pages", "cards-128", "cards-512", "objects", "remsets", "scan"}) {
            assertTrue(out.lines().anyMatch(l -> l.matches(s + "\\s+[\\d.]+\\s+[\\d.]+x\\s+[\\d.]+\\s+[\\d.]+x.*")), s);
        }
        assertTrue(out.contains("results: every scheme agrees with the heap"), out);

        Run csv = qs("--csv", "--quiet");
        assertEquals(0, csv.code(), csv.err());
        List<String> lines = csv.out().lines().toList();
        assertTrue(lines.get(0).startsWith("table,scheme,fraction,operation,nsPerUpdate"), lines.get(0));
        assertEquals(1 + 6 * 2 + 6 * 2, lines.size(), csv.out()); // per-update and checkpoint rows
        assertEquals("", csv.err());

        Run json = qs("--json", "--quiet");
        assertEquals(0, json.code(), json.err());
        JsonNode n = Json.MAPPER.readTree(json.out());
        assertEquals(24, n.get("rows").size());
        assertEquals(1500, n.get("config").get("parts").asInt());
        assertTrue(n.get("disagreements").isEmpty());
    }
}
