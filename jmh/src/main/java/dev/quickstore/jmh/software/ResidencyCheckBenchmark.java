package dev.quickstore.jmh.software;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.core.ServedStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.SlottedPage;
import dev.quickstore.core.software.Oid;
import dev.quickstore.core.software.Swizzler;
import dev.quickstore.core.software.SwizzlingFrames;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The hot dereference of software persistence against hardware persistence and the heap (issue 15; White and
 * DeWitt 1994, section 5.3: where E's residency checks cost when everything is resident). One random cycle
 * (Sattolo) of {@code objects} 64-byte objects, every page resident, followed {@value #STEPS} steps per
 * invocation; per step:
 *
 * <ul>
 *   <li>{@code heapField}: a Java object's reference field (the baseline);
 *   <li>{@code plainLoad}: a plain 8-byte load of the next object's address from the off-heap frame region -
 *       what QuickStore's generated getter does once its page is mapped (same bytes as the next variant);
 *   <li>{@code residencyChecked}: {@link Swizzler#deref}, the same load plus E's in-line residency check (bit
 *       test, not-taken branch) on references swizzled in place;
 *   <li>{@code oidTableProbe}: the reference kept as an OID and resolved through the OID hash table at every
 *       step - EPVM 3.0's treatment of pointers inside objects, which it never swizzled.
 * </ul>
 *
 * Run: {@code bin/bench ResidencyCheck}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ResidencyCheckBenchmark {
    static final int STEPS = 1024;
    static final int SIZE = 64;
    static final int NEXT = 8; // swizzled in place during setup
    static final int OTHER = 16; // the same target, left as an OID
    static final int TAG = 0x0e0e_0001;

    @Param({"4096", "65536"})
    int objects;

    static final class Node {
        Node next;
    }

    Path dir;
    Store store;
    Transaction tx;
    Swizzler swizzler;
    SwizzlingFrames frames;
    MemorySegment region;
    long start;
    Node heapStart;
    long at;
    Node node;

    @Setup
    public void setup() throws IOException {
        int[] succ = new int[objects];
        for (int i = 0; i < objects; i++) {
            succ[i] = i;
        }
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = objects - 1; i > 0; i--) { // Sattolo: one cycle through all objects
            int j = rnd.nextInt(i);
            int t = succ[i];
            succ[i] = succ[j];
            succ[j] = t;
        }
        Node[] nodes = new Node[objects];
        for (int i = 0; i < objects; i++) {
            nodes[i] = new Node();
        }
        for (int i = 0; i < objects; i++) {
            nodes[i].next = nodes[succ[i]];
        }
        heapStart = nodes[0];
        dir = Files.createTempDirectory("qs-residency-");
        int poolPages = objects * SIZE / 4096 + 64;
        StoreOptions o = StoreOptions.builder()
                .frames(FramesMode.SOFTWARE)
                .bufferPoolPages(poolPages)
                .build();
        store = Store.create(dir.resolve("db"), 8192, o);
        long[] refs = new long[objects];
        long[] oids = new long[objects];
        try (Transaction t = store.begin()) {
            byte[] tag = {1, 0, 0x0e, 0x0e}; // TAG little-endian
            for (int i = 0; i < objects; i++) {
                refs[i] = t.allocate(SIZE, 0, NEXT, OTHER);
                t.write(refs[i], 0, tag);
            }
            t.commit();
        }
        byte[] page = new byte[store.pageSize()];
        for (int i = 0; i < objects; i++) {
            long rel = refs[i] - store.arenaBase();
            ServedStore.of(store).readCommittedPage(rel / store.pageSize(), page);
            int slot = SlottedPage.slotAt(MemorySegment.ofArray(page), (int) (rel % store.pageSize()));
            oids[i] = Oid.of(rel / store.pageSize(), slot, TAG);
        }
        try (Transaction t = store.begin()) {
            for (int i = 0; i < objects; i++) {
                t.putLong(refs[i], NEXT, oids[succ[i]]);
                t.putLong(refs[i], OTHER, oids[succ[i]]);
            }
            t.commit();
        }
        tx = store.begin();
        swizzler = store.swizzler();
        frames = swizzler.frames();
        region = swizzler.region();
        start = swizzler.resolve(-1, oids[0]);
        long a = start;
        for (int i = 0; i < objects; i++) { // swizzle every NEXT in place, enter every object
            a = swizzler.deref(a + NEXT);
        }
        if (a != start || swizzler.pageReads() > poolPages) {
            throw new IllegalStateException("setup: the cycle did not close or pages were evicted");
        }
        at = start;
        node = heapStart;
    }

    @TearDown
    public void tearDown() throws IOException {
        tx.commit();
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @Benchmark
    @OperationsPerInvocation(STEPS)
    public Node heapField() {
        Node n = node;
        for (int i = 0; i < STEPS; i++) {
            n = n.next;
        }
        node = n;
        return n;
    }

    @Benchmark
    @OperationsPerInvocation(STEPS)
    public long plainLoad() {
        MemorySegment r = region;
        long a = at;
        for (int i = 0; i < STEPS; i++) {
            a = r.get(JAVA_LONG, a + NEXT);
        }
        at = a;
        return a;
    }

    @Benchmark
    @OperationsPerInvocation(STEPS)
    public long residencyChecked() {
        Swizzler s = swizzler;
        long a = at;
        for (int i = 0; i < STEPS; i++) {
            a = s.deref(a + NEXT);
        }
        at = a;
        return a;
    }

    @Benchmark
    @OperationsPerInvocation(STEPS)
    public long oidTableProbe() {
        MemorySegment r = region;
        SwizzlingFrames f = frames;
        long a = at;
        for (int i = 0; i < STEPS; i++) {
            a = f.lookup(r.get(JAVA_LONG, a + OTHER));
        }
        at = a;
        return a;
    }
}
