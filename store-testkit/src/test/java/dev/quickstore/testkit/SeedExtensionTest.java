package dev.quickstore.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** The seed extension run by the JUnit engine itself on sample test classes. */
class SeedExtensionTest {
    static final List<Long> SEEN = new ArrayList<>();

    @ExtendWith(SeedExtension.class)
    @FixedSeed(7)
    static class Sample {
        @Test
        void passes(Seed seed) {
            SEEN.add(seed.value());
        }

        @Test
        @FixedSeed(11)
        void fails(Seed seed) {
            SEEN.add(seed.value());
            throw new AssertionError("boom");
        }
    }

    @Test
    void fixedSeedsAreInjectedAndAFailureNamesItsSeed() {
        SEEN.clear();
        String saved = System.clearProperty(SeedExtension.PROPERTY);
        try {
            Events tests = EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(Sample.class))
                    .execute()
                    .testEvents();
            assertEquals(1, tests.succeeded().count());
            assertEquals(1, tests.failed().count());
            Throwable t = tests.failed().stream()
                    .findFirst()
                    .orElseThrow()
                    .getPayload(org.junit.platform.engine.TestExecutionResult.class)
                    .orElseThrow()
                    .getThrowable()
                    .orElseThrow();
            assertTrue(t.getMessage().contains("Sample#fails failed with seed 11"), t.getMessage());
            assertTrue(t.getMessage().contains("-Dqs.seed=11"), t.getMessage());
            assertTrue(t.getMessage().contains("boom"), t.getMessage());
            assertTrue(SEEN.containsAll(List.of(7L, 11L)), SEEN.toString());
        } finally {
            if (saved != null) {
                System.setProperty(SeedExtension.PROPERTY, saved);
            }
        }
    }

    @Test
    void theSystemPropertyWinsOverTheFixedSeed() {
        SEEN.clear();
        String saved = System.setProperty(SeedExtension.PROPERTY, "99");
        try {
            EngineTestKit.engine("junit-jupiter")
                    .selectors(selectClass(Sample.class))
                    .execute();
            assertEquals(List.of(99L, 99L), SEEN.stream().sorted().toList());
        } finally {
            if (saved == null) {
                System.clearProperty(SeedExtension.PROPERTY);
            } else {
                System.setProperty(SeedExtension.PROPERTY, saved);
            }
        }
    }
}
