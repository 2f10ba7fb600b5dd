package dev.quickstore.jmh.store;

import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.log.MoveSearch;
import dev.quickstore.core.log.PageDiff;
import dev.quickstore.core.log.PageMoves;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
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
 * What commit pays per dirty page for page-local moves ({@link MoveSearch}, REDO records of version 3),
 * against the plain diff, over 512 off-heap pages (8 MiB for both images, beyond L2) of one shape:
 *
 * <ul>
 *   <li>{@code fields}: 64 random 8-byte fields updated (OO7 T2's shape: nothing to search);
 *   <li>{@code objects}: 24 runs of 40 changed bytes 16 bytes apart, merged into ranges of about 1 KiB (objects
 *       rewritten side by side: the search runs and finds nothing);
 *   <li>{@code shift}: three bytes inserted near the start of a page of text (a text spliced in place);
 *   <li>{@code leaf}: one to four 16-byte entries inserted into a sorted B+tree leaf of 300 (keys increasing by
 *       random steps, addresses random, so shifted entries differ in most of their bytes);
 *   <li>{@code newData}: 4,000 new bytes written into free space (zeros);
 *   <li>{@code documents}: OO7 T5's page: four documents of 1,950 bytes of OO7's repeated text, each with room to
 *       grow, whose prefix {@code "I am"} becomes {@code "This is"} (four shifts of three bytes, one per document,
 *       each with its length field).
 * </ul>
 *
 * {@code plain} is the diff and encoding commit did before moves; {@code moves} is commit's path now (the diff
 * stopped at the first long range, the search, the encoding). The log bytes per page of each are printed at the
 * end of its trial.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PageMovesBenchmark {
    static final int PAGES = 512;
    static final int PAGE = 8192;
    /** The {@code documents} shape: documents per page, where the first starts, its slot, its text's length. */
    static final int DOCUMENTS = 4, DOCUMENT_AT = 48, DOCUMENT_SLOT = 2030, DOCUMENT_TEXT = 1950;

    private static final ValueLayout.OfLong BE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    @Param({"fields", "objects", "shift", "leaf", "newData", "documents"})
    String shape;

    MemorySegment before;
    MemorySegment after;
    final PageDiff.Ranges ranges = new PageDiff.Ranges();
    final PageMoves moves = new PageMoves();
    final MoveSearch search = new MoveSearch();

    /** Log bytes of the last pass over the pages, printed at the end of the trial (per page). */
    long lastBytes;

    @Setup
    public void setup() {
        Arena arena = Arena.ofShared();
        before = arena.allocate((long) PAGES * PAGE, 4096);
        after = arena.allocate((long) PAGES * PAGE, 4096);
        SplittableRandom rnd = new SplittableRandom(7);
        byte[] b = new byte[PAGE];
        for (int p = 0; p < PAGES; p++) {
            byte[] a = page(rnd, b);
            MemorySegment.copy(MemorySegment.ofArray(b), 0, before, (long) p * PAGE, PAGE);
            MemorySegment.copy(MemorySegment.ofArray(a), 0, after, (long) p * PAGE, PAGE);
        }
    }

    /** Fills {@code b} with a page of this shape and returns the page after the change. */
    private byte[] page(SplittableRandom rnd, byte[] b) {
        java.util.Arrays.fill(b, (byte) 0);
        MemorySegment s = MemorySegment.ofArray(b);
        switch (shape) {
            case "shift" -> {
                String text = "I am the documentation for a composite part, written once by the build. ";
                for (int i = 32; i < PAGE; i++) {
                    b[i] = (byte) text.charAt((i + rnd.nextInt(2)) % text.length());
                }
            }
            case "leaf" -> {
                long key = rnd.nextInt(1000);
                for (int e = 0; e < 300; e++) {
                    key += 1 + rnd.nextLong(1L << 44);
                    s.set(BE, 48 + 16 * e, key ^ Long.MIN_VALUE);
                    s.set(LE, 56 + 16 * e, 0x5a0000000000L + 8L * rnd.nextInt(1 << 28));
                }
            }
            case "newData" -> {
                for (int i = 32; i < 1000; i++) {
                    b[i] = (byte) rnd.nextInt();
                }
            }
            case "documents" -> {
                for (int d = 0; d < DOCUMENTS; d++) {
                    int at = DOCUMENT_AT + d * DOCUMENT_SLOT;
                    s.set(ValueLayout.JAVA_INT_UNALIGNED, at, DOCUMENT_TEXT);
                    String line = String.format("I am the documentation for composite part #%08d.\n", rnd.nextInt(500));
                    for (int i = 0; i < DOCUMENT_TEXT; i++) {
                        b[at + 4 + i] = (byte) line.charAt(i % line.length());
                    }
                }
            }
            default -> rnd.nextBytes(b);
        }
        byte[] a = b.clone();
        MemorySegment as = MemorySegment.ofArray(a);
        switch (shape) {
            case "fields" -> {
                for (int w = 0; w < 64; w++) {
                    int at = 8 * (4 + rnd.nextInt(PAGE / 8 - 4));
                    as.set(LE, at, as.get(LE, at) + 1);
                }
            }
            case "objects" -> {
                for (int o = 0, at = 64; o < 24; o++, at += 56) {
                    for (int i = 0; i < 40; i++) {
                        a[at + i] = (byte) rnd.nextInt();
                    }
                }
            }
            case "shift" -> {
                int at = 40 + rnd.nextInt(200);
                System.arraycopy(b, at, a, at + 3, PAGE - at - 3);
                a[at] = 'T';
                a[at + 1] = 'h';
                a[at + 2] = 's';
            }
            case "leaf" -> {
                int count = 300;
                for (int n = 1 + rnd.nextInt(4); n > 0; n--, count++) {
                    int e = rnd.nextInt(count);
                    int at = 48 + 16 * e;
                    System.arraycopy(a, at, a, at + 16, 16 * (count - e));
                    as.set(BE, at, as.get(BE, at) - 1);
                    as.set(LE, at + 8, 0x5a0000040000L + rnd.nextInt(1 << 16));
                }
            }
            case "newData" -> {
                for (int i = 1000; i < 5000; i++) {
                    a[i] = (byte) rnd.nextInt();
                }
            }
            case "documents" -> {
                for (int d = 0; d < DOCUMENTS; d++) {
                    int at = DOCUMENT_AT + d * DOCUMENT_SLOT;
                    as.set(ValueLayout.JAVA_INT_UNALIGNED, at, DOCUMENT_TEXT + 3);
                    System.arraycopy(b, at + 4 + 4, a, at + 4 + 7, DOCUMENT_TEXT - 4);
                    System.arraycopy("This is".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, a, at + 4, 7);
                }
            }
            default -> throw new IllegalArgumentException(shape);
        }
        return a;
    }

    @TearDown
    public void report() {
        System.out.printf("# %s: %d log bytes per page%n", shape, lastBytes / PAGES);
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public long plain() {
        long bytes = 0;
        for (int p = 0; p < PAGES; p++) {
            MemorySegment b = before.asSlice((long) p * PAGE, PAGE);
            MemorySegment a = after.asSlice((long) p * PAGE, PAGE);
            PageDiff.diff(b, a, PageDiff.mergeGap(1), ranges);
            bytes += LogRecord.encodePage(LogRecord.REDO, 1, 0, p, 0, null, a, ranges).length;
        }
        lastBytes = bytes;
        return bytes;
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public long moves() {
        long bytes = 0;
        for (int p = 0; p < PAGES; p++) {
            MemorySegment b = before.asSlice((long) p * PAGE, PAGE);
            MemorySegment a = after.asSlice((long) p * PAGE, PAGE);
            PageDiff.diff(b, a, PageDiff.mergeGap(1), ranges, MoveSearch.MIN_BYTES);
            search.search(b, a, 32, PageDiff.mergeGap(1), moves, ranges);
            bytes += LogRecord.encodePage(LogRecord.REDO, 1, 0, p, 0, null, a, moves, ranges).length;
        }
        lastBytes = bytes;
        return bytes;
    }
}
