package dev.quickstore.jmh.store;

import dev.quickstore.core.Index;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Index entries inserted and deleted in ascending key order, a load's and a bulk delete's common order (ids,
 * timestamps), against a {@code TreeMap} on the heap in the same run. {@link #appendAscending} inserts the 1,000 keys
 * above the 10,000 of a unique LONG index, {@link #deleteAscending} deletes its keys 2,000-2,999; each invocation
 * runs inside a transaction begun before it and aborted after it (outside the measurement), so every invocation
 * works on the same leaves. {@link #treeMapAppendAscending} and {@link #treeMapDeleteAscending} do the same to the
 * map and undo it after the invocation. Measures the B+tree's kept leaves: the rightmost leaf an ascending insert
 * appends to, and the leaf a delete took its entry from, where the next delete finds its own (docs/results.md,
 * "Ascending keys appended to the rightmost leaf, a delete next to the last").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class IndexSequentialBenchmark {
    static final int KEYS = 10_000;
    static final int APPENDS = 1_000;
    static final long DELETED = 2_000;

    Path dir;
    Store store;
    Transaction open;
    final TreeMap<Long, Long> heap = new TreeMap<>();

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("qs-index-append");
        store = Store.create(dir.resolve("db"));
        try (Transaction tx = store.begin()) {
            Index x = tx.createIndex("ids", KeyType.LONG, 0, true);
            for (long k = 0; k < KEYS; k++) {
                x.insertNumeric(k, 8 + 8 * k);
                heap.put(k, 8 + 8 * k);
            }
            tx.commit();
        }
    }

    @Setup(Level.Invocation)
    public void begin() {
        open = store.begin();
    }

    @TearDown(Level.Invocation)
    public void end() {
        open.abort();
        heap.tailMap((long) KEYS).clear();
        for (long k = DELETED; k < DELETED + APPENDS; k++) {
            heap.put(k, 8 + 8 * k);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @Benchmark
    @OperationsPerInvocation(APPENDS)
    public boolean appendAscending() {
        Index x = open.index("ids");
        boolean all = true;
        for (long k = KEYS; k < KEYS + APPENDS; k++) {
            all &= x.insertNumeric(k, 8 + 8 * k);
        }
        return all;
    }

    @Benchmark
    @OperationsPerInvocation(APPENDS)
    public int treeMapAppendAscending() {
        for (long k = KEYS; k < KEYS + APPENDS; k++) {
            heap.put(k, 8 + 8 * k);
        }
        return heap.size();
    }

    @Benchmark
    @OperationsPerInvocation(APPENDS)
    public boolean deleteAscending() {
        Index x = open.index("ids");
        boolean all = true;
        for (long k = DELETED; k < DELETED + APPENDS; k++) {
            all &= x.deleteNumeric(k, 8 + 8 * k);
        }
        return all;
    }

    @Benchmark
    @OperationsPerInvocation(APPENDS)
    public int treeMapDeleteAscending() {
        for (long k = DELETED; k < DELETED + APPENDS; k++) {
            heap.remove(k);
        }
        return heap.size();
    }
}
