package dev.quickstore.cli.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.ExitCodes;
import dev.quickstore.cli.Json;
import dev.quickstore.cli.QsCommandTest;
import dev.quickstore.cli.QsCommandTest.Run;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.Oo7Runner;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qs oo7 run} with a peer (Eclipse Store) beside the heap, cold runs in fresh JVMs included. */
class Oo7PeersCommandTest {
    @TempDir
    Path tmp;

    @Test
    void eclipseStoreRunsBesideTheHeapWithEqualCountsHotAndColdInFreshJvms() throws Exception {
        Path json = tmp.resolve("peers.json");
        Run r = QsCommandTest.qs(
                "oo7",
                "run",
                "--system",
                "heap,eclipsestore",
                "--cold",
                "process",
                "--ops",
                "T1,T2A",
                "--reps",
                "1",
                "--warmup",
                "0",
                "--json",
                json.toString());
        assertEquals(0, r.code(), r.err());
        Matcher size = Pattern.compile(
                        "OO7 small on eclipsestore: built in [\\d.]+ ms \\(temporary store, removed at exit\\);"
                                + " database ([\\d.]+) MiB on disk")
                .matcher(r.out());
        assertTrue(size.find(), r.out());
        assertTrue(Double.parseDouble(size.group(1)) > 1, "OO7 small takes megabytes: " + r.out());
        // hot rows with both systems' times and the ratio; cold rows measured in child JVMs
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("T1\\s+hot\\s+43740\\s+[\\d.]+\\s+[\\d.]+\\s+[\\d.]+x")),
                r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("T2A\\s+cold\\s+2187\\s+-\\s+[\\d.]+\\s+-")), r.out());
        assertTrue(r.err().contains("cold eclipsestore T1 run 1/1 (fresh JVM): 43740 in "), r.err());
        assertTrue(r.err().contains("cold eclipsestore T2A run 1/1 (fresh JVM): 2187 in "), r.err());
        assertTrue(r.out().contains("eclipsestore cold runs: a fresh JVM per operation; "), r.out());
        assertTrue(
                r.out().lines().anyMatch(l -> l.matches("T2A\\s+hot\\s+[\\d.]+\\s+[\\d.]+")), "commit ms: " + r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("peak heap\\s+cold\\s+-\\s+[\\d.]+")), r.out());

        JsonNode stores = Json.MAPPER.readTree(Files.readString(json));
        assertEquals(2, stores.size());
        JsonNode es = stores.get(1);
        assertEquals("eclipsestore", es.get("store").asText());
        assertTrue(es.get("databaseBytes").asLong() > 1_000_000, es.toString());
        assertEquals("process", es.get("cold").asText());
        assertEquals(2, es.get("coldRuns").asInt());
        Map<String, Integer> heapCounts = counts(stores.get(0));
        Map<String, Integer> esCounts = counts(es);
        assertEquals(Map.of("T1/hot", 43_740, "T2A/hot", 2_187), heapCounts);
        assertEquals(43_740, esCounts.get("T1/cold"));
        assertEquals(2_187, esCounts.get("T2A/cold"));
        heapCounts.forEach((k, v) -> assertEquals(v, esCounts.get(k), "count of " + k + " on eclipsestore"));
        for (JsonNode res : es.get("results")) {
            assertTrue(res.get("counters").get(Oo7Runner.PEAK_HEAP_KIB).asLong() > 0, res.toString());
            if (res.get("op").asText().equals("T2A")) {
                // the commit stored the 2,187 swapped root parts and forced them to the device
                assertTrue(res.get("counters").get("storedBytes").asLong() > 0, res.toString());
                assertTrue(res.get("counters").get("syncs").asLong() >= 2, res.toString());
                assertTrue(res.get("commitNs").get(0).asLong() > 0, res.toString());
            }
        }
    }

    @Test
    void aMisspelledSystemAndBuildingAPeerAreClearErrors() {
        Run r = QsCommandTest.qs("oo7", "run", "--system", "heap,eclipse", "--ops", "T1");
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(
                r.err().contains("unknown system 'eclipse'") && r.err().contains("eclipsestore, lmdb, mvstore"),
                r.err());
        Run b = QsCommandTest.qs(
                "oo7", "build", "--system", "eclipsestore", tmp.resolve("b").toString());
        assertTrue(b.code() != 0 && b.err().contains("qs oo7 run builds the peers itself"), b.err());
    }

    @Test
    void theFreshJvmsOfAPeerGetItsJdkFlags() {
        List<String> es = coldCommand(SystemUnderTest.eclipsestore);
        int flag = es.indexOf("--sun-misc-unsafe-memory-access=allow");
        assertTrue(flag > 0 && flag < es.indexOf("-cp"), "a JVM option, before the class path: " + es);
        assertTrue(es.containsAll(List.of("cold-op", "--system", "eclipsestore", tmp.toString())), es.toString());
        List<String> lmdb = coldCommand(SystemUnderTest.lmdb);
        int opens = lmdb.indexOf("--add-opens=java.base/java.nio=ALL-UNNAMED");
        assertTrue(opens > 0 && opens < lmdb.indexOf("-cp"), lmdb.toString());
        List<String> qs = coldCommand(SystemUnderTest.qs);
        assertTrue(
                qs.stream().noneMatch(a -> a.startsWith("--sun-misc") || a.startsWith("--add-opens")), qs.toString());
    }

    private List<String> coldCommand(SystemUnderTest system) {
        return new Oo7ColdProcess(
                        system,
                        tmp,
                        Oo7Config.SMALL,
                        42,
                        Oo7Operations.Parameters.DEFAULTS,
                        Map.of(),
                        false,
                        new PrintWriter(Writer.nullWriter()))
                .command(Oo7Operation.T1, 42, List.of());
    }

    private static Map<String, Integer> counts(JsonNode store) {
        Map<String, Integer> m = new LinkedHashMap<>();
        store.get("results")
                .forEach(res -> m.put(
                        res.get("op").asText() + "/" + res.get("phase").asText(),
                        res.get("count").asInt()));
        return m;
    }
}
