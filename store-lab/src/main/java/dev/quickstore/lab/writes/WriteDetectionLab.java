package dev.quickstore.lab.writes;

import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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
 *
 * <p>This class holds what is run and what comes out and runs the experiments in order over one {@link
 * PartsDatabase}: {@link PerUpdateExperiment}, {@link CheckpointExperiment} (both in each scheme's opening, the card
 * size sweep being one {@link Scheme} per card size) and {@link Oo7Experiment}.
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
        Path dir = root.resolve("parts");
        progress.accept("building " + c.parts() + " parts in " + dir);
        PartsDatabase db = PartsDatabase.build(dir, c.parts(), c.base());
        PerUpdateExperiment perUpdate =
                new PerUpdateExperiment(db, firstOfShuffle(c.parts(), c.updateParts(), c.seed()), c.repeats());
        CheckpointExperiment checkpoint = new CheckpointExperiment(db, c.fractions(), c.seed() + 1);
        List<String> disagreements = new ArrayList<>();

        progress.accept("warm-up: one round over every scheme");
        perUpdate.warmUpHeap();
        for (Scheme sc : schemes) {
            try (PersistentStore s = db.open(sc.options(c.base()))) {
                db.preload(s);
                perUpdate.transaction(s);
                checkpoint.warmUp(s);
            }
        }
        perUpdate.measureHeap(c.reps());

        List<Row> rows = new ArrayList<>();
        List<Row> checkpoints = new ArrayList<>();
        for (Scheme sc : schemes) {
            progress.accept("measuring " + sc.name());
            try (PersistentStore s = db.open(sc.options(c.base()))) {
                if (s.storageManager().writeDetection() != sc.detection()) {
                    throw new IllegalStateException("store opened with "
                            + s.storageManager().writeDetection() + ", expected " + sc.detection());
                }
                db.preload(s);
                rows.addAll(perUpdate.measure(s, sc.name(), c.reps()));
                checkpoints.addAll(checkpoint.measure(s, sc.name(), c.reps()));
                String bad = db.verify(s);
                if (bad != null) {
                    disagreements.add(sc.name() + ": " + bad);
                }
            }
        }
        rows.addAll(CheckpointExperiment.overPages(checkpoints));
        if (c.oo7Reps() > 0) {
            rows.addAll(Oo7Experiment.run(c, schemes, root, disagreements, progress));
        }
        return new Results(
                c,
                db.pageSize,
                db.pages,
                perUpdate.heapFirstNs(),
                perUpdate.heapRepeatedNs(),
                rows,
                disagreements,
                HoskingMossPaper.PER_UPDATE,
                HoskingMossPaper.CHECKPOINT,
                HoskingMossPaper.CONCLUSIONS);
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

    static void deleteTree(Path root) throws IOException {
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
