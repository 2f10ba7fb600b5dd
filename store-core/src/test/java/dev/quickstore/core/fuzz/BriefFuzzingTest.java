package dev.quickstore.core.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.FuzzChild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the store-core targets in child JVMs ({@link FuzzChild}): in CI the combined target {@code
 * everyDecoder} for 20 s; with {@code -Dqs.long=true} every target on its own for 300 s ({@code
 * -Dqs.fuzz.seconds=N} overrides both). The seeds alone are replayed by the targets' own classes in regression mode. Each
 * run's libFuzzer figures are printed and appended to {@code target/fuzz-results.txt}.
 */
class BriefFuzzingTest {
    static final List<String> FILE_TARGETS = List.of(
            "volumeHeader",
            "spaceMap",
            "slottedPage",
            "bplusTree",
            "logRecord",
            "logSegment",
            "placementFile",
            "controlFile",
            "doubleWriteBuffer");

    @Test
    void everyDecoderSurvivesFuzzing() throws Exception {
        StringBuilder failures = new StringBuilder();
        if (ChildJvm.longMode()) {
            Duration d = Duration.ofSeconds(Long.getLong("qs.fuzz.seconds", 300));
            for (String t : FILE_TARGETS) {
                record(FuzzChild.fuzz(StoreFilesFuzzTest.class.getName(), t, d), failures);
            }
            record(FuzzChild.fuzz("dev.quickstore.api.internal.CatalogFuzzTest", "schemaCatalog", d), failures);
            record(FuzzChild.fuzz("dev.quickstore.core.remote.SessionFramesFuzzTest", "sessionFrame", d), failures);
        } else {
            // CI: all targets in one JVM (a JVM and Jazzer's start cost more than a few seconds of fuzzing)
            Duration d = Duration.ofSeconds(Long.getLong("qs.fuzz.seconds", 20));
            record(FuzzChild.fuzz(StoreFilesFuzzTest.class.getName(), "everyDecoder", d), failures);
        }
        assertTrue(failures.isEmpty(), failures.toString());
    }

    static void record(FuzzChild.Stats s, StringBuilder failures) throws java.io.IOException {
        System.out.println("fuzz " + s);
        Files.writeString(
                Path.of("target", "fuzz-results.txt"), s + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (!s.clean() || s.execs() == 0) {
            failures.append(s).append('\n').append(s.output()).append('\n');
        }
    }
}
