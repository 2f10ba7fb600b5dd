package dev.quickstore.jmh.store;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Log bytes per OO7-style update versus bytes changed. A transaction updates {@code updates} atomic
 * parts (OO7 AtomicPart-sized objects of 72 bytes, 100 per 8 KiB page, clustered as OO7 places a
 * composite part's atomic parts together) the T2 way: x and y (two 4-byte ints at offsets 16 and 20)
 * are incremented, so 8 bytes change per part; in "T2a" style only every 20th part (one root part
 * per composite) is updated. Reported as aux counters: log bytes, updates and (an upper bound of) bytes
 * changed; log bytes per update = logBytes / updates.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class Oo7UpdateLogBenchmark {
    static final int PARTS = 2000;
    static final int PART_SIZE = 72;

    /** every part (T2b-like) or every 20th (T2a-like). */
    @Param({"1", "20"})
    int stride;

    Path dir;
    Store store;
    long[] parts = new long[PARTS];

    @AuxCounters(AuxCounters.Type.EVENTS)
    @State(Scope.Thread)
    public static class LogCounters {
        public long logBytes;
        public long updates;
        /** Upper bound: x and y are 8 bytes; an increment usually changes fewer. */
        public long changedBytes;
    }

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory(
                Path.of(System.getProperty("qs.bench.dir", System.getProperty("java.io.tmpdir"))), "qs-oo7");
        store = Store.create(dir.resolve("db"));
        try (Transaction tx = store.begin()) {
            long near = 0;
            for (int i = 0; i < PARTS; i++) {
                parts[i] = tx.allocate(PART_SIZE, near, 32, 40, 48);
                near = parts[i];
            }
            tx.commit();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        BenchFiles.deleteTree(dir);
        System.out.printf(
                "%n[oo7] stride %d: redo records %d, redo bytes %d%n",
                stride, store.stats().redoRecords(), store.stats().redoBytes());
    }

    @Benchmark
    public void t2Update(LogCounters c) throws IOException {
        long before = store.stats().logEndLsn();
        int n = 0;
        try (Transaction tx = store.begin()) {
            for (int i = 0; i < PARTS; i += stride) {
                int x = (int) tx.getLong(parts[i], 16);
                tx.putLong(parts[i], 16, ((long) (x + 1) & 0xffffffffL) | ((long) (x + 1) << 32));
                n++;
            }
            tx.commit();
        }
        c.logBytes += store.stats().logEndLsn() - before;
        c.updates += n;
        c.changedBytes += 8L * n;
    }
}
