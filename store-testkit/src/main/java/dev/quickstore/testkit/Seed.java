package dev.quickstore.testkit;

import java.util.Random;
import java.util.SplittableRandom;

/**
 * The seed of a randomized test, injected by {@link SeedExtension}: {@code -Dqs.seed=N} if given, else the
 * test's {@link FixedSeed} if it has one, else a fresh one. On failure the extension names it, so the run can be
 * repeated exactly with {@code -Dqs.seed=N}.
 */
public record Seed(long value) {
    public SplittableRandom splittable() {
        return new SplittableRandom(value);
    }

    public Random random() {
        return new Random(value);
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
