package dev.quickstore.jmh.software;

import dev.quickstore.core.software.Oid;
import dev.quickstore.core.software.OidTable;
import it.unimi.dsi.fastutil.longs.Long2LongOpenHashMap;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.agrona.collections.Long2LongHashMap;
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

/**
 * The OID hash table of software persistence ({@link OidTable}, issue 15) against two well-kept primitive
 * long-to-long maps, filled with the same OIDs in the same run: fastutil's {@code Long2LongOpenHashMap}
 * (linear probing, separate key and value arrays, load factor 0.75) and Agrona's {@code Long2LongHashMap}
 * (linear probing, interleaved pairs, load factor 0.65). Keys are real OIDs ({@link Oid#of}: objects 0..15
 * of consecutive pages, the shape a buffer pool's resident objects have). Per lookup, in a batch of
 * {@value #BATCH} keys in random order:
 *
 * <ul>
 *   <li>{@code hit*}: every key is resident (the OID of an object of a resident page);
 *   <li>{@code miss*}: no key is resident (objects of pages past the resident ones: the lookup before a page
 *       read).
 * </ul>
 *
 * {@code entries} 4096 (a small pool: the table fits in L2) and 262144 (a 32 MiB-class pool of small objects:
 * the table is a few MiB, lookups miss the caches). Baseline: fastutil. Run: {@code bin/bench OidTable}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class OidTableBenchmark {
    static final int BATCH = 1024;
    static final long MISSING = -1L;

    @Param({"4096", "262144"})
    int entries;

    OidTable oids;
    Long2LongOpenHashMap fastutil;
    Long2LongHashMap agrona;
    long[] hits;
    long[] misses;

    static long oid(int i) {
        return Oid.of(1 + i / 16, i % 16, 0x3db6716b + i % 5);
    }

    @Setup
    public void setup() {
        oids = new OidTable(entries, MISSING);
        fastutil = new Long2LongOpenHashMap(entries);
        fastutil.defaultReturnValue(MISSING);
        agrona = new Long2LongHashMap(MISSING);
        for (int i = 0; i < entries; i++) {
            long k = oid(i);
            long v = (long) i * 64;
            oids.put(k, v);
            fastutil.put(k, v);
            agrona.put(k, v);
        }
        SplittableRandom rnd = new SplittableRandom(42);
        hits = new long[BATCH];
        misses = new long[BATCH];
        for (int i = 0; i < BATCH; i++) {
            hits[i] = oid(rnd.nextInt(entries));
            misses[i] = oid(entries + rnd.nextInt(entries));
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long hitOidTable() {
        long s = 0;
        for (long k : hits) {
            s += oids.get(k);
        }
        return s;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long hitFastutil() {
        long s = 0;
        for (long k : hits) {
            s += fastutil.get(k);
        }
        return s;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long hitAgrona() {
        long s = 0;
        for (long k : hits) {
            s += agrona.get(k);
        }
        return s;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long missOidTable() {
        long s = 0;
        for (long k : misses) {
            s += oids.get(k);
        }
        return s;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long missFastutil() {
        long s = 0;
        for (long k : misses) {
            s += fastutil.get(k);
        }
        return s;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long missAgrona() {
        long s = 0;
        for (long k : misses) {
            s += agrona.get(k);
        }
        return s;
    }
}
