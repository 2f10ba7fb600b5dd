package dev.quickstore.cli.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import dev.quickstore.cli.Json;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Result;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The OO7 result files read back by Jackson: every value where the header says, names with quotes survive. */
class Oo7ResultFilesTest {
    private static Oo7Result result(Oo7Operation op, Oo7Result.Phase phase, int count, Map<String, Long> counters) {
        return new Oo7Result(op, phase, count, true, new long[] {30, 10, 20}, new long[] {5, 7, 6}, counters);
    }

    private static Map<String, List<Oo7Result>> twoStores() {
        Map<String, List<Oo7Result>> bySystem = new LinkedHashMap<>();
        bySystem.put("heap", List.of(result(Oo7Operation.T1, Oo7Result.Phase.HOT, 43_740, Map.of("commits", 3L))));
        bySystem.put(
                "qs \"b\", with\nnewline",
                List.of(result(Oo7Operation.Q1, Oo7Result.Phase.COLD, 10, Map.of("readFaults", 12L))));
        return bySystem;
    }

    @Test
    void csvHasOneHeaderAndTheUnionOfTheCounters() throws Exception {
        String csv = Oo7ResultFiles.csv(Oo7Config.SMALL, twoStores());
        CsvMapper mapper = new CsvMapper();
        List<Map<String, String>> rows;
        try (MappingIterator<Map<String, String>> it = mapper.readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader())
                .readValues(csv)) {
            rows = it.readAll();
        }
        assertEquals(2, rows.size(), csv);
        Map<String, String> heap = rows.get(0);
        assertEquals(
                List.of(
                        "store",
                        "size",
                        "op",
                        "phase",
                        "count",
                        "count_stable",
                        "runs",
                        "median_ns",
                        "min_ns",
                        "max_ns",
                        "commit_median_ns",
                        "commits",
                        "readFaults"),
                List.copyOf(heap.keySet()));
        assertEquals("heap", heap.get("store"));
        assertEquals("small", heap.get("size"));
        assertEquals("T1", heap.get("op"));
        assertEquals("hot", heap.get("phase"));
        assertEquals("43740", heap.get("count"));
        assertEquals("3", heap.get("runs"));
        assertEquals("20", heap.get("median_ns"));
        assertEquals("10", heap.get("min_ns"));
        assertEquals("30", heap.get("max_ns"));
        assertEquals("6", heap.get("commit_median_ns"));
        assertEquals("3", heap.get("commits"));
        assertEquals("0", heap.get("readFaults"), "a counter the store lacks is 0");
        assertEquals("qs \"b\", with\nnewline", rows.get(1).get("store"));
        assertEquals("cold", rows.get(1).get("phase"));
        assertEquals("12", rows.get(1).get("readFaults"));
    }

    @Test
    void jsonCarriesEveryRunAndTheAttributes() throws Exception {
        String json = Oo7ResultFiles.json(
                Oo7Config.SMALL, 42, twoStores(), Map.of("heap", Map.of("databasePages", 7L, "cold", "none")));
        JsonNode root = Json.MAPPER.readTree(json);
        assertEquals(2, root.size());
        JsonNode heap = root.get(0);
        assertEquals("heap", heap.get("store").asText());
        assertEquals("small", heap.get("size").asText());
        assertEquals(42, heap.get("seed").asLong());
        assertEquals(7, heap.get("databasePages").asLong());
        assertEquals("none", heap.get("cold").asText());
        JsonNode t1 = heap.get("results").get(0);
        assertEquals("T1", t1.get("op").asText());
        assertEquals("hot", t1.get("phase").asText());
        assertEquals(43_740, t1.get("count").asInt());
        assertEquals(20, t1.get("medianNs").asLong());
        assertEquals("[30,10,20]", t1.get("opNs").toString());
        assertEquals("[5,7,6]", t1.get("commitNs").toString());
        assertEquals(3, t1.get("counters").get("commits").asLong());
        assertEquals("qs \"b\", with\nnewline", root.get(1).get("store").asText());
    }
}
