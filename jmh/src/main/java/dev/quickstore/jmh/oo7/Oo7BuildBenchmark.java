package dev.quickstore.jmh.oo7;

import dev.quickstore.jmh.BenchFiles;
import dev.quickstore.oo7.Oo7Builder;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The OO7 build at steady state (issue 20's "OO7 small build including its durable commit ≤ 5× the heap build in
 * the same run"): each invocation builds a whole OO7 database into an empty store, with its commits (one per 100
 * composite parts, then one per module; each forced to the log's device on the mapped stores), as {@link
 * Oo7Builder#build} does for {@code qs oo7 build}. The empty store is created before the invocation and closed and
 * deleted after it, outside the timed region ({@code Level.Invocation}; a build takes tens to hundreds of
 * milliseconds). Each system runs in its own JVM (a fork per parameter set), so the heap build's code is not
 * compiled for the store's classes too.
 *
 * <p>Why beside {@code qs oo7 run}, which prints a build time too: the driver builds once per JVM, so its build
 * runs mostly in the interpreter and C1's code (docs/results.md, "The build in a fresh JVM": four fifths of a
 * fresh JVM's small build run before C2 has compiled its path). This benchmark measures the build once the JIT has
 * compiled it, as a long-running loader would see it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 8, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class Oo7BuildBenchmark {
    /** {@code heap}, {@code qs} (page protection), {@code qs-cards} (card marking) or {@code qs-b} ({@link Oo7Systems}). */
    @Param({"heap", "qs", "qs-cards"})
    String system;

    @Param({"small"})
    String size;

    private Oo7Config config;
    private Path dir;
    private Oo7Store store;

    @Setup(Level.Trial)
    public void config() {
        config = Oo7Config.named(size);
    }

    @Setup(Level.Invocation)
    public void emptyStore() throws IOException {
        dir = Oo7Systems.isMapped(system) ? Oo7Systems.newStoreDir("qs-oo7-build") : null;
        store = Oo7Systems.create(system, dir, 0);
    }

    @TearDown(Level.Invocation)
    public void closeAndDelete() throws IOException {
        store.close();
        store = null;
        if (dir != null) {
            BenchFiles.deleteTree(dir);
            dir = null;
        }
    }

    @Benchmark
    public Oo7Store build() {
        new Oo7Builder(config, 42).build(store, (phase, done, total) -> {});
        return store;
    }
}
