package dev.quickstore.core;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The store latch's take-and-release pair as a top-level store operation does it ({@link OperationNest#enter}: is
 * it held by this thread, take it, release it), {@link StoreLatch} against the {@link ReentrantLock} it replaced,
 * with a counter updated under each; the floor is the update alone. Both locks are promoted to the old generation
 * before measuring ({@code System.gc()}), as a store's latch is, so a reference store into them pays what it pays
 * in a running store. The two-thread variants share one lock (2 threads on this 2-vCPU machine): the cost of
 * contention, where the store latch spins, then parks and is unparked.
 *
 * <p>The two pairs are written out, not shared through an interface, so that each call site sees one lock class
 * (monomorphic, inlined), as {@code OperationNest} does.
 *
 * <p>This class sits in the package of {@link StoreLatch} (package-private) inside the benchmarks' jar only; it is
 * a white-box benchmark of the one class, not part of the store's API.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 3)
public class StoreLatchBenchmark {
    /** One lock of each kind and a counter, shared by the benchmark's threads. */
    @State(Scope.Benchmark)
    public static class Locks {
        StoreLatch latch;
        ReentrantLock reentrant;
        long counter;

        @Setup
        public void promote() {
            latch = new StoreLatch();
            reentrant = new ReentrantLock();
            System.gc(); // both survive a full collection: old, like a store's latch
            System.gc();
        }
    }

    @Benchmark
    public long storeLatch(Locks l) {
        StoreLatch latch = l.latch;
        if (!latch.isHeldByCurrentThread()) {
            latch.lock();
            try {
                return ++l.counter;
            } finally {
                latch.unlock();
            }
        }
        return l.counter;
    }

    @Benchmark
    public long reentrantLock(Locks l) {
        ReentrantLock latch = l.reentrant;
        if (!latch.isHeldByCurrentThread()) {
            latch.lock();
            try {
                return ++l.counter;
            } finally {
                latch.unlock();
            }
        }
        return l.counter;
    }

    @Benchmark
    public long updateAlone(Locks l) {
        return ++l.counter;
    }

    @Benchmark
    @Threads(2)
    public long storeLatchTwoThreads(Locks l) {
        return storeLatch(l);
    }

    @Benchmark
    @Threads(2)
    public long reentrantLockTwoThreads(Locks l) {
        return reentrantLock(l);
    }
}
