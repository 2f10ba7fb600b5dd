package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #5: "a graph of a million objects built, committed, reopened in a fresh JVM and traversed with
 * identical results". One fresh JVM builds the seeded graph ({@link MillionGraph}), commits and prints the
 * digest of a traversal; a second fresh JVM reopens the store, verifies it and traverses it; both digests must
 * equal the one this JVM computes from the seed on the heap, without the store.
 */
@ExtendWith(SeedExtension.class)
class MillionGraphTest {

    @TempDir
    Path dir;

    @Test
    @FixedSeed(20261122L)
    void millionObjectGraphSurvivesAFreshJvm(Seed seed) throws Exception {
        Path db = dir.resolve("db");
        ChildJvm.Result built =
                child().args("build", db.toString(), "" + seed.value()).run();
        assertEquals(0, built.exitCode(), built.describe());
        ChildJvm.Result read = child().args("traverse", db.toString()).run();
        assertEquals(0, read.exitCode(), read.describe());
        String expected = MillionGraph.Model.of(seed.value()).digest();
        int edges = MillionGraph.BIG + 9 * MillionGraph.HUB;
        assertTrue(
                expected.startsWith("visited " + MillionGraph.NODES + " edges "),
                "every node is reachable: " + expected);
        assertTrue(Long.parseLong(expected.split(" ")[3]) > edges, expected);
        assertEquals(expected, built.stdout().strip(), "the building JVM");
        assertEquals(expected, read.stdout().strip(), "a fresh JVM after reopening");
        System.out.println("million-object graph: " + built.stderr().strip() + "; "
                + read.stderr().strip());
    }

    private ChildJvm child() {
        return ChildJvm.main(MillionGraph.class)
                .workDir(dir)
                .jvmArgs("-Xmx1g", "-Dqs.poolPages=16384")
                .timeout(Duration.ofSeconds(120));
    }
}
