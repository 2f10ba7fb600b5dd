package dev.quickstore.jmh;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.mmu.FaultCounters;
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
 * The native fault path against its bare baselines, in one run (design-notes section 4):
 *
 * <ul>
 *   <li>{@link #readFault} (pread of an 8 KiB page from the OS page cache into the frame's kept
 *       memory + CRC32C check + mprotect READ) vs {@link #bareReadFault} (signal + mprotect READ):
 *       goal ratio &lt;= 2; {@link #readFaultFreshMemory} is the same fault when eviction freed the
 *       frame's memory, so pread has to allocate and zero it;
 *   <li>{@link #writeFault} (8 KiB pre-image copy + mprotect RW on a clean frame) vs {@link
 *       #bareWriteFault} (signal + 8 KiB copy + mprotect RW): goal ratio &lt;= 1.5. A CLEAN frame is
 *       PROT_READ while the bare frames start PROT_NONE, and the kernel charges about 1 us more for a
 *       write fault + mprotect RW on a readable page; so two like-for-like pairs as well: {@link
 *       #writeFaultReprotected} (clean frames after reprotectAll, PROT_NONE) vs {@link
 *       #bareWriteFault}, and {@link #writeFault} vs {@link #bareWriteFaultReadable} (bare frames
 *       PROT_READ);
 *   <li>{@link #reprotectAll} (whole-arena reprotection of {@value #RESIDENT} resident frames), per
 *       resident frame, vs {@link #bareReprotectAll} (one mprotect NONE over the same populated
 *       range).
 * </ul>
 *
 * <p>Every invocation makes {@value #BATCH} real faults, one per operation: each benchmark has its own
 * state (its own arena), and that state's {@code @Setup(Level.Invocation)}, which is not timed,
 * re-arms exactly the frames the invocation will touch. Each state counts the operations it armed
 * and its {@code @TearDown(Level.Trial)} throws unless the arena's fault counters show exactly one
 * fault of the expected kind per operation and nothing else (no spurious faults, waits or refusals)
 * - so a benchmark that stops faulting fails instead of reporting a number.
 *
 * <p>(The previous version injected the benchmark instance into separate setup states; JMH gave
 * those states a different instance, so the arenas being timed were never re-armed and it reported
 * about 8 ns per "fault".)
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class FaultBenchmark {
    static final int FS = MappedArena.DEFAULT_FRAME_SIZE;
    /** Faults per invocation (one per frame of the batch). */
    static final int BATCH = 256;
    /** Resident frames for the reprotection benchmarks. */
    static final int RESIDENT = 4096;

    /** A page file of BATCH valid pages (CRC32C header), pulled into the OS page cache. */
    @State(Scope.Benchmark)
    public static class PageFile {
        Path file;

        @Setup(Level.Trial)
        public void create() throws IOException {
            file = Files.createTempFile("qs-bench-", ".pages");
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.allocate(FS).order(ByteOrder.LITTLE_ENDIAN);
                for (int p = 0; p < RESIDENT; p++) {
                    for (int k = 1; k < FS / 8; k++) {
                        b.putLong(8 * k, (long) p * 1_000_003L + k);
                    }
                    b.putInt(0, 0);
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
        }

        @TearDown(Level.Trial)
        public void delete() throws IOException {
            Files.deleteIfExists(file);
        }

        MappedArena openStore(int frames) {
            MappedArena a = MappedArena.open((long) frames * FS);
            a.reserve(0, frames, a.sources().addFileSource(file, 0), 0);
            a.transaction(true);
            return a;
        }
    }

    /** Checks counter deltas at the end of a trial; a mismatch fails the benchmark. */
    static void expect(String what, long expected, long actual) {
        if (expected != actual) {
            throw new IllegalStateException("FaultBenchmark is invalid: " + what + " = " + actual + ", expected "
                    + expected + " (one fault per measured operation)");
        }
    }

    static long sum(MemorySegment v, int frames) {
        long s = 0;
        for (long f = 0; f < frames; f++) {
            s += v.get(JAVA_LONG, f * FS + 8);
        }
        return s;
    }

    // ---- read faults ------------------------------------------------------------------------------

    /**
     * Store arena whose BATCH frames are evicted before each invocation, keeping their memory (the
     * buffer pool recycles it): the read fault is pread into mapped memory + CRC32C + mprotect READ.
     */
    @State(Scope.Thread)
    public static class StoreRead {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;

        @Setup(Level.Trial)
        public void open(PageFile pages) {
            arena = pages.openStore(BATCH);
            view = arena.view();
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            expect("evicted frames", BATCH, arena.evict(0, BATCH, false, true) + (ops == 0 ? BATCH : 0));
            ops += BATCH;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("readFaults", ops, c.readFaults() - start.readFaults());
            expect("bytesRead", ops * FS, c.bytesRead() - start.bytesRead());
            expect("writeFaults", 0, c.writeFaults() - start.writeFaults());
            expect("referenceFaults", 0, c.referenceFaults() - start.referenceFaults());
            expect("spuriousFaults", 0, c.spuriousFaults() - start.spuriousFaults());
            expect("waits", 0, c.waits() - start.waits());
            expect("refusals", 0, c.refusals() - start.refusals());
        }
    }

    /**
     * Store arena whose BATCH frames are evicted with their memory freed (punched out of the memfd)
     * before each invocation: the read fault also allocates and zeroes memory inside pread.
     */
    @State(Scope.Thread)
    public static class StoreReadFreshMemory {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;

        @Setup(Level.Trial)
        public void open(PageFile pages) {
            arena = pages.openStore(BATCH);
            view = arena.view();
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            expect("evicted frames", BATCH, arena.evict(0, BATCH, false) + (ops == 0 ? BATCH : 0));
            ops += BATCH;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("readFaults", ops, c.readFaults() - start.readFaults());
            expect("bytesRead", ops * FS, c.bytesRead() - start.bytesRead());
            expect("writeFaults", 0, c.writeFaults() - start.writeFaults());
            expect("referenceFaults", 0, c.referenceFaults() - start.referenceFaults());
            expect("spuriousFaults", 0, c.spuriousFaults() - start.spuriousFaults());
            expect("waits", 0, c.waits() - start.waits());
            expect("refusals", 0, c.refusals() - start.refusals());
        }
    }

    /** Baseline arena (fault = mprotect READ only), reprotected before each invocation. */
    @State(Scope.Thread)
    public static class BareRead {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;

        @Setup(Level.Trial)
        public void open() {
            arena = MappedArena.openBaseline((long) (BATCH + 1) * FS, FS);
            view = arena.view();
            arena.alias().fill((byte) 1); // memory populated, like a resident buffer pool
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            arena.reprotectAll();
            ops += BATCH;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("bare readFaults", ops, c.readFaults() - start.readFaults());
            expect("bare writeFaults", 0, c.writeFaults() - start.writeFaults());
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long readFault(StoreRead s) {
        return sum(s.view, BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long readFaultFreshMemory(StoreReadFreshMemory s) {
        return sum(s.view, BATCH);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long bareReadFault(BareRead s) {
        return sum(s.view, BATCH);
    }

    // ---- write faults -----------------------------------------------------------------------------

    /** Store arena whose BATCH frames are resident and CLEAN (readable) before each invocation. */
    @State(Scope.Thread)
    public static class StoreWrite {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;

        @Setup(Level.Trial)
        public void open(PageFile pages) {
            arena = pages.openStore(BATCH);
            view = arena.view();
            for (int f = 0; f < BATCH; f++) {
                arena.loading().prefetch(f);
            }
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            if (ops > 0) {
                for (int f = 0; f < BATCH; f++) {
                    if (!arena.preimages().markClean(f)) {
                        throw new IllegalStateException("FaultBenchmark is invalid: frame " + f + " was not dirtied");
                    }
                }
            }
            ops += BATCH;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("writeFaults", ops, c.writeFaults() - start.writeFaults());
            expect("preimageBytes", ops * FS, c.preimageBytes() - start.preimageBytes());
            expect("readFaults", 0, c.readFaults() - start.readFaults());
            expect("referenceFaults", 0, c.referenceFaults() - start.referenceFaults());
            expect("spuriousFaults", 0, c.spuriousFaults() - start.spuriousFaults());
            expect("waits", 0, c.waits() - start.waits());
            expect("refusals", 0, c.refusals() - start.refusals());
        }
    }

    /** Baseline arena (fault = 8 KiB copy + mprotect RW), reprotected before each invocation. */
    @State(Scope.Thread)
    public static class BareWrite {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;

        @Setup(Level.Trial)
        public void open() {
            arena = MappedArena.openBaseline((long) (BATCH + 1) * FS, FS);
            view = arena.view();
            arena.alias().fill((byte) 1);
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            arena.reprotectAll();
            ops += BATCH;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("bare writeFaults", ops, c.writeFaults() - start.writeFaults());
            expect("bare readFaults", 0, c.readFaults() - start.readFaults());
        }
    }

    /**
     * Store arena whose BATCH frames are resident, CLEAN and reprotected to PROT_NONE by {@code
     * reprotectAll()} before each invocation: the write fault starts from PROT_NONE like {@link
     * BareWrite}'s (one fault: pre-image + mprotect RW, counted as a write fault).
     */
    @State(Scope.Thread)
    public static class StoreWriteReprotected {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;

        @Setup(Level.Trial)
        public void open(PageFile pages) {
            arena = pages.openStore(BATCH);
            view = arena.view();
            for (int f = 0; f < BATCH; f++) {
                arena.loading().prefetch(f);
            }
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            if (ops > 0) {
                for (int f = 0; f < BATCH; f++) {
                    if (!arena.preimages().markClean(f)) {
                        throw new IllegalStateException("FaultBenchmark is invalid: frame " + f + " was not dirtied");
                    }
                }
            }
            expect("frames reprotected", BATCH, arena.reprotectAll());
            ops += BATCH;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("writeFaults", ops, c.writeFaults() - start.writeFaults());
            expect("preimageBytes", ops * FS, c.preimageBytes() - start.preimageBytes());
            expect("readFaults", 0, c.readFaults() - start.readFaults());
            expect("referenceFaults", 0, c.referenceFaults() - start.referenceFaults());
            expect("spuriousFaults", 0, c.spuriousFaults() - start.spuriousFaults());
            expect("waits", 0, c.waits() - start.waits());
            expect("refusals", 0, c.refusals() - start.refusals());
        }
    }

    /**
     * Baseline arena whose frames are made readable (one bare read fault each, not timed) before each
     * invocation: the write fault starts from PROT_READ like {@link StoreWrite}'s CLEAN frames.
     */
    @State(Scope.Thread)
    public static class BareWriteReadable {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;

        @Setup(Level.Trial)
        public void open() {
            arena = MappedArena.openBaseline((long) (BATCH + 1) * FS, FS);
            view = arena.view();
            arena.alias().fill((byte) 1);
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            arena.reprotectAll();
            sum(view, BATCH); // one bare read fault per frame: PROT_READ
            ops += BATCH;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("bare writeFaults", ops, c.writeFaults() - start.writeFaults());
            expect("bare readFaults in setup", ops, c.readFaults() - start.readFaults());
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void writeFaultReprotected(StoreWriteReprotected s) {
        MemorySegment v = s.view;
        for (long f = 0; f < BATCH; f++) {
            v.set(JAVA_LONG, f * FS + 8, f);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void bareWriteFaultReadable(BareWriteReadable s) {
        MemorySegment v = s.view;
        for (long f = 0; f < BATCH; f++) {
            v.set(JAVA_LONG, f * FS + 8, f);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void writeFault(StoreWrite s) {
        MemorySegment v = s.view;
        for (long f = 0; f < BATCH; f++) {
            v.set(JAVA_LONG, f * FS + 8, f);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void bareWriteFault(BareWrite s) {
        MemorySegment v = s.view;
        for (long f = 0; f < BATCH; f++) {
            v.set(JAVA_LONG, f * FS + 8, f);
        }
    }

    // ---- whole-arena reprotection -------------------------------------------------------------------

    /** Store arena with RESIDENT frames resident and readable before each invocation. */
    @State(Scope.Thread)
    public static class StoreResident {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;
        long reprotected;

        @Setup(Level.Trial)
        public void open(PageFile pages) {
            arena = pages.openStore(RESIDENT);
            view = arena.view();
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            for (int f = 0; f < RESIDENT; f++) {
                arena.loading().prefetch(f); // loads it, or makes a reprotected frame readable again
            }
            // touch every frame through the view (no fault: prefetch made it readable), so that its
            // page-table entries exist as for frames in use, and mprotect has real work to do
            sum(view, RESIDENT);
            ops += RESIDENT;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("frames reprotected", ops, reprotected);
            expect(
                    "faults while touching prefetched frames",
                    0,
                    c.readFaults()
                            + c.referenceFaults()
                            + c.spuriousFaults()
                            - start.readFaults()
                            - start.referenceFaults()
                            - start.spuriousFaults());
        }
    }

    /** Baseline arena, RESIDENT frames populated and made readable (by faults) before each invocation. */
    @State(Scope.Thread)
    public static class BareResident {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;

        @Setup(Level.Trial)
        public void open() {
            arena = MappedArena.openBaseline((long) (RESIDENT + 1) * FS, FS);
            view = arena.view();
            arena.alias().fill((byte) 1);
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            sum(view, RESIDENT);
            ops += RESIDENT;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            // each frame of each invocation was readable again (one fault in arm) before the reprotection
            expect("bare readFaults in setup", ops, c.readFaults() - start.readFaults());
        }
    }

    /** Whole-arena reprotection; the score is per resident frame. */
    @Benchmark
    @OperationsPerInvocation(RESIDENT)
    public long reprotectAll(StoreResident s) {
        long n = s.arena.reprotectAll();
        s.reprotected += n;
        return n;
    }

    /** One mprotect(NONE) over the same populated range; per frame. */
    @Benchmark
    @OperationsPerInvocation(RESIDENT)
    public long bareReprotectAll(BareResident s) {
        return s.arena.reprotectAll();
    }
}
