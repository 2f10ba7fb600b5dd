package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #5: "a graph of a million objects built, committed, reopened in a fresh JVM and traversed with
 * identical results". One fresh JVM builds the seeded graph ({@link MillionGraph}), commits and prints the
 * digest of a traversal; a second fresh JVM reopens the store, verifies it and traverses it; both digests must
 * equal the one this JVM computes from the seed on the heap, without the store.
 */
class MillionGraphTest {
    static final long SEED = 20261122L;

    @TempDir
    Path dir;

    @Test
    void millionObjectGraphSurvivesAFreshJvm() throws Exception {
        Path db = dir.resolve("db");
        List<String> flags = List.of("-Dqs.poolPages=16384");
        Forked.Result built = Forked.run(dir, flags, 120, MillionGraph.class, "build", db.toString(), "" + SEED);
        assertEquals(0, built.exit(), built.err());
        Forked.Result read = Forked.run(dir, flags, 120, MillionGraph.class, "traverse", db.toString());
        assertEquals(0, read.exit(), read.err());
        String expected = MillionGraph.Model.of(SEED).digest();
        int edges = MillionGraph.BIG + 9 * MillionGraph.HUB;
        assertTrue(
                expected.startsWith("visited " + MillionGraph.NODES + " edges "),
                "every node is reachable: " + expected);
        assertTrue(Long.parseLong(expected.split(" ")[3]) > edges, expected);
        assertEquals(expected, built.out().strip(), "the building JVM");
        assertEquals(expected, read.out().strip(), "a fresh JVM after reopening");
        System.out.println("million-object graph: " + built.err().strip() + "; "
                + read.err().strip());
    }
}
