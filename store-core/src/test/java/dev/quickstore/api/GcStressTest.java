package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14's stress under each collector: several threads fault, take write faults, evict and commit through the
 * object API inside shared transactions while another thread allocates garbage ({@link GcStressChild}), in a child
 * JVM under G1, ZGC and the Parallel collector. Every value read is checked against a heap model; a wrong value or
 * a hang (the child's watchdog) fails the run. CI runs 8 s per collector; {@code -Dqs.long=true} 180 s, {@code
 * -Dqs.stress.seconds=N} N.
 */
class GcStressTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"-XX:+UseG1GC", "-XX:+UseZGC", "-XX:+UseParallelGC"})
    void threadsFaultEvictAndCommitUnderAllocationPressureWithoutAWrongValue(String gc) throws Exception {
        int seconds = Integer.getInteger("qs.stress.seconds", ChildJvm.longMode() ? 180 : 8);
        ChildJvm.Result r = ChildJvm.main(GcStressChild.class)
                .workDir(dir)
                .jvmArgs(gc, "-Xmx256m", "-ea")
                .args(dir.resolve("db").toString(), Integer.toString(seconds), "3")
                .timeout(Duration.ofSeconds(seconds + 240))
                .run();
        assertEquals(0, r.exitCode(), r.describe());
        String out = r.stdout();
        assertTrue(out.contains(" wrong 0"), out);
        assertTrue(out.contains("reopened: every value as committed"), out);
        System.out.println(
                "GC stress " + gc + ": " + out.lines().findFirst().orElse("").strip());
    }
}
