package dev.quickstore.jmh.store;

import dev.quickstore.core.Index;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * An index entry inserted and deleted again inside a running transaction (OO7 SM1 inserts a new part's keys, SM2
 * deletes them; the build inserts every object's): {@link #insertDelete} puts a random odd key into a unique INT index
 * of 10,000 even keys and takes it out again, {@link #treeMapInsertDelete} does the same to a {@code TreeMap} on the
 * heap (the baseline of the same run). The transaction stays open, so every page the pair touches is dirty already:
 * what is measured is the index's own work (descent, search, shift, the size count), not the pre-image copy or the
 * commit. Three forks by default: the results of single forks differ by up to 1.3x (docs/results.md, "An index's entry
 * count through the kept meta page").
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED") // one fork's JIT outcome varies by 1.3x
public class IndexUpdateBenchmark {
    static final int KEYS = 10_000;

    Path dir;
    Store store;
    Transaction open;
    Index index;
    final TreeMap<Integer, Long> heap = new TreeMap<>();
    final SplittableRandom rnd = new SplittableRandom(1);

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("qs-index-update");
        store = Store.create(dir.resolve("db"));
        try (Transaction tx = store.begin()) {
            Index x = tx.createIndex("ids", KeyType.INT, 0, true);
            for (int k = 0; k < KEYS; k++) {
                x.insertNumeric(2 * k, 8 + 8L * k);
                heap.put(2 * k, 8 + 8L * k);
            }
            tx.commit();
        }
        open = store.begin();
        index = open.index("ids");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        open.commit();
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @Benchmark
    public boolean insertDelete() {
        int key = 2 * rnd.nextInt(KEYS) + 1;
        index.insertNumeric(key, 8);
        return index.deleteNumeric(key, 8);
    }

    @Benchmark
    public Long treeMapInsertDelete() {
        int key = 2 * rnd.nextInt(KEYS) + 1;
        heap.put(key, 8L);
        return heap.remove(key);
    }
}
