package dev.quickstore.jmh.store;

import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.page.SlottedPage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A scan of a slotted page's slot array before and after C2 has compiled it (docs/results.md, "Page scans before
 * C2"): {@link SlottedPage#denseEnd} of a page of 400 objects appended back to back, which reads the slot array
 * with one bulk copy and then loops over an array, against the same scan written with two segment reads per slot
 * (the loop {@code denseEnd} had before). The {@code Tier3} methods run in a JVM that stops at C1's profiling tier
 * ({@code -XX:TieredStopAtLevel=3}): what a store's code runs from its first 200 calls until C2 has compiled it, and
 * most of a fresh JVM's OO7 build. The {@code C2} methods run with the default tiers, after JMH's warm-up.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PageScanBenchmark {
    static final int PAGE = 8192;
    static final int OBJECTS = 400;

    MemorySegment page;

    @Setup
    public void setup() {
        page = Arena.ofAuto().allocate(PAGE, 8);
        SlottedPage.format(page, 1);
        for (int i = 0; i < OBJECTS; i++) {
            if (SlottedPage.allocate(page, 12, new int[0]) < 0) {
                throw new IllegalStateException("object " + i + " does not fit");
            }
        }
        if (bySegmentReads(page) != SlottedPage.denseEnd(page)) {
            throw new IllegalStateException("the two scans disagree");
        }
    }

    /** {@link SlottedPage#denseEnd} as it read the slot array before: two segment reads per slot. */
    static int bySegmentReads(MemorySegment p) {
        int ps = (int) p.byteSize();
        int slots = SlottedPage.slotCount(p);
        int cursor = SlottedPage.dataStart(ps);
        for (int i = 0; i < slots; i++) {
            int pos = ps - SlottedPage.SLOT_SIZE * (i + 1);
            int off = Short.toUnsignedInt(p.get(PageHeader.SHORT, pos));
            if (off != cursor) {
                return -1;
            }
            cursor = (off + Short.toUnsignedInt(p.get(PageHeader.SHORT, pos + 2)) + 7) & ~7;
        }
        return cursor;
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = "-XX:TieredStopAtLevel=3")
    public int segmentReadsTier3() {
        return bySegmentReads(page);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = "-XX:TieredStopAtLevel=3")
    public int slottedPageTier3() {
        return SlottedPage.denseEnd(page);
    }

    @Benchmark
    @Fork(1)
    public int segmentReadsC2() {
        return bySegmentReads(page);
    }

    @Benchmark
    @Fork(1)
    public int slottedPageC2() {
        return SlottedPage.denseEnd(page);
    }
}
