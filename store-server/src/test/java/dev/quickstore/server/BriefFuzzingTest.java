package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.FuzzChild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes {@link PageWireFuzzTest} in a child JVM ({@link FuzzChild}): 5 s in CI, 300 s with {@code -Dqs.long=true}
 * ({@code -Dqs.fuzz.seconds=N} overrides both); the figures are printed and appended to {@code
 * target/fuzz-results.txt}.
 */
class BriefFuzzingTest {
    @Test
    void theDecoderSurvivesFuzzing() throws Exception {
        Duration d = Duration.ofSeconds(Long.getLong("qs.fuzz.seconds", ChildJvm.longMode() ? 300 : 5));
        FuzzChild.Stats s = FuzzChild.fuzz(PageWireFuzzTest.class.getName(), "pageRequest", d);
        System.out.println("fuzz " + s);
        Files.writeString(
                Path.of("target", "fuzz-results.txt"), s + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        assertTrue(s.clean() && s.execs() > 0, s + "\n" + s.output());
    }
}
