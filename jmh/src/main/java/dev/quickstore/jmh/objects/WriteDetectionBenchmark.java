package dev.quickstore.jmh.objects;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
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
 * Write detection: page protection (QuickStore: write fault, pre-image, write-protect at commit) against card
 * marking (Hosking and Moss 1993: a barrier per store, pre-image at a page's first mark, commit diffs the
 * marked cards and does not reprotect) and Hosking and Moss's other schemes ({@code objects}: object marking,
 * commit diffs the marked objects; {@code remsets}: remembered sets of updated words, commit diffs those words;
 * {@code scan}: no barrier, every resident page pre-imaged at begin or load and diffed at commit), and kernel write
 * tracking ({@code kernel}, Linux 6.7+: a committed page stays writable with a twin, the kernel records its stores,
 * commit asks {@code PAGEMAP_SCAN}), measured in the same run ({@code -p mode=pages,cards,objects,remsets,scan,kernel}). The store holds
 * {@value #PAGES} pages full of 16-byte {@link PNode}s; every page is resident before measuring.
 *
 * <ul>
 *   <li>{@code updateFirstTouch}: one setter on each of the {@value #PAGES} clean pages (a write fault per page,
 *       or a barrier slow path per page); per update. The previous invocation's transaction is committed in
 *       the (unmeasured) invocation setup.</li>
 *   <li>{@code updateRepeat}: the same setters again in a transaction that dirtied those pages already (the
 *       barrier's fast path; a plain store under page protection); per update.</li>
 *   <li>{@code commit}: commit of a transaction that updated {@value #PAGES} pages: {@code density=sparse} one
 *       object per page, {@code dense} every object; per dirty page. Includes the log flush (fsync).</li>
 *   <li>{@code readRepeat}: the getters over the same objects (must not change between the modes).</li>
 * </ul>
 *
 * Run: {@code bin/bench WriteDetection -p mode=pages,cards,objects,remsets,scan,kernel}; the commit part is printed at
 * tear-down too. Under {@code scan} the first touch costs nothing per update: its price is paid at begin (in the
 * unmeasured setup of {@code updateFirstTouch}) and in {@code commit}, which diffs every resident page.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class WriteDetectionBenchmark {
    static final int PAGES = 256;

    /** A store with PAGES pages of PNodes; {@code firsts} = one object per page, {@code all} = every object. */
    @State(Scope.Benchmark)
    public abstract static class Fixture {
        @Param({"pages", "cards", "objects", "remsets", "scan", "kernel"})
        String mode;

        Path dir;
        PersistentStore store;
        ObjectTransaction tx;
        long[] firsts;
        long[] all;
        int round;

        void open() throws IOException {
            dir = Files.createTempDirectory("qs-wd-");
            StoreOptions o = StoreOptions.defaults();
            o = switch (mode) {
                case "cards" -> o.withCardMarking(StoreOptions.DEFAULT_CARD_BYTES);
                case "objects" -> o.withWriteDetection(WriteDetection.OBJECT_MARKING);
                case "remsets" -> o.withWriteDetection(WriteDetection.REMEMBERED_SETS);
                case "scan" -> o.withWriteDetection(WriteDetection.SCANNING);
                case "kernel" -> o.withWriteDetection(WriteDetection.KERNEL_TRACKING);
                default -> o.withWriteDetection(WriteDetection.PAGE_PROTECTION);
            };
            store = PersistentStore.create(dir.resolve("db"), o, PNode.class);
            Map<Long, List<Long>> byPage = new LinkedHashMap<>();
            try (ObjectTransaction t = store.begin()) {
                PNode prev = null;
                while (byPage.size() <= PAGES) {
                    PNode n = t.create(PNode.class, prev);
                    n.value(1);
                    prev = n;
                    long a = t.addressOf(n);
                    byPage.computeIfAbsent(a / 8192, k -> new ArrayList<>()).add(a);
                }
                t.commit();
            }
            List<Long> f = new ArrayList<>();
            List<Long> every = new ArrayList<>();
            int k = 0;
            for (List<Long> objs : byPage.values()) {
                if (k++ == PAGES) {
                    break; // the last page is not full
                }
                f.add(objs.get(objs.size() / 2));
                every.addAll(objs);
            }
            firsts = f.stream().mapToLong(Long::longValue).toArray();
            all = every.stream().mapToLong(Long::longValue).toArray();
            tx = store.begin();
            for (long a : all) {
                tx.get(a, PNode.class).value(); // resident (and the proxies' classes loaded)
            }
        }

        void update(long[] objects) {
            int v = ++round;
            for (long a : objects) {
                tx.follow(a, PNode.class).value(v);
            }
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            CommitStats c = store.storageManager().commitStats();
            System.out.printf(
                    "%n[%s] commits %d pages %d cardPages %d cards %d redoBytes %d; per page: preimage %.2f us,"
                            + " reprotect %.2f us, stable %.2f us, diff %.2f us; writeFaults %d cardMarks %d%n",
                    mode,
                    c.commits(),
                    c.pages(),
                    c.cardPages(),
                    c.cards(),
                    c.redoBytes(),
                    c.preimageNanos() / 1e3 / Math.max(1, c.pages()),
                    c.reprotectNanos() / 1e3 / Math.max(1, c.pages()),
                    c.stableNanos() / 1e3 / Math.max(1, c.pages()),
                    c.diffNanos() / 1e3 / Math.max(1, c.pages()),
                    store.storageManager().faultCounters().writeFaults(),
                    store.storageManager().cardMarks());
            if (tx.isActive()) {
                tx.abort();
            }
            store.close();
            BenchFiles.deleteTree(dir);
        }
    }

    /** Clean pages at every invocation: the setup commits the previous invocation's updates. */
    @State(Scope.Benchmark)
    public static class FirstTouch extends Fixture {
        @Setup(Level.Trial)
        public void setup() throws IOException {
            open();
        }

        @Setup(Level.Invocation)
        public void clean() {
            tx.commit();
            tx = store.begin();
        }
    }

    /** Pages dirtied once in a transaction that stays open. */
    @State(Scope.Benchmark)
    public static class Repeat extends Fixture {
        @Setup(Level.Trial)
        public void setup() throws IOException {
            open();
            update(firsts);
        }
    }

    /** A transaction that dirtied PAGES pages, sparsely or densely, prepared before each measured commit. */
    @State(Scope.Benchmark)
    public static class Commit extends Fixture {
        @Param({"sparse", "dense"})
        String density;

        @Setup(Level.Trial)
        public void setup() throws IOException {
            open();
        }

        @Setup(Level.Invocation)
        public void dirty() {
            if (!tx.isActive()) {
                tx = store.begin();
            }
            update(density.equals("dense") ? all : firsts);
        }
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public void updateFirstTouch(FirstTouch s) {
        s.update(s.firsts);
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public void updateRepeat(Repeat s) {
        s.update(s.firsts);
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public long readRepeat(Repeat s) {
        long sum = 0;
        for (long a : s.firsts) {
            sum += s.tx.follow(a, PNode.class).value();
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public void commit(Commit s) {
        s.tx.commit();
    }
}
