package dev.quickstore.jmh.objects;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * Indexed reads of a persistent reference list ({@code RefArray}: one node up to 512 elements, a tree of
 * 512-entry nodes beyond) versus an {@link ArrayList} of heap objects with the same contents, in the same run:
 * {@code sum += list.get(i).value()} for every i. {@code n = 500} is a single root leaf; {@code n = 200000} is
 * a two-level tree (391 leaves on as many pages). Report persistent/heap per size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class RefListBenchmark {
    @Param({"500", "200000"})
    int n;

    static final class HeapNode {
        int value;
    }

    Path dir;
    PersistentStore store;
    ObjectTransaction tx;
    List<PNode> plist;
    List<HeapNode> hlist;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("qs-reflist-");
        store = PersistentStore.create(dir.resolve("db"), PNode.class, PBag.class);
        try (ObjectTransaction build = store.begin()) {
            PBag bag = build.create(PBag.class);
            List<PNode> items = bag.items();
            PNode prev = null;
            for (int i = 0; i < n; i++) {
                PNode node = prev == null ? build.create(PNode.class, bag) : build.create(PNode.class, prev);
                node.value(i * 3);
                items.add(node);
                prev = node;
            }
            build.root("bag", bag);
            build.commit();
        }
        tx = store.begin();
        plist = tx.root("bag", PBag.class).items();
        hlist = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            HeapNode h = new HeapNode();
            h.value = i * 3;
            hlist.add(h);
        }
        if (persistentGet() != heapGet()) {
            throw new IllegalStateException("persistent and heap lists differ");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        tx.close();
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @Benchmark
    public long heapGet() {
        List<HeapNode> l = hlist;
        long sum = 0;
        for (int i = 0, size = l.size(); i < size; i++) {
            sum += l.get(i).value;
        }
        return sum;
    }

    @Benchmark
    public long persistentGet() {
        List<PNode> l = plist;
        long sum = 0;
        for (int i = 0, size = l.size(); i < size; i++) {
            sum += l.get(i).value();
        }
        return sum;
    }
}
