package dev.quickstore.jmh.store;

import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.log.PageDiff;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Commit-time diffing: {@link PageDiff} of a dirty 8 KiB page against its pre-image plus encoding the
 * REDO record, over 512 off-heap pages (4 MiB, beyond L2). Reported per page; GB/s of dirty page bytes
 * = 8192 / (ns per page). Goal (design notes section 8): &gt;= 2 GB/s, i.e. &lt;= 4.1 us per page.
 * {@code changedWords}: how many random 8-byte fields per page were updated.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CommitDiffBenchmark {
    static final int PAGES = 512;
    static final int PAGE = 8192;

    @Param({"4", "64", "1024"})
    int changedWords;

    /**
     * {@code native}: {@link PageDiff#diff} (the library's C code, what commits run); {@code java}: {@link
     * PageDiff#diffInJava}, the Java loop it replaced (docs/results.md, "The commit's diff and move search in C").
     */
    @Param({"native", "java"})
    String impl;

    private PageDiff.Ranges diff(MemorySegment b, MemorySegment a) {
        return impl.equals("java")
                ? PageDiff.diffInJava(b, a, PageDiff.mergeGap(1), ranges, Long.MAX_VALUE)
                : PageDiff.diff(b, a, PageDiff.mergeGap(1), ranges);
    }

    MemorySegment before;
    MemorySegment after;
    final PageDiff.Ranges ranges = new PageDiff.Ranges();

    @Setup
    public void setup() {
        Arena arena = Arena.ofShared();
        before = arena.allocate((long) PAGES * PAGE, 4096);
        after = arena.allocate((long) PAGES * PAGE, 4096);
        SplittableRandom rnd = new SplittableRandom(7);
        for (long i = 0; i < (long) PAGES * PAGE; i += 8) {
            before.set(ValueLayout.JAVA_LONG, i, rnd.nextLong());
        }
        after.copyFrom(before);
        for (int p = 0; p < PAGES; p++) {
            for (int w = 0; w < changedWords; w++) {
                long at = (long) p * PAGE + 8L * (4 + rnd.nextInt(PAGE / 8 - 4));
                after.set(ValueLayout.JAVA_LONG, at, after.get(ValueLayout.JAVA_LONG, at) + 1);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public void diffAndEncode(Blackhole bh) {
        for (int p = 0; p < PAGES; p++) {
            MemorySegment b = before.asSlice((long) p * PAGE, PAGE);
            MemorySegment a = after.asSlice((long) p * PAGE, PAGE);
            diff(b, a);
            bh.consume(LogRecord.encodePage(LogRecord.REDO, 1, 0, p, 0, null, a, ranges));
        }
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public void diffOnly(Blackhole bh) {
        for (int p = 0; p < PAGES; p++) {
            diff(before.asSlice((long) p * PAGE, PAGE), after.asSlice((long) p * PAGE, PAGE));
            bh.consume(ranges.count);
        }
    }
}
