package dev.quickstore.jmh.oo7;

import dev.quickstore.jmh.BenchFiles;
import dev.quickstore.oo7.Oo7Builder;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.Oo7Store;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.file.Path;
import java.util.Locale;
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
 * One OO7 operation at steady state (issue 13's "hot": the operation's code compiled by C2), on the Java heap
 * and on the mapped store in the same run, so that {@code qs / heap} is a ratio of one run. The object work only:
 * each invocation runs inside a transaction begun before it and committed after it, outside the timed region
 * ({@code Level.Invocation}; the operations take microseconds to milliseconds, far above JMH's per-invocation
 * timestamps). {@code op} is one operation or several joined by {@code +} (run in that order in one transaction,
 * e.g. {@code SM1+SM2}, which inserts and deletes the same number of composite parts, or {@code T5DO+T5UNDO}).
 * {@code -p size=medium} runs OO7 medium (the mapped stores' pool holds it: {@code poolPages}).
 *
 * <p>Why JMH and not only {@code qs oo7 run}: the driver's hot rounds follow 3 warm-up rounds by default, and
 * the operations' rarely-run paths (the store's commit, the allocator's placement, the index's node search) are
 * then still in C1's code. With 3,000 warm-up rounds OO7 SM1 on qs took 307-500 us where 300 rounds gave
 * 1,000-2,300 us in the same session (docs/results.md, "Hot means compiled"). Ten one-second warm-up iterations
 * here reach the same steady state; two forks show how much the JIT's choices move it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class Oo7HotBenchmark {
    /** {@code heap}, {@code qs} (page protection), {@code qs-cards} (card marking) or {@code qs-b} ({@link Oo7Systems}). */
    @Param({"heap", "qs"})
    String system;

    @Param({"T1", "T6", "T9", "Q1", "Q4", "Q8", "T2A", "T2B", "T5DO+T5UNDO", "SM1+SM2"})
    String op;

    @Param({"small"})
    String size;

    /**
     * Buffer pool frames of the mapped stores: 16,384 (128 MiB) holds OO7 small (688 pages) and medium whole, so
     * the hot operations run on resident pages as on the heap (the default pool, 4,096 frames, does not hold
     * medium).
     */
    @Param({"16384"})
    int poolPages;

    private Path dir;
    private Oo7Store store;
    private Oo7Operations ops;
    private MethodHandle[] steps;

    @Setup(Level.Trial)
    public void setup() throws Throwable {
        Oo7Config config = Oo7Config.named(size);
        if (Oo7Systems.isMapped(system)) {
            dir = Oo7Systems.newStoreDir("qs-oo7-hot");
        }
        store = Oo7Systems.create(system, dir, poolPages);
        new Oo7Builder(config, 42).build(store, (phase, done, total) -> {});
        ops = new Oo7Operations(store, config, 42, Oo7Operations.Parameters.DEFAULTS);
        String[] names = op.split("\\+");
        steps = new MethodHandle[names.length];
        for (int i = 0; i < names.length; i++) {
            steps[i] = MethodHandles.publicLookup()
                    .findVirtual(
                            Oo7Operations.class, names[i].toLowerCase(Locale.ROOT), MethodType.methodType(int.class))
                    .bindTo(ops);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        if (dir != null) {
            BenchFiles.deleteTree(dir);
        }
    }

    @Setup(Level.Invocation)
    public void begin() {
        store.begin();
    }

    @TearDown(Level.Invocation)
    public void commit() {
        store.commit();
    }

    @Benchmark
    public int operation() throws Throwable {
        int result = 0;
        for (MethodHandle step : steps) {
            result += (int) step.invokeExact();
        }
        return result;
    }
}
