package dev.quickstore.jmh.objects;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentObject;
import dev.quickstore.api.PersistentStore;
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
 * Object deletion (issue #20's write path; OO7 SM2 deletes about 600 objects per operation): 1,000 small objects
 * created near each other and committed before the invocation, then deleted one by one inside a fresh transaction
 * ({@code delete(node)}), which is aborted afterwards. The objects' pages are clean when the deletion starts, as
 * SM2's are: the first delete on each page pays its pre-image (and, under page protection, its unprotection).
 * Nothing on the heap corresponds to a delete (the collector frees unreachable objects), so this reports ns per
 * delete, to be compared between builds in the same run; {@link #persistentGet} prices the lookup by address.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ObjectDeletionBenchmark {
    static final int OBJECTS = 1000;

    Path dir;
    PersistentStore store;
    ObjectTransaction tx;
    final long[] addresses = new long[OBJECTS];
    final PNode[] nodes = new PNode[OBJECTS];

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("qs-delete-");
        store = PersistentStore.create(dir.resolve("db"), PNode.class, PBag.class);
        try (ObjectTransaction t = store.begin()) {
            PNode prev = t.create(PNode.class);
            t.root("anchor", prev);
            for (int i = 0; i < OBJECTS; i++) {
                PNode n = t.create(PNode.class, prev);
                n.value(i);
                addresses[i] = PersistentObject.addressOf(n);
                prev = n;
            }
            t.commit();
        }
    }

    /** A fresh transaction and the proxies of the committed objects (their addresses do not change). */
    @Setup(Level.Invocation)
    public void begin() {
        tx = store.begin();
        for (int i = 0; i < OBJECTS; i++) {
            nodes[i] = tx.get(addresses[i], PNode.class);
        }
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

    /**
     * The lookups {@link #begin} makes before each invocation, measured alone: {@code get(address, PNode.class)}, which
     * checks that the address holds a live object of the type (the checked way to turn a kept address into an object).
     */
    @Benchmark
    @OperationsPerInvocation(OBJECTS)
    public PNode persistentGet() {
        PNode last = null;
        for (long a : addresses) {
            last = tx.get(a, PNode.class);
        }
        return last;
    }

    /** In creation (address) order: each page's leading slots become free first. */
    @Benchmark
    @OperationsPerInvocation(OBJECTS)
    public void persistentDelete() {
        for (PNode n : nodes) {
            tx.delete(n);
        }
    }

    /** In reverse creation order: each page's trailing slots become free first (and are trimmed). */
    @Benchmark
    @OperationsPerInvocation(OBJECTS)
    public void persistentDeleteReverse() {
        for (int i = OBJECTS - 1; i >= 0; i--) {
            tx.delete(nodes[i]);
        }
    }
}
