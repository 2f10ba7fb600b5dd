package dev.quickstore.jmh.store;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.jmh.BenchFiles;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.Replacement;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Replacement policies compared on one workload bigger than the pool, in one JVM, reported as ratios
 * to the simplified clock (docs/architecture-core.md, "Replacement"). The workload: objects of 3000
 * bytes (two per 8 KiB page); each step reads one object of a sequential scan through the store API
 * (the store fixes the page, so the pool evicts) and the whole hot set through the application view
 * (faults, reference faults). Policies run interleaved, {@code reps} times each; the best time counts.
 *
 * <pre>
 * . bin/lib/jdk.sh && mvn -q -ntp -B -DskipTests package -pl jmh -am
 * $JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED -cp jmh/target/benchmarks.jar \
 *     dev.quickstore.core.ReplacementDriver [objects=8000] [pool=512] [hot=64] [reps=3]
 * </pre>
 */
public final class ReplacementDriver {
    private ReplacementDriver() {}

    public static void main(String[] args) throws IOException {
        int objects = args.length > 0 ? Integer.parseInt(args[0]) : 8000;
        int pool = args.length > 1 ? Integer.parseInt(args[1]) : 512;
        int hot = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        int reps = args.length > 3 ? Integer.parseInt(args[3]) : 3;
        Path dir = Files.createTempDirectory("qs-replacement");
        try {
            StoreOptions base = new StoreOptions(pool, 1 << 22, 1L << 30).withFrames(FramesMode.MAPPED);
            long[] refs;
            try (Store s = Store.create(dir, 8192, base)) {
                refs = new long[objects];
                try (Transaction tx = s.begin()) {
                    for (int i = 0; i < objects; i++) {
                        refs[i] = tx.allocate(3000);
                        tx.putLong(refs[i], 0, i);
                    }
                    tx.commit();
                }
            }
            System.out.printf(
                    "%d objects (%d pages, %.1f MiB) over a pool of %d pages; hot set %d objects; best of %d%n",
                    objects, objects / 2, objects / 2 * 8192 / 1048576.0, pool, hot, reps);
            Map<Replacement, long[]> best = new LinkedHashMap<>();
            for (int r = 0; r < reps; r++) {
                for (Replacement policy : Replacement.values()) {
                    long[] m = once(dir, base.withReplacement(policy), refs, hot);
                    long[] b = best.get(policy);
                    if (b == null || m[0] < b[0]) {
                        best.put(policy, m);
                    }
                }
            }
            long ref = best.get(Replacement.SIMPLIFIED_CLOCK)[0];
            System.out.printf(
                    "%-17s %10s %7s %10s %9s %9s %9s %9s %9s %9s%n",
                    "policy",
                    "ms",
                    "ratio",
                    "evictions",
                    "pool rd",
                    "hot flt",
                    "ref flt",
                    "reprAll",
                    "reprRuns",
                    "resident");
            for (var e : best.entrySet()) {
                long[] m = e.getValue();
                System.out.printf(
                        "%-17s %10.1f %7.2f %10d %9d %9d %9d %9d %9d %9d%n",
                        e.getKey(), m[0] / 1e6, (double) m[0] / ref, m[1], m[2], m[3], m[4], m[5], m[6], m[7]);
            }
        } finally {
            BenchFiles.deleteTree(dir);
        }
    }

    /** [nanos, evictions, pool reads, read faults, reference faults, reprotectAlls, reprotect runs, resident at end]. */
    static long[] once(Path dir, StoreOptions opts, long[] refs, int hot) throws IOException {
        try (Store s = Store.open(dir, opts)) {
            MemorySegment view = s.view();
            long base = s.arenaBase();
            FaultCounters c0 = s.faultCounters();
            long reads0 = s.stats().pageReads();
            long t0 = System.nanoTime();
            long sum = 0;
            try (Transaction tx = s.begin()) {
                for (int i = hot; i < refs.length; i++) {
                    sum += tx.getLong(refs[i], 0);
                    for (int h = 0; h < hot; h++) {
                        sum += view.get(PageHeader.LONG, refs[h] - base);
                    }
                }
                s.checkPending();
                tx.commit();
            }
            long t = System.nanoTime() - t0;
            long expect = 0;
            for (int i = hot; i < refs.length; i++) {
                expect += i + (long) (hot - 1) * hot / 2;
            }
            if (sum != expect) {
                throw new IllegalStateException(
                        "wrong result " + sum + " != " + expect + " under " + opts.replacement());
            }
            FaultCounters c = s.faultCounters();
            var r = s.poolStats();
            return new long[] {
                t,
                s.poolStats().evictions(), // STORE_CLOCK: the pool's; the clocks: the data plane's (faults too)
                s.stats().pageReads() - reads0,
                c.readFaults() - c0.readFaults(),
                c.referenceFaults() - c0.referenceFaults(),
                r.reprotectAlls(),
                r.reprotectRuns(),
                s.poolStats().resident()
            };
        }
    }
}
