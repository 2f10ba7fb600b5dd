package dev.quickstore.cli.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.ExitCodes;
import dev.quickstore.cli.Json;
import dev.quickstore.cli.QsCommandTest;
import dev.quickstore.cli.QsCommandTest.Run;
import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qs oo7 run} with QS-B and fresh-process cold runs, and {@code qs oo7 report}. */
class Oo7CommandTest {
    @TempDir
    Path tmp;

    private static long pages(String out, String system) {
        Matcher m = Pattern.compile("OO7 small on " + system + ": built in .*; database (\\d+) pages")
                .matcher(out);
        assertTrue(m.find(), out);
        return Long.parseLong(m.group(1));
    }

    @Test
    void qsBRunsBesideQsInFreshProcessColdRunsAndTheReportCombinesRuns() throws Exception {
        Path cold = tmp.resolve("cold.json");
        Run r = QsCommandTest.qs(
                "oo7",
                "run",
                "--system",
                "heap,qs,qs-b",
                "--cold",
                "process",
                "--ops",
                "T1,SM1,SM2",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--json",
                cold.toString());
        assertEquals(0, r.code(), r.err());
        long qs = pages(r.out(), "qs");
        long qsB = pages(r.out(), "qs-b");
        assertTrue(qsB > qs, "QS-B pages " + qsB + " > QS pages " + qs);
        // cold rows of both mapped stores, measured in child JVMs; SM2 deletes what SM1 inserted in another JVM
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+cold\\s+43740\\s.*")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("SM2\\s+cold\\s+5\\s.*")), r.out());
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("T1\\s+hot\\s+43740\\s.*\\d\\.\\d\\dx\\s.*\\d\\.\\d\\dx\\s.*")),
                "hot T1 with qs/heap and qs-b/heap: " + r.out());
        assertTrue(r.err().contains("cold qs-b SM2 run 1/1 (fresh JVM"), r.err());
        assertTrue(r.out().contains("qs-b cold runs: a fresh JVM per operation; "), r.out());
        JsonNode json = Json.MAPPER.readTree(Files.readString(cold));
        assertEquals(3, json.size());
        assertEquals("qs-b", json.get(2).get("store").asText());
        assertEquals(qsB, json.get(2).get("databasePages").asLong());
        assertEquals("process", json.get(2).get("cold").asText());
        assertEquals(3, json.get(2).get("coldRuns").asInt());

        Path hot = tmp.resolve("hot.json");
        Run h = QsCommandTest.qs(
                "oo7",
                "run",
                "--system",
                "heap,qs",
                "--cold",
                "none",
                "--ops",
                "T1",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--json",
                hot.toString());
        assertEquals(0, h.code(), h.err());
        assertTrue(h.out().lines().noneMatch(l -> l.matches("T1\\s+cold\\s.*")), h.out());

        Path csv = tmp.resolve("both.csv");
        Run rep = QsCommandTest.qs("oo7", "report", cold.toString(), hot.toString(), "--csv", csv.toString());
        assertEquals(0, rep.code(), rep.err());
        assertTrue(rep.out().contains("qs-b (" + cold + "): OO7 small, seed 42, databasePages " + qsB), rep.out());
        assertTrue(rep.out().contains("qs@hot (" + hot + ")"), "a second qs with T1/hot is renamed: " + rep.out());
        assertTrue(rep.out().lines().anyMatch(l -> l.matches("SM2\\s+cold\\s+5\\s.*")), rep.out());
        String csvText = Files.readString(csv);
        assertTrue(csvText.lines().anyMatch(l -> l.startsWith("qs@hot,small,T1,hot,43740,")), csvText);
        assertTrue(csvText.lines().anyMatch(l -> l.startsWith("qs-b,small,SM1,cold,5,")), csvText);
    }

    @Test
    void clientServerRunsOnAServerItStartsAndMultiUserRunsBothConcurrencyControls() throws Exception {
        Path json = tmp.resolve("cs.json");
        Run r = QsCommandTest.qs(
                "oo7",
                "run",
                "--system",
                "heap,qs-cs",
                "--ops",
                "T1,T2A",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--json",
                json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("OO7 small on qs-cs: built in "), r.out());
        assertTrue(r.out().contains("served by qs serve in a child process"), r.out());
        // the same counts as the embedded store: every page faulted in over the socket
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+cold\\s+43740\\s.*")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T2A\\s+hot\\s+2187\\s.*")), r.out());
        assertTrue(r.out().contains("qs-cs cold runs: the client disconnected and connected again"), r.out());
        JsonNode cs = Json.MAPPER.readTree(Files.readString(json)).get(1);
        assertEquals("qs-cs", cs.get("store").asText());
        assertEquals("reconnect", cs.get("cold").asText());
        Matcher log = Pattern.compile("\\(server log (\\S+)\\)").matcher(r.out());
        assertTrue(log.find(), r.out());
        assertTrue(!Files.exists(Path.of(log.group(1))), "the server's log goes with a clean stop: " + log.group(1));

        Path mu = tmp.resolve("mu.json");
        Run m = QsCommandTest.qs(
                "oo7",
                "multiuser",
                "--clients",
                "2",
                "--seconds",
                "1",
                "--shared-percent",
                "100",
                "--update-percent",
                "100",
                "--json",
                mu.toString());
        assertEquals(0, m.code(), m.err());
        assertTrue(m.out().contains("OO7 small with 3 modules (1 shared, 2 private)"), m.out());
        assertTrue(m.out().lines().anyMatch(l -> l.matches("optimistic\\s+2\\s+\\d+\\.\\d\\s.*")), m.out());
        assertTrue(m.out().lines().anyMatch(l -> l.matches("locking\\s+2\\s+\\d+\\.\\d\\s.*")), m.out());
        JsonNode runs = Json.MAPPER.readTree(Files.readString(mu)).get("runs");
        assertEquals(2, runs.size());
        for (JsonNode run : runs) {
            assertTrue(run.get("commits").asLong() > 0, run.toString());
            assertTrue(run.get("commitP50Micros").asLong() > 0, run.toString());
            assertTrue(
                    run.get("commitP99Micros").asLong()
                            >= run.get("commitP50Micros").asLong(),
                    run.toString());
        }
    }

    @Test
    void reportNamesTheFileAndFieldOfBadInput() throws Exception {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "[{\"store\":\"qs\",\"size\":\"small\",\"seed\":42,\"results\":[{\"op\":\"T1\"}]}]");
        Run r = QsCommandTest.qs("oo7", "report", bad.toString());
        assertEquals(ExitCodes.USAGE, r.code(), r.out());
        assertTrue(r.err().contains(bad + " [0] result 0: missing text field 'phase'"), r.err());
        Files.writeString(bad, "not json");
        Run n = QsCommandTest.qs("oo7", "report", bad.toString());
        assertTrue(n.err().contains(bad + ": not JSON"), n.err());
    }

    @Test
    void unknownSystemAndColdModeAreUsageErrors() {
        Run s = QsCommandTest.qs("oo7", "run", "--system", "heap,qs-c");
        assertEquals(ExitCodes.USAGE, s.code());
        assertTrue(s.err().contains("unknown system 'qs-c'") && s.err().contains("qs-b"), s.err());
        Run c = QsCommandTest.qs("oo7", "run", "--cold", "sometimes");
        assertEquals(ExitCodes.USAGE, c.code());
        assertTrue(c.err().contains("--cold: unknown value 'sometimes'"), c.err());
    }

    /**
     * {@code e} (software persistence, docs/software-mode.md) runs beside heap and qs, hot and cold (a fresh JVM
     * per cold operation opens the store in FramesMode.SOFTWARE), with the same counts, and takes no fault.
     */
    @Test
    void eRunsBesideQsWithTheSameCountsAndNoFault() throws Exception {
        Path json = tmp.resolve("e.json");
        Run r = QsCommandTest.qs(
                "oo7",
                "run",
                "--system",
                "heap,qs,e",
                "--cold",
                "process",
                "--ops",
                "T1,T2A,Q1",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--json",
                json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(pages(r.out(), "e") > 0, r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+cold\\s+43740\\s.*")), r.out());
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("T1\\s+hot\\s+43740\\s.*\\d\\.\\d\\dx\\s.*\\d\\.\\d\\dx\\s.*")),
                "hot T1 with qs/heap and e/heap: " + r.out());
        assertTrue(r.err().contains("cold e T2A run 1/1 (fresh JVM"), r.err());
        JsonNode e = Json.MAPPER.readTree(Files.readString(json)).get(2);
        assertEquals("e", e.get("store").asText());
        assertEquals("process", e.get("cold").asText());
        List<JsonNode> faults = new java.util.ArrayList<>(e.findValues("readFaults"));
        faults.addAll(e.findValues("writeFaults"));
        assertTrue(faults.size() >= 6, "fault counters of every result: " + e);
        assertTrue(faults.stream().allMatch(f -> f.asLong() == 0), "software persistence takes no fault: " + e);
    }

    @Test
    void theOtherWriteDetectionSchemesRunT2bWithTheHeapsCountAndTheBarrierOnesTakeNoWriteFault() throws Exception {
        Path json = tmp.resolve("schemes.json");
        Run r = QsCommandTest.qs(
                "oo7",
                "run",
                "--system",
                "heap,qs-objects,qs-remsets,qs-scan",
                "--ops",
                "T2B",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--json",
                json.toString());
        assertEquals(0, r.code(), r.err());
        for (String system : List.of("qs-objects", "qs-remsets", "qs-scan")) {
            assertTrue(pages(r.out(), system) > 0, r.out());
        }
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("T2B\\s+hot\\s+43740(\\s+\\S+){7}\\s.*")),
                "hot T2B with the heap's count and three systems' times: " + r.out());
        JsonNode doc = Json.MAPPER.readTree(Files.readString(json));
        assertEquals(4, doc.size(), doc.toString());
        for (int i = 1; i < 4; i++) {
            JsonNode store = doc.get(i);
            String name = store.get("store").asText();
            assertEquals(List.of("qs-objects", "qs-remsets", "qs-scan").get(i - 1), name);
            List<JsonNode> writeFaults = store.findValues("writeFaults");
            assertTrue(writeFaults.size() >= 2, "cold and hot T2B: " + store);
            if (!name.equals("qs-scan")) { // scanning faults on pages the storage manager installs itself
                assertTrue(
                        writeFaults.stream().allMatch(f -> f.asLong() == 0), name + " takes no write fault: " + store);
            }
        }
    }

    @Test
    void theDefaultTableFitsIn120ColumnsAndTheGoalLineSaysMetOrNot() {
        Run r = QsCommandTest.qs(
                "oo7", "run", "--system", "heap,qs,qs-cards,qs-b", "--ops", "T1,T6,Q1", "--reps", "1", "--warmup", "0");
        assertEquals(0, r.code(), r.err());
        String table = r.out().substring(r.out().indexOf("op "));
        table.lines().forEach(l -> assertTrue(l.length() <= 120, l.length() + " columns: " + l));
        String header = table.lines().findFirst().orElseThrow();
        assertTrue(
                header.matches(
                        "op\\s+phase\\s+count\\s+heap ms\\s+qs ms\\s+/heap\\s+qs-cards ms\\s+/heap\\s+qs-b ms\\s+/heap"
                                + "\\s+qs r/w\\s+qs-cards r/w\\s+qs-b r/w"),
                header);
        assertTrue(
                r.out()
                        .lines()
                        .anyMatch(l -> l.matches(
                                "goal: overhead <= 30% of cold - (MET|NOT MET) \\(met by \\d+ of 9 operations\\)")),
                r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T1\\s+qs\\s.*\\s(met|not met)")), r.out());
        Run wide = QsCommandTest.qs(
                "oo7", "run", "--system", "heap,qs", "--ops", "T1,T2A", "--reps", "1", "--warmup", "0", "--wide");
        assertEquals(0, wide.code(), wide.err());
        assertTrue(wide.out().contains("qs readFaults") && wide.out().contains("commit breakdown"), wide.out());
    }

    @Test
    void sigtermDuringARunRemovesItsTemporaryStores() throws Exception {
        String stderr;
        Path temp = java.nio.file.Files.createDirectories(tmp.resolve("java-tmp"));
        try (ChildJvm.Running child = ChildJvm.main(dev.quickstore.cli.Qs.class)
                .workDir(tmp)
                .jvmArgs("-Xmx1g", "-Djava.io.tmpdir=" + temp)
                .args("oo7", "run", "--system", "qs", "--size", "small", "--reps", "50")
                .timeout(java.time.Duration.ofSeconds(240))
                .start()) {
            String line = child.nextLine(java.time.Duration.ofSeconds(120)); // "OO7 small on qs: built ..."
            assertTrue(line != null && line.startsWith("OO7 small on qs: built"), line + "; " + child.describe());
            assertEquals(1, storesIn(temp), "the temporary store exists while it runs");
            child.terminate(); // SIGTERM: shutdown hooks run
            assertEquals(143, child.exitCode(), "128 + SIGTERM; " + child.describe());
            stderr = child.stderr();
        }
        try (java.util.stream.Stream<Path> left = java.nio.file.Files.walk(temp)) {
            assertEquals(
                    0,
                    storesIn(temp),
                    "no temporary store left behind: " + left.toList() + "\n--- child stderr ---\n" + stderr);
        }
    }

    private static long storesIn(Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith("qs-oo7-"))
                    .count();
        }
    }
}
