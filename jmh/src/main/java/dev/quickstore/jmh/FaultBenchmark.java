package dev.quickstore.jmh;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.mmu.MappedArena;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
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
 * The native fault path against its bare baselines, in one run (design-notes section 8):
 * <ul>
 *   <li>{@link #readFault} (pread from the OS page cache + CRC32C check + mprotect READ) vs
 *       {@link #bareReadFault} (signal + mprotect READ): goal ratio &lt;= 2;
 *   <li>{@link #writeFault} (pre-image copy of 8 KiB + mprotect RW) vs {@link #bareWriteFault}
 *       (signal + 8 KiB copy + mprotect RW): goal ratio &lt;= 1.5;
 *   <li>{@link #reprotectAll}: whole-arena reprotection, per resident page.
 * </ul>
 * Each invocation touches every frame once (a real SIGSEGV each); the per-invocation setup, which is
 * not timed, makes the frames fault again (evict / reprotect).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class FaultBenchmark {
    static final int FS = 8192;
    static final int FRAMES = 2048;

    Path file;
    MappedArena store;
    MappedArena bare;
    MemorySegment storeView;
    MemorySegment bareView;

    @Setup(Level.Trial)
    public void open() throws IOException {
        file = Files.createTempFile("qs-bench-", ".pages");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.allocate(FS).order(ByteOrder.LITTLE_ENDIAN);
            for (int p = 0; p < FRAMES; p++) {
                for (int k = 1; k < FS / 8; k++) {
                    b.putLong(8 * k, (long) p * 1_000_003L + k);
                }
                CRC32C crc = new CRC32C();
                crc.update(b.array(), 4, FS - 4);
                b.putInt(0, (int) crc.getValue());
                ch.write(b.clear(), (long) p * FS);
            }
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            byte[] buf = new byte[1 << 20];
            while (raf.read(buf) > 0) {
                // pull the file into the OS page cache
            }
        }
        store = MappedArena.open((long) FRAMES * FS);
        int src = store.addFileSource(file, 0);
        store.reserve(0, FRAMES, src, 0);
        store.transaction(true);
        storeView = store.view();
        bare = MappedArena.openBaseline((long) (FRAMES + 1) * FS, FS);
        bareView = bare.view();
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        store.close();
        bare.close();
        Files.deleteIfExists(file);
    }

    /** Read faults: every frame evicted (bytes punched out, page stays reserved). */
    @State(Scope.Thread)
    public static class ReadSetup {
        @Setup(Level.Invocation)
        public void evict(FaultBenchmark b) {
            b.store.evict(0, FRAMES, true);
            b.bare.reprotectAll();
        }
    }

    /** Write faults: every frame resident and clean (readable); the baseline readable too. */
    @State(Scope.Thread)
    public static class WriteSetup {
        @Setup(Level.Invocation)
        public void cleanResident(FaultBenchmark b) {
            b.store.evict(0, FRAMES, true);
            for (int f = 0; f < FRAMES; f++) {
                b.store.prefetch(f);
            }
            b.bare.reprotectAll();
            long s = 0;
            for (int f = 0; f < FRAMES; f++) {
                s += b.bareView.get(JAVA_LONG, (long) f * FS);
            }
            if (s == 42) {
                throw new IllegalStateException();
            }
        }
    }

    /** Reprotection: every frame resident and readable. */
    @State(Scope.Thread)
    public static class ReprotectSetup {
        @Setup(Level.Invocation)
        public void resident(FaultBenchmark b) {
            for (int f = 0; f < FRAMES; f++) {
                b.store.prefetch(f);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long readFault(ReadSetup s) {
        MemorySegment v = storeView;
        long sum = 0;
        for (long f = 0; f < FRAMES; f++) {
            sum += v.get(JAVA_LONG, f * FS + 8);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long bareReadFault(ReadSetup s) {
        MemorySegment v = bareView;
        long sum = 0;
        for (long f = 0; f < FRAMES; f++) {
            sum += v.get(JAVA_LONG, f * FS + 8);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public void writeFault(WriteSetup s) {
        MemorySegment v = storeView;
        for (long f = 0; f < FRAMES; f++) {
            v.set(JAVA_LONG, f * FS + 8, f);
        }
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public void bareWriteFault(WriteSetup s) {
        MemorySegment v = bareView;
        for (long f = 0; f < FRAMES; f++) {
            v.set(JAVA_LONG, f * FS + 8, f);
        }
    }

    /** Whole-arena reprotection; the score is per resident page. */
    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public long reprotectAll(ReprotectSetup s) {
        return store.reprotectAll();
    }
}
