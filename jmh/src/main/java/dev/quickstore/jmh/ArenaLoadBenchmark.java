package dev.quickstore.jmh;

import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.MappedArena;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * Dependent 8-byte loads (pointer chasing over a random cycle) through a global off-heap
 * {@link MemorySegment} versus a {@code long[]} of the same contents: the cost floor of following a
 * persistent reference once its page is resident (design-notes section 4: 0.30 vs 0.31 ns measured).
 * Baseline: {@link #heapArray}. Goal: segment / heap &lt;= 1.05.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ArenaLoadBenchmark {
    @Param({"4096", "1048576"})
    int slots;

    long[] heap;
    MemorySegment segment;
    MappedArena arena;
    MemorySegment arenaView;
    Path zeros;

    @Setup
    public void setup() throws IOException {
        // A single random cycle (Sattolo) so every load depends on the previous one.
        int[] perm = new int[slots];
        for (int i = 0; i < slots; i++) {
            perm[i] = i;
        }
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = slots - 1; i > 0; i--) {
            int j = rnd.nextInt(i);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        heap = new long[slots];
        segment = Arena.global().allocate((long) slots * 8, 64);
        for (int i = 0; i < slots; i++) {
            heap[i] = perm[i];
            segment.setAtIndex(ValueLayout.JAVA_LONG, i, perm[i]);
        }
        // The same cycle in a store arena: frames loaded (readable), contents written via the alias view.
        int fs = MappedArena.DEFAULT_FRAME_SIZE;
        long bytes = Math.max(fs, ((long) slots * 8 + fs - 1) / fs * fs);
        zeros = Files.createTempFile("qs-load-", ".pages");
        try (RandomAccessFile raf = new RandomAccessFile(zeros.toFile(), "rw")) {
            raf.setLength(bytes); // all-zero pages: valid "never written" pages
        }
        arena = MappedArena.open(bytes);
        arena.reserve(0, bytes / fs, arena.sources().addFileSource(zeros, 0), 0);
        arena.transaction(true);
        for (long f = 0; f < bytes / fs; f++) {
            arena.loading().prefetch(f);
        }
        for (int i = 0; i < slots; i++) {
            arena.alias().setAtIndex(ValueLayout.JAVA_LONG, i, perm[i]);
        }
        arenaView = arena.view();
    }

    @TearDown
    public void tearDown() throws IOException {
        // The arena's frames were made readable by prefetch (no faults): a fault in the timed loads
        // would mean this measured the fault path, not loads.
        FaultCounters c = arena.counters();
        arena.close();
        long faults = c.readFaults() + c.writeFaults() + c.referenceFaults() + c.spuriousFaults() + c.refusals();
        if (faults != 0) {
            throw new IllegalStateException(
                    "ArenaLoadBenchmark is invalid: " + faults + " faults during the loads: " + c);
        }
        Files.deleteIfExists(zeros);
    }

    @Benchmark
    @org.openjdk.jmh.annotations.OperationsPerInvocation(1024)
    public long heapArray() {
        long[] h = heap;
        long p = 0;
        for (int i = 0; i < 1024; i++) {
            p = h[(int) p];
        }
        return p;
    }

    /** Loads through the application view of a MappedArena whose frames are resident: goal / heap <= 1.05. */
    @Benchmark
    @org.openjdk.jmh.annotations.OperationsPerInvocation(1024)
    public long arenaView() {
        MemorySegment s = arenaView;
        long p = 0;
        for (int i = 0; i < 1024; i++) {
            p = s.getAtIndex(ValueLayout.JAVA_LONG, p);
        }
        return p;
    }

    @Benchmark
    @org.openjdk.jmh.annotations.OperationsPerInvocation(1024)
    public long offHeapSegment() {
        MemorySegment s = segment;
        long p = 0;
        for (int i = 0; i < 1024; i++) {
            p = s.getAtIndex(ValueLayout.JAVA_LONG, p);
        }
        return p;
    }
}
