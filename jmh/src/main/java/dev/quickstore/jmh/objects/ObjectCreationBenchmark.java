package dev.quickstore.jmh.objects;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Batch;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Object creation inside a transaction, issue #20's first target: create a small object, set its field and link
 * it to the previous one ({@code create(PNode.class, prev)}, {@code value(i)}, {@code next(prev)}), 1,000 per
 * invocation, against the same linked list built from heap objects in the same run; report persistent/heap
 * (target: at most 200 ns per object and 5x the heap). Each invocation runs in a fresh transaction that is
 * aborted afterwards (outside the measurement), so every invocation places its objects on the same pages
 * (free again after the abort) and takes their first-write costs: the steady state of a load.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ObjectCreationBenchmark {
    static final int OBJECTS = 1000;

    static final class HeapNode {
        int value;
        HeapNode next;
    }

    Path dir;
    PersistentStore store;
    ObjectTransaction tx;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("qs-create-");
        store = PersistentStore.create(dir.resolve("db"), PNode.class, PBag.class);
        try (ObjectTransaction t = store.begin()) {
            t.root("anchor", t.create(PNode.class));
            t.commit();
        }
    }

    @Setup(Level.Invocation)
    public void begin() {
        tx = store.begin();
    }

    @TearDown(Level.Invocation)
    public void abort() {
        tx.abort();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @Benchmark
    @OperationsPerInvocation(OBJECTS)
    public HeapNode heapCreate() {
        HeapNode prev = null;
        for (int i = 0; i < OBJECTS; i++) {
            HeapNode n = new HeapNode();
            n.value = i;
            n.next = prev;
            prev = n;
        }
        return prev;
    }

    @Benchmark
    @OperationsPerInvocation(OBJECTS)
    public PNode persistentCreate() {
        return createList(tx);
    }

    /** The persistent benchmarks' work: {@link #OBJECTS} objects, each created near, and linked to, the last. */
    private static PNode createList(ObjectTransaction t) {
        PNode prev = t.root("anchor", PNode.class);
        for (int i = 0; i < OBJECTS; i++) {
            PNode n = t.create(PNode.class, prev);
            n.value(i);
            n.next(prev);
            prev = n;
        }
        return prev;
    }

    /**
     * The same objects created inside a batch ({@code ObjectTransaction.batch}): the store latch taken once for
     * the 1,000 objects instead of once per object.
     */
    @Benchmark
    @OperationsPerInvocation(OBJECTS)
    public PNode persistentCreateInBatch() {
        try (Batch _ = tx.batch()) {
            return createList(tx);
        }
    }
}
