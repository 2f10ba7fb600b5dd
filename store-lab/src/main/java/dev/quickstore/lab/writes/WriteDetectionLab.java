package dev.quickstore.lab.writes;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.oo7.Oo7Builder;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.Oo7Result;
import dev.quickstore.oo7.Oo7Runner;
import dev.quickstore.oo7.heap.HeapOo7Store;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The experiments of Hosking and Moss, "Lightweight write detection and checkpointing for fine-grained
 * persistence" (section 4), on this store's five write-detection schemes, in one process and one run:
 *
 * <ul>
 *   <li><b>per-update</b> (their Table III, "long-running update"): one transaction updates {@code updateParts}
 *       random parts once (the <i>first</i> update of each: traps, card marks, object marks, buffer entries) and then
 *       {@code repeats} more times (the <i>repeated</i> updates), commit not included; ns per update beside the
 *       same loop on plain heap objects (the non-persistent baseline).</li>
 *   <li><b>checkpoint</b> (their hot-update figures, elapsed time against the actual fraction of parts modified):
 *       per fraction, a transaction updates two int fields of that fraction of the parts; begin, run and commit
 *       (the checkpoint: diffs, log records, the forced COMMIT) timed apart; REDO bytes and pages diffed.</li>
 *   <li>card sizes: the card-marking rows of both tables, one per card size of {@code cardBytes} (2^k).</li>
 *   <li><b>oo7</b>: OO7 small's T1 (traversal) and T2A/T2B/T2C (updates) hot, on the heap and in a mapped store
 *       per scheme, with each count checked against the heap's.</li>
 * </ul>
 * Every store is the same database (built once under page protection, reopened per scheme), all of it resident
 * (hot, as their hot iterations); times are the fastest of {@code reps} transactions (the least disturbed on a
 * shared machine) after a warm-up round over every scheme and {@value #WARMUP_TRANSACTIONS} unmeasured transactions
 * on each; OO7's are Oo7Runner's medians. These are benchmark figures, reported as ratios within the run, never assertions; the lab fails only if a
 * scheme's results differ from the heap's.
 */
public final class WriteDetectionLab {
    private WriteDetectionLab() {}

    /** Unmeasured per-update transactions run on each scheme's store before its measurements. */
    static final int WARMUP_TRANSACTIONS = 3;

    /** One write-detection scheme as measured (cards carry their size). */
    public record Scheme(String name, WriteDetection detection, int cardBytes) {
        StoreOptions options(StoreOptions base) {
            return detection == WriteDetection.CARD_MARKING
                    ? base.withCardMarking(cardBytes)
                    : base.withWriteDetection(detection);
        }

        /** pages, cards of each size, objects, remsets, scan. */
        public static List<Scheme> all(List<Integer> cardBytes) {
            List<Scheme> s = new ArrayList<>();
            s.add(new Scheme("pages", WriteDetection.PAGE_PROTECTION, 0));
            for (int c : cardBytes) {
                s.add(new Scheme("cards-" + c, WriteDetection.CARD_MARKING, c));
            }
            s.add(new Scheme("objects", WriteDetection.OBJECT_MARKING, 0));
            s.add(new Scheme("remsets", WriteDetection.REMEMBERED_SETS, 0));
            s.add(new Scheme("scan", WriteDetection.SCANNING, 0));
            return s;
        }
    }

    /**
     * @param parts parts in the database
     * @param updateParts parts the per-update transaction updates (at most {@code parts})
     * @param repeats further updates of each of them in the same transaction
     * @param fractions fractions of the parts updated by the checkpoint transactions (0 < f <= 1)
     * @param cardBytes card sizes measured (powers of two, pageSize/64..pageSize)
     * @param reps measured transactions per point (the fastest reported)
     * @param oo7Reps hot repetitions of each OO7 operation; 0 skips OO7
     * @param dir where to build the database (null: a temporary directory, removed at the end)
     */
    public record Config(
            int parts,
            int updateParts,
            int repeats,
            List<Double> fractions,
            List<Integer> cardBytes,
            int reps,
            long seed,
            int oo7Reps,
            Path dir,
            StoreOptions base) {
        public Config {
            if (parts < 1 || updateParts < 1 || updateParts > parts || repeats < 1 || reps < 1 || oo7Reps < 0) {
                throw new IllegalArgumentException("parts " + parts + ", update parts " + updateParts + ", repeats "
                        + repeats + ", reps " + reps + ", oo7 reps " + oo7Reps);
            }
            for (double f : fractions) {
                if (!(f > 0 && f <= 1)) {
                    throw new IllegalArgumentException("fraction " + f + " outside (0, 1]");
                }
            }
            fractions = List.copyOf(fractions);
            cardBytes = List.copyOf(cardBytes);
        }

        public static final List<Double> FRACTIONS = List.of(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0);
        public static final List<Integer> CARD_BYTES = List.of(128, 256, 512, 1024, 2048, 4096);

        public static Config defaults() {
            return new Config(20_000, 5_000, 4, FRACTIONS, CARD_BYTES, 5, 42, 3, null, StoreOptions.defaults());
        }
    }

    /**
     * One measurement. {@code table}: per-update, checkpoint, oo7. Times in ms (the fastest transaction; OO7: medians); {@code ratio}: per-update
     * over the heap, checkpoint over pages at the same fraction, oo7 (operation + commit) over pages.
     *
     * @param fraction checkpoint: the fraction of parts updated; per-update: null
     * @param operation per-update: first or repeated; checkpoint: "update"; oo7: the operation
     * @param nsPerUpdate per-update: ns per update; checkpoint: ns per updated part of the run phase
     * @param beginMs begin (scanning gives every resident page its pre-image there)
     * @param runMs the updates (per-update: the phase measured)
     * @param commitMs the commit (the checkpoint) without the log force: diffs, REDO records, reprotection
     * @param flushMs the commit's log force (write + fsync of the log: the same bytes for every scheme) and the store
     *     checkpoint that may follow it (write-back of disk-dirty pages, taken every few MiB of log)
     * @param logBytes REDO bytes of the commit
     * @param pagesDiffed pages the commit examined
     * @param writeFaults write faults of the transaction
     * @param count oo7: the operation's count; checkpoint: parts updated
     * @param heapCount oo7: the heap's count (null elsewhere)
     */
    public record Row(
            String table,
            String scheme,
            Double fraction,
            String operation,
            Double nsPerUpdate,
            double beginMs,
            double runMs,
            double commitMs,
            double flushMs,
            Double ratio,
            long logBytes,
            long pagesDiffed,
            long writeFaults,
            long count,
            Long heapCount) {}

    /** Everything one run measured. */
    public record Results(
            Config config,
            int pageSize,
            long databasePages,
            double heapFirstNs,
            double heapRepeatedNs,
            List<Row> rows,
            List<String> disagreements,
            List<String> paperPerUpdate,
            List<String> paperCheckpoint,
            List<String> paperConclusions) {
        /** Whether every scheme's results agreed with the heap's. */
        public boolean agree() {
            return disagreements.isEmpty();
        }
    }

    /** Runs everything; {@code progress} gets one line per step. */
    public static Results run(Config c, Consumer<String> progress) throws IOException {
        Path root = c.dir() != null ? c.dir() : Files.createTempDirectory("qs-hosking-moss-");
        try {
            return run(c, root, progress);
        } finally {
            if (c.dir() == null) {
                deleteTree(root);
            }
        }
    }

    private static Results run(Config c, Path root, Consumer<String> progress) throws IOException {
        List<Scheme> schemes = Scheme.all(c.cardBytes());
        Path db = root.resolve("parts");
        progress.accept("building " + c.parts() + " parts in " + db);
        long[] rel = new long[c.parts()]; // addresses relative to the arena base
        int pageSize;
        long pages;
        try (PersistentStore s = PersistentStore.create(db, c.base(), UpdatePart.class);
                ObjectTransaction tx = s.begin()) {
            long base = s.storageManager().arenaBase();
            UpdatePart near = null;
            for (int i = 0; i < c.parts(); i++) {
                UpdatePart p = tx.create(UpdatePart.class, near);
                p.id(i);
                p.x(i);
                p.y(-i);
                p.build(i * 31L);
                p.type("part" + (i % 10));
                rel[i] = tx.addressOf(p) - base;
                near = p;
            }
            tx.commit();
            pageSize = s.storageManager().pageSize();
            pages = Arrays.stream(rel)
                    .map(r -> r / s.storageManager().pageSize())
                    .distinct()
                    .count();
        }
        int[] perUpdateIdx = firstOfShuffle(c.parts(), c.updateParts(), c.seed());
        List<int[]> fractionIdx = new ArrayList<>();
        for (double f : c.fractions()) {
            fractionIdx.add(firstOfShuffle(c.parts(), Math.max(1, (int) Math.round(f * c.parts())), c.seed() + 1));
        }
        HeapParts heap = new HeapParts(c.parts());
        // model of x and y: every scheme applies the same updates to the same database in turn
        int[] x = new int[c.parts()];
        int[] y = new int[c.parts()];
        for (int i = 0; i < c.parts(); i++) {
            x[i] = i;
            y[i] = -i;
        }
        List<String> disagreements = new ArrayList<>();

        progress.accept("warm-up: one round over every scheme");
        HeapParts.Part[] heapSelected = heap.select(perUpdateIdx);
        for (int i = 0; i < 20; i++) {
            HeapParts.update(heapSelected, 1 + c.repeats());
        }
        for (Scheme sc : schemes) {
            try (PersistentStore s = PersistentStore.open(db, sc.options(c.base()), UpdatePart.class)) {
                preload(s, rel);
                perUpdate(s, rel, perUpdateIdx, c.repeats(), x);
                checkpoint(s, rel, fractionIdx.get(fractionIdx.size() / 2), x, y);
            }
        }

        double[] heapFirst = new double[c.reps()];
        double[] heapRepeated = new double[c.reps()];
        for (int r = 0; r < c.reps(); r++) {
            long t0 = System.nanoTime();
            HeapParts.update(heapSelected, 1);
            long t1 = System.nanoTime();
            HeapParts.update(heapSelected, c.repeats());
            long t2 = System.nanoTime();
            heapFirst[r] = (double) (t1 - t0) / perUpdateIdx.length;
            heapRepeated[r] = (double) (t2 - t1) / ((long) perUpdateIdx.length * c.repeats());
        }
        double hFirst = Arrays.stream(heapFirst).min().orElseThrow();
        double hRepeated = Arrays.stream(heapRepeated).min().orElseThrow();

        List<Row> rows = new ArrayList<>();
        List<Row> checkpoints = new ArrayList<>();
        for (Scheme sc : schemes) {
            progress.accept("measuring " + sc.name());
            try (PersistentStore s = PersistentStore.open(db, sc.options(c.base()), UpdatePart.class)) {
                if (s.storageManager().writeDetection() != sc.detection()) {
                    throw new IllegalStateException("store opened with "
                            + s.storageManager().writeDetection() + ", expected " + sc.detection());
                }
                preload(s, rel);
                for (int w = 0; w < WARMUP_TRANSACTIONS; w++) { // this scheme's barrier compiled before measuring
                    perUpdate(s, rel, perUpdateIdx, c.repeats(), x);
                }
                List<Txn> first = new ArrayList<>();
                List<Txn> repeated = new ArrayList<>();
                for (int r = 0; r < c.reps(); r++) {
                    Txn[] t = perUpdate(s, rel, perUpdateIdx, c.repeats(), x);
                    first.add(t[0]);
                    repeated.add(t[1]);
                }
                Txn f = Txn.fastest(first);
                Txn rp = Txn.fastest(repeated);
                long n = perUpdateIdx.length;
                rows.add(new Row(
                        "per-update",
                        sc.name(),
                        null,
                        "first",
                        f.runNs / (double) n,
                        f.beginNs / 1e6,
                        f.runNs / 1e6,
                        f.commitNs / 1e6,
                        f.flushNs / 1e6,
                        f.runNs / (double) n / hFirst,
                        f.logBytes,
                        f.pages,
                        f.writeFaults,
                        n,
                        null));
                rows.add(new Row(
                        "per-update",
                        sc.name(),
                        null,
                        "repeated",
                        rp.runNs / (double) (n * c.repeats()),
                        rp.beginNs / 1e6,
                        rp.runNs / 1e6,
                        rp.commitNs / 1e6,
                        rp.flushNs / 1e6,
                        rp.runNs / (double) (n * c.repeats()) / hRepeated,
                        rp.logBytes,
                        rp.pages,
                        rp.writeFaults,
                        n * c.repeats(),
                        null));
                for (int k = 0; k < c.fractions().size(); k++) {
                    int[] idx = fractionIdx.get(k);
                    List<Txn> ts = new ArrayList<>();
                    for (int r = 0; r < c.reps(); r++) {
                        ts.add(checkpoint(s, rel, idx, x, y));
                    }
                    Txn t = Txn.fastest(ts);
                    checkpoints.add(new Row(
                            "checkpoint",
                            sc.name(),
                            c.fractions().get(k),
                            "update",
                            t.runNs / (double) idx.length,
                            t.beginNs / 1e6,
                            t.runNs / 1e6,
                            t.commitNs / 1e6,
                            t.flushNs / 1e6,
                            null,
                            t.logBytes,
                            t.pages,
                            t.writeFaults,
                            idx.length,
                            null));
                }
                String bad = verify(s, rel, x, y);
                if (bad != null) {
                    disagreements.add(sc.name() + ": " + bad);
                }
            }
        }
        for (Row r : checkpoints) {
            Row pagesRow = checkpoints.stream()
                    .filter(p -> p.scheme().equals("pages") && p.fraction().equals(r.fraction()))
                    .findFirst()
                    .orElseThrow();
            rows.add(new Row(
                    r.table(),
                    r.scheme(),
                    r.fraction(),
                    r.operation(),
                    r.nsPerUpdate(),
                    r.beginMs(),
                    r.runMs(),
                    r.commitMs(),
                    r.flushMs(),
                    (r.beginMs() + r.commitMs()) / (pagesRow.beginMs() + pagesRow.commitMs()),
                    r.logBytes(),
                    r.pagesDiffed(),
                    r.writeFaults(),
                    r.count(),
                    null));
        }
        if (c.oo7Reps() > 0) {
            rows.addAll(oo7(c, schemes, root, disagreements, progress));
        }
        return new Results(
                c,
                pageSize,
                pages,
                hFirst,
                hRepeated,
                rows,
                disagreements,
                HoskingMossPaper.PER_UPDATE,
                HoskingMossPaper.CHECKPOINT,
                HoskingMossPaper.CONCLUSIONS);
    }

    /** What one transaction cost. */
    private record Txn(
            long beginNs, long runNs, long commitNs, long flushNs, long logBytes, long pages, long writeFaults) {
        /** The fastest (begin + run + commit): the least disturbed on a shared machine. */
        static Txn fastest(List<Txn> ts) {
            List<Txn> sorted = new ArrayList<>(ts);
            sorted.sort(Comparator.comparingLong(t -> t.beginNs + t.runNs + t.commitNs));
            return sorted.get(0);
        }
    }

    /** Reads every part: all pages resident (hot), as their hot iterations. */
    private static void preload(PersistentStore s, long[] rel) {
        long base = s.storageManager().arenaBase();
        try (ObjectTransaction tx = s.begin()) {
            long sum = 0;
            for (long r : rel) {
                sum += tx.get(base + r, UpdatePart.class).x();
            }
            if (sum == Long.MIN_VALUE) {
                throw new IllegalStateException("unreachable");
            }
            tx.commit();
        }
    }

    /** The per-update transaction: [first updates, repeated updates] (both carry the transaction's commit). */
    private static Txn[] perUpdate(PersistentStore s, long[] rel, int[] idx, int repeats, int[] x) {
        Store st = s.storageManager();
        long base = st.arenaBase();
        CommitStats c0 = st.commitStats();
        long wf0 = st.faultCounters().writeFaults();
        long t0 = System.nanoTime();
        ObjectTransaction tx = s.begin();
        long t1 = System.nanoTime();
        UpdatePart[] ps = new UpdatePart[idx.length];
        for (int i = 0; i < idx.length; i++) {
            ps[i] = tx.get(base + rel[idx[i]], UpdatePart.class);
        }
        long t2 = System.nanoTime();
        for (UpdatePart p : ps) {
            p.x(p.x() + 1);
        }
        long t3 = System.nanoTime();
        for (int r = 0; r < repeats; r++) {
            for (UpdatePart p : ps) {
                p.x(p.x() + 1);
            }
        }
        long t4 = System.nanoTime();
        tx.commit();
        long t5 = System.nanoTime();
        tx.close();
        for (int i : idx) {
            x[i] += 1 + repeats;
        }
        CommitStats c1 = st.commitStats();
        long redo = c1.redoBytes() - c0.redoBytes();
        long pages = c1.pages() - c0.pages();
        long flush = c1.flushNanos() - c0.flushNanos() + c1.checkpointNanos() - c0.checkpointNanos();
        long wf = st.faultCounters().writeFaults() - wf0;
        return new Txn[] {
            new Txn(t1 - t0, t3 - t2, t5 - t4 - flush, flush, redo, pages, wf),
            new Txn(t1 - t0, t4 - t3, t5 - t4 - flush, flush, redo, pages, wf)
        };
    }

    /** The checkpoint transaction: x and y of every part of {@code idx} incremented once, then commit. */
    private static Txn checkpoint(PersistentStore s, long[] rel, int[] idx, int[] x, int[] y) {
        Store st = s.storageManager();
        long base = st.arenaBase();
        CommitStats c0 = st.commitStats();
        long wf0 = st.faultCounters().writeFaults();
        long t0 = System.nanoTime();
        ObjectTransaction tx = s.begin();
        long t1 = System.nanoTime();
        UpdatePart[] ps = new UpdatePart[idx.length];
        for (int i = 0; i < idx.length; i++) {
            ps[i] = tx.get(base + rel[idx[i]], UpdatePart.class);
        }
        long t2 = System.nanoTime();
        for (UpdatePart p : ps) {
            p.x(p.x() + 1);
            p.y(p.y() + 1);
        }
        long t3 = System.nanoTime();
        tx.commit();
        long t4 = System.nanoTime();
        tx.close();
        for (int i : idx) {
            x[i]++;
            y[i]++;
        }
        CommitStats c1 = st.commitStats();
        long flush = c1.flushNanos() - c0.flushNanos() + c1.checkpointNanos() - c0.checkpointNanos();
        return new Txn(
                t1 - t0,
                t3 - t2,
                t4 - t3 - flush,
                flush,
                c1.redoBytes() - c0.redoBytes(),
                c1.pages() - c0.pages(),
                st.faultCounters().writeFaults() - wf0);
    }

    /** Null if every part's x and y are the model's, else the first difference. */
    private static String verify(PersistentStore s, long[] rel, int[] x, int[] y) {
        long base = s.storageManager().arenaBase();
        try (ObjectTransaction tx = s.begin()) {
            for (int i = 0; i < rel.length; i++) {
                UpdatePart p = tx.get(base + rel[i], UpdatePart.class);
                if (p.x() != x[i] || p.y() != y[i] || p.id() != i) {
                    return "part " + i + ": x " + p.x() + " y " + p.y() + ", heap model x " + x[i] + " y " + y[i];
                }
            }
        }
        return null;
    }

    private static List<Row> oo7(
            Config c, List<Scheme> schemes, Path root, List<String> disagreements, Consumer<String> progress)
            throws IOException {
        List<Oo7Operation> opsList = List.of(Oo7Operation.T1, Oo7Operation.T2A, Oo7Operation.T2B, Oo7Operation.T2C);
        Oo7Runner.Options options = new Oo7Runner.Options(opsList, c.oo7Reps(), 3);
        progress.accept("oo7 small: heap");
        Map<Oo7Operation, Long> heapCounts = new java.util.EnumMap<>(Oo7Operation.class);
        try (HeapOo7Store heap = new HeapOo7Store()) {
            new Oo7Builder(Oo7Config.SMALL, c.seed()).build(heap, Oo7Builder.Progress.NONE);
            Oo7Operations ops = new Oo7Operations(heap, Oo7Config.SMALL, c.seed(), Oo7Operations.Parameters.DEFAULTS);
            for (Oo7Result r : Oo7Runner.runAll(List.of(ops), options, false).get(heap.name())) {
                heapCounts.put(r.operation(), (long) r.count());
            }
        }
        List<Row> rows = new ArrayList<>();
        double[] pagesTotal = new double[opsList.size()];
        List<Scheme> oo7Schemes = schemes.stream()
                .filter(s -> s.detection() != WriteDetection.CARD_MARKING
                        || s.cardBytes() == StoreOptions.DEFAULT_CARD_BYTES)
                .toList();
        for (Scheme sc : oo7Schemes) {
            progress.accept("oo7 small: " + sc.name());
            Path dir = root.resolve("oo7-" + sc.name());
            try (MappedOo7Store store = MappedOo7Store.create(dir, false, sc.options(c.base()), ObjectPadding.NONE)) {
                new Oo7Builder(Oo7Config.SMALL, c.seed()).build(store, Oo7Builder.Progress.NONE);
                Oo7Operations ops =
                        new Oo7Operations(store, Oo7Config.SMALL, c.seed(), Oo7Operations.Parameters.DEFAULTS);
                List<Oo7Result> results =
                        Oo7Runner.runAll(List.of(ops), options, false).get(store.name());
                for (Oo7Result r : results) {
                    int k = opsList.indexOf(r.operation());
                    double opMs = r.medianOpNanos() / 1e6;
                    Long flushNs = r.counters().get("commitFlushNanos");
                    double flushMs = flushNs == null ? 0 : flushNs / 1e6;
                    double commitMs = r.medianCommitNanos() / 1e6 - flushMs;
                    if (sc.detection() == WriteDetection.PAGE_PROTECTION) {
                        pagesTotal[k] = opMs + commitMs;
                    }
                    long heapCount = heapCounts.get(r.operation());
                    if (heapCount != r.count()) {
                        disagreements.add(
                                sc.name() + " oo7 " + r.operation() + ": count " + r.count() + ", heap " + heapCount);
                    }
                    Long wf = r.counters().get("writeFaults");
                    rows.add(new Row(
                            "oo7",
                            sc.name(),
                            null,
                            r.operation().name(),
                            null,
                            0,
                            opMs,
                            commitMs,
                            flushMs,
                            pagesTotal[k] > 0 ? (opMs + commitMs) / pagesTotal[k] : null,
                            0,
                            0,
                            wf == null ? 0 : wf,
                            r.count(),
                            heapCount));
                }
            }
            deleteTree(dir);
        }
        return rows;
    }

    /** The first {@code n} of a seeded shuffle of 0..parts-1: distinct parts in random order. */
    static int[] firstOfShuffle(int parts, int n, long seed) {
        int[] all = new int[parts];
        for (int i = 0; i < parts; i++) {
            all[i] = i;
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            int j = i + rnd.nextInt(parts - i);
            int t = all[i];
            all[i] = all[j];
            all[j] = t;
        }
        return Arrays.copyOf(all, n);
    }

    /** The non-persistent baseline: the same updates on plain heap objects. */
    private static final class HeapParts {
        private static final class Part {
            int x;
        }

        private final Part[] parts;

        HeapParts(int n) {
            parts = new Part[n];
            for (int i = 0; i < n; i++) {
                parts[i] = new Part();
            }
        }

        Part[] select(int[] idx) {
            Part[] ps = new Part[idx.length];
            for (int i = 0; i < idx.length; i++) {
                ps[i] = parts[idx[i]];
            }
            return ps;
        }

        static void update(Part[] ps, int times) {
            for (int r = 0; r < times; r++) {
                for (Part p : ps) {
                    p.x = p.x + 1;
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException("removing " + p, e);
                }
            }
        }
    }
}
