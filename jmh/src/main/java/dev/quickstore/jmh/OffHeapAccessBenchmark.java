package dev.quickstore.jmh;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesStore;
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
 * Off-heap access through {@link MemorySegment} (the store's only way to touch its arena) versus
 * Chronicle Bytes, the off-heap peer named in the design (docs/peers.md), with {@code long[]} and a
 * direct {@link ByteBuffer} as reference points. Baseline for the ratios: the {@code segment*}
 * methods.
 *
 * <p>Five holders of the same {@code bytes} of data: a {@code long[]}; a direct, native-order
 * {@code ByteBuffer}; a {@code MemorySegment} from {@link Arena#global()}; a Chronicle
 * {@code NativeBytesStore} ({@link BytesStore#nativeStoreWithFixedCapacity}); and a Chronicle
 * {@code Bytes} ({@link Bytes#allocateDirect(long)}, the usual entry point, which wraps such a
 * store). The data is one random cycle of slot indices (Sattolo), so the same contents serve the
 * sequential scans and the dependent random reads.
 *
 * <ul>
 *   <li>{@code seqRead*}: sum of 1024 consecutive 8-byte loads (one 8 KiB chunk), the chunk moving
 *       through the whole buffer from call to call; ns per load.
 *   <li>{@code chase*}: 1024 dependent 8-byte loads ({@code p = data[p]}), continuing the walk from
 *       call to call so a 64 MiB cycle is really walked; ns per load.
 *   <li>{@code seqWrite*}: 1024 consecutive 8-byte stores into the moving chunk; ns per store.
 *   <li>{@code copy8k*}: one 8 KiB copy (the pre-image size) from the moving chunk into a separate
 *       8 KiB off-heap buffer: {@link MemorySegment#copy}, Chronicle {@code write(offset, source,
 *       sourceOffset, length)}, {@link System#arraycopy}, {@link ByteBuffer#put(int, ByteBuffer, int,
 *       int)}; ns per 8 KiB copy.
 * </ul>
 *
 * <p>Chronicle on JDK 25 needs {@code --sun-misc-unsafe-memory-access=allow} (it allocates and reads
 * through {@code sun.misc.Unsafe}; under {@code =deny} the first allocation throws
 * {@code UnsupportedOperationException: allocateMemory}) and three {@code --add-exports} to find
 * the JDK internals it probes at start-up; the fork below carries exactly those (found by running
 * with {@code -Dsun.reflect.debugModuleAccessChecks=true}). Note that Chronicle's
 * {@code NativeBytesStore.readLong/writeLong} do no bounds or liveness check, whereas every segment
 * access below is bounds- and liveness-checked.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "--enable-native-access=ALL-UNNAMED",
            // Chronicle peer only (docs/peers.md): Unsafe memory access and the JDK internals it probes.
            "--sun-misc-unsafe-memory-access=allow",
            "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-exports=java.base/jdk.internal.util=ALL-UNNAMED"
        })
public class OffHeapAccessBenchmark {
    /** Loads or stores per call of the per-word benchmarks: one 8 KiB chunk. */
    static final int WORDS = 1024;

    static final int CHUNK = WORDS * 8;

    static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;

    /** Size of each buffer in bytes: cache-resident (64 KiB) and far larger than the caches (64 MiB). */
    @Param({"65536", "67108864"})
    int bytes;

    long[] heap;
    ByteBuffer buffer;
    MemorySegment segment;
    BytesStore<?, Void> store;
    Bytes<Void> chronicleBytes;

    long[] heapTarget;
    ByteBuffer bufferTarget;
    MemorySegment segmentTarget;
    BytesStore<?, Void> storeTarget;
    Bytes<Void> chronicleBytesTarget;

    /** Byte offset of the next chunk (moves by {@link #CHUNK}, wraps). */
    int cursor;

    /** Where the pointer chase stands (a slot index). */
    long hop;

    int mask;

    @Setup
    public void setup() {
        if (Integer.bitCount(bytes) != 1 || bytes < CHUNK) {
            throw new IllegalArgumentException("bytes must be a power of two >= " + CHUNK + ": " + bytes);
        }
        int slots = bytes / 8;
        mask = bytes - 1;
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
        buffer = ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        segment = Arena.global().allocate(bytes, 64);
        store = BytesStore.nativeStoreWithFixedCapacity(bytes);
        chronicleBytes = Bytes.allocateDirect(bytes);
        for (int i = 0; i < slots; i++) {
            long v = perm[i];
            long off = (long) i * 8;
            heap[i] = v;
            buffer.putLong((int) off, v);
            segment.set(LONG, off, v);
            store.writeLong(off, v);
            chronicleBytes.writeLong(off, v);
        }
        heapTarget = new long[WORDS];
        bufferTarget = ByteBuffer.allocateDirect(CHUNK).order(ByteOrder.nativeOrder());
        segmentTarget = Arena.global().allocate(CHUNK, 64);
        storeTarget = BytesStore.nativeStoreWithFixedCapacity(CHUNK);
        chronicleBytesTarget = Bytes.allocateDirect(CHUNK);
        verify(slots, perm);
    }

    /** Every holder must read back the same words, or the comparison is meaningless. */
    private void verify(int slots, int[] perm) {
        for (int i = 0; i < slots; i += Math.max(1, slots / 4096)) {
            long off = (long) i * 8;
            long v = perm[i];
            if (heap[i] != v
                    || buffer.getLong((int) off) != v
                    || segment.get(LONG, off) != v
                    || store.readLong(off) != v
                    || chronicleBytes.readLong(off) != v) {
                throw new IllegalStateException("holders disagree at slot " + i);
            }
        }
        // Each copy variant must copy the chunk it was given (here the second one).
        Runnable[] copies = {
            this::copy8kSegment,
            this::copy8kChronicleStore,
            this::copy8kChronicleBytes,
            this::copy8kLongArray,
            this::copy8kByteBuffer
        };
        for (Runnable copy : copies) {
            cursor = CHUNK;
            copy.run();
        }
        int first = WORDS;
        int last = 2 * WORDS - 1;
        long[] got = {
            segmentTarget.get(LONG, 0),
            segmentTarget.get(LONG, CHUNK - 8),
            storeTarget.readLong(0),
            storeTarget.readLong(CHUNK - 8),
            chronicleBytesTarget.readLong(0),
            chronicleBytesTarget.readLong(CHUNK - 8),
            heapTarget[0],
            heapTarget[WORDS - 1],
            bufferTarget.getLong(0),
            bufferTarget.getLong(CHUNK - 8)
        };
        for (int k = 0; k < got.length; k += 2) {
            if (got[k] != perm[first] || got[k + 1] != perm[last]) {
                throw new IllegalStateException("copy variant " + k / 2 + " copied the wrong bytes");
            }
        }
        cursor = 0;
    }

    @TearDown
    public void tearDown() {
        store.releaseLast();
        chronicleBytes.releaseLast();
        storeTarget.releaseLast();
        chronicleBytesTarget.releaseLast();
    }

    private int nextChunk() {
        int off = cursor;
        cursor = (off + CHUNK) & mask;
        return off;
    }

    // ---- sequential 8-byte reads ----

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long seqReadSegment() {
        MemorySegment s = segment;
        long base = nextChunk();
        long sum = 0;
        for (int i = 0; i < WORDS; i++) {
            sum += s.get(LONG, base + i * 8L);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long seqReadChronicleStore() {
        BytesStore<?, Void> s = store;
        long base = nextChunk();
        long sum = 0;
        for (int i = 0; i < WORDS; i++) {
            sum += s.readLong(base + i * 8L);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long seqReadChronicleBytes() {
        Bytes<Void> s = chronicleBytes;
        long base = nextChunk();
        long sum = 0;
        for (int i = 0; i < WORDS; i++) {
            sum += s.readLong(base + i * 8L);
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long seqReadLongArray() {
        long[] h = heap;
        int base = nextChunk() >>> 3;
        long sum = 0;
        for (int i = 0; i < WORDS; i++) {
            sum += h[base + i];
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long seqReadByteBuffer() {
        ByteBuffer b = buffer;
        int base = nextChunk();
        long sum = 0;
        for (int i = 0; i < WORDS; i++) {
            sum += b.getLong(base + i * 8);
        }
        return sum;
    }

    // ---- dependent random 8-byte reads (pointer chasing) ----

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long chaseSegment() {
        MemorySegment s = segment;
        long p = hop;
        for (int i = 0; i < WORDS; i++) {
            p = s.getAtIndex(LONG, p);
        }
        hop = p;
        return p;
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long chaseChronicleStore() {
        BytesStore<?, Void> s = store;
        long p = hop;
        for (int i = 0; i < WORDS; i++) {
            p = s.readLong(p << 3);
        }
        hop = p;
        return p;
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long chaseChronicleBytes() {
        Bytes<Void> s = chronicleBytes;
        long p = hop;
        for (int i = 0; i < WORDS; i++) {
            p = s.readLong(p << 3);
        }
        hop = p;
        return p;
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long chaseLongArray() {
        long[] h = heap;
        long p = hop;
        for (int i = 0; i < WORDS; i++) {
            p = h[(int) p];
        }
        hop = p;
        return p;
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public long chaseByteBuffer() {
        ByteBuffer b = buffer;
        long p = hop;
        for (int i = 0; i < WORDS; i++) {
            p = b.getLong((int) p << 3);
        }
        hop = p;
        return p;
    }

    // ---- sequential 8-byte writes (values stay valid slot indices: i < WORDS <= slots) ----

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public void seqWriteSegment() {
        MemorySegment s = segment;
        long base = nextChunk();
        for (int i = 0; i < WORDS; i++) {
            s.set(LONG, base + i * 8L, i);
        }
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public void seqWriteChronicleStore() {
        BytesStore<?, Void> s = store;
        long base = nextChunk();
        for (int i = 0; i < WORDS; i++) {
            s.writeLong(base + i * 8L, i);
        }
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public void seqWriteChronicleBytes() {
        Bytes<Void> s = chronicleBytes;
        long base = nextChunk();
        for (int i = 0; i < WORDS; i++) {
            s.writeLong(base + i * 8L, i);
        }
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public void seqWriteLongArray() {
        long[] h = heap;
        int base = nextChunk() >>> 3;
        for (int i = 0; i < WORDS; i++) {
            h[base + i] = i;
        }
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public void seqWriteByteBuffer() {
        ByteBuffer b = buffer;
        int base = nextChunk();
        for (int i = 0; i < WORDS; i++) {
            b.putLong(base + i * 8, i);
        }
    }

    // ---- one 8 KiB copy (pre-image capture) ----

    @Benchmark
    public void copy8kSegment() {
        MemorySegment.copy(segment, nextChunk(), segmentTarget, 0, CHUNK);
    }

    @Benchmark
    public void copy8kChronicleStore() {
        storeTarget.write(0, store, nextChunk(), CHUNK);
    }

    @Benchmark
    public void copy8kChronicleBytes() {
        chronicleBytesTarget.write(0, chronicleBytes, nextChunk(), CHUNK);
    }

    @Benchmark
    public void copy8kLongArray() {
        System.arraycopy(heap, nextChunk() >>> 3, heapTarget, 0, WORDS);
    }

    @Benchmark
    public void copy8kByteBuffer() {
        bufferTarget.put(0, buffer, nextChunk(), CHUNK);
    }
}
