package dev.quickstore.testkit;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Seeds for randomized tests: a test method that takes a {@link Seed} parameter gets {@code -Dqs.seed} if set,
 * else its {@link FixedSeed} (method, then class), else a fresh seed. When the test fails, the failure is
 * rethrown with the seed and the command that repeats it ({@code bin/test -Dqs.seed=N -Dtest=...}) in its
 * message, and the same line goes to standard error.
 */
public final class SeedExtension implements ParameterResolver, TestExecutionExceptionHandler {
    /** The system property that fixes the seed of every randomized test. */
    public static final String PROPERTY = "qs.seed";

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(SeedExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
        return p.getParameter().getType() == Seed.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext c) {
        return c.getStore(NS).getOrComputeIfAbsent("seed", k -> choose(c), Seed.class);
    }

    private static Seed choose(ExtensionContext c) {
        Long given = Long.getLong(PROPERTY);
        if (given != null) {
            return new Seed(given);
        }
        Optional<Long> fixed = fixed(c.getTestMethod().orElse(null));
        if (fixed.isEmpty()) {
            fixed = fixed(c.getTestClass().orElse(null));
        }
        return new Seed(
                fixed.orElseGet(() -> System.nanoTime() ^ Thread.currentThread().threadId() * 0x9E3779B97F4A7C15L));
    }

    private static Optional<Long> fixed(AnnotatedElement e) {
        return e == null || !e.isAnnotationPresent(FixedSeed.class)
                ? Optional.empty()
                : Optional.of(e.getAnnotation(FixedSeed.class).value());
    }

    @Override
    public void handleTestExecutionException(ExtensionContext c, Throwable t) throws Throwable {
        Seed seed = c.getStore(NS).get("seed", Seed.class);
        if (seed == null || t instanceof org.opentest4j.TestAbortedException) {
            throw t;
        }
        String test = c.getRequiredTestClass().getSimpleName() + "#"
                + c.getTestMethod().map(m -> m.getName()).orElse("?");
        String line = test + " failed with seed " + seed + "; repeat it with: bin/test -D" + PROPERTY + "=" + seed
                + " -Dtest=" + test + " -Dsurefire.failIfNoSpecifiedTests=false";
        System.err.println(line);
        AssertionError wrapped = new AssertionError(line + "\n" + t, t);
        throw wrapped;
    }
}
