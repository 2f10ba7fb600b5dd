package dev.quickstore.jmh.store;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Figure 17 of White and DeWitt (1994), QS-CR only: a cold traversal of a pointer graph (a chain through
 * every node plus one scattered pointer per node, 1000-byte nodes, 8 per page) through the application view
 * after opening with 0-100 % of the pages relocated; every page fault translates the page's pointer words.
 * Reported per fraction: open time (placement, pointer bitmaps read from the volume), traversal time, and
 * the traversal's ratio to 0 %. The pool holds the whole graph, so the traversal is faults only.
 *
 * <pre>
 * $JAVA_HOME/bin/java --enable-native-access=ALL-UNNAMED -cp jmh/target/benchmarks.jar \
 *     dev.quickstore.core.RelocationDriver [nodes=40000] [reps=3]
 * </pre>
 */
public final class RelocationDriver {
    private RelocationDriver() {}

    public static void main(String[] args) throws IOException {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 40000;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir = Files.createTempDirectory("qs-relocation");
        try {
            StoreOptions base = new StoreOptions(nodes / 8 + 256, 1 << 24, 1L << 30)
                    .withFrames(FramesMode.MAPPED)
                    .withArenaBytes(8L << 30);
            try (Store s = Store.create(dir, 8192, base);
                    Transaction tx = s.begin()) {
                long[] n = new long[nodes];
                for (int i = 0; i < nodes; i++) {
                    n[i] = tx.allocate(1000, 0, 8, 16);
                    tx.putLong(n[i], 24, i);
                }
                for (int i = 0; i < nodes; i++) {
                    tx.putLong(n[i], 8, i + 1 < nodes ? n[i + 1] : 0);
                    tx.putLong(n[i], 16, n[(int) ((i * 7919L + 13) % nodes)]);
                }
                tx.setRoot("head", n[0]);
                tx.commit();
            }
            System.out.printf("%d nodes, %d pages; best of %d cold opens per fraction%n", nodes, nodes / 8, reps);
            System.out.printf("%9s %10s %12s %7s %10s%n", "relocated", "open ms", "traverse ms", "ratio", "pages");
            double zero = 0;
            for (double f : new double[] {0, 0.25, 0.5, 0.75, 1.0}) {
                long bestOpen = Long.MAX_VALUE;
                long bestRun = Long.MAX_VALUE;
                long moved = 0;
                for (int r = 0; r < reps; r++) {
                    long t0 = System.nanoTime();
                    try (Store s = Store.open(dir, base.withRelocation(Relocation.CONTINUAL, f))) {
                        long t1 = System.nanoTime();
                        MemorySegment v = s.view();
                        long b = s.arenaBase();
                        long sum = 0;
                        try (Transaction tx = s.begin()) {
                            for (long a = tx.root("head"); a != 0; a = v.get(PageHeader.LONG, a - b + 8)) {
                                sum += v.get(PageHeader.LONG, v.get(PageHeader.LONG, a - b + 16) - b + 24);
                            }
                            s.checkPending();
                            tx.commit();
                        }
                        long t2 = System.nanoTime();
                        long expect = 0;
                        for (int i = 0; i < nodes; i++) {
                            expect += (i * 7919L + 13) % nodes;
                        }
                        if (sum != expect) {
                            throw new IllegalStateException("wrong traversal at " + f + ": " + sum + " != " + expect);
                        }
                        bestOpen = Math.min(bestOpen, t1 - t0);
                        bestRun = Math.min(bestRun, t2 - t1);
                        moved = s.relocatedPages();
                    }
                }
                if (f == 0) {
                    zero = bestRun;
                }
                System.out.printf(
                        "%8.0f%% %10.1f %12.1f %7.2f %10d%n",
                        f * 100, bestOpen / 1e6, bestRun / 1e6, bestRun / zero, moved);
            }
        } finally {
            BenchFiles.deleteTree(dir);
        }
    }
}
