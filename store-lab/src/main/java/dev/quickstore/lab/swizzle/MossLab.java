package dev.quickstore.lab.swizzle;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Moss's experiment (Moss 1992, sections 5 and 6) on this machine: runs the chosen {@link MossSeries} under the five
 * {@link Strategy schemes} and the heap model, each point's sessions interleaved and repeated (the fastest of the repetitions per phase, all
 * in one run; a full garbage collection, untimed, before each session, so that no session pays for the garbage
 * of the one before), checks that every scheme computed the heap model's results, fits each scheme's {@link CostModel}
 * parameters and predicts every run from them. The fitted series' points without updates also run as create-work-save
 * sessions ({@link SessionRunner#runCreate}), checked and fitted alike ({@link CostModel#fitCreate}, Table 13).
 */
public final class MossLab {
    private MossLab() {}

    /**
     * What to run.
     *
     * @param series series names ({@link MossSeries#ALL})
     * @param objects largest collection, in objects
     * @param reps measured repetitions per point and scheme (after one warm-up session each)
     * @param pageSize page size of the collection files
     * @param dir where the collection files are written (one at a time, deleted after their point)
     * @param seed chooses the updated objects
     * @param create whether the points {@link MossSeries#created} names also run create-work-save sessions
     */
    public record Options(
            List<String> series, long objects, int reps, int pageSize, Path dir, long seed, boolean create) {}

    /**
     * One point's measurements, each the fastest of its repetitions per phase (on a machine shared with other work,
     * interference only adds time: the minimum is the least disturbed estimate of a deterministic computation).
     */
    public record PointResult(
            MossSeries.Point point,
            Measurement heap,
            double workPerVisitNs,
            Map<Strategy, Measurement> schemes,
            Map<Strategy, Double> predictedNs,
            Map<Strategy, Measurement> created,
            Map<Strategy, Double> createdPredictedNs) {}

    /**
     * Everything one run measured and derived: the load-work-save parameters (Table 12) and the create-work-save
     * ones (Table 13), each with the reason it could not be fitted, if so.
     */
    public record Report(
            Options options,
            List<PointResult> points,
            double heapVisitNs,
            Map<Strategy, CostModel.Parameters> parameters,
            String fitProblem,
            Map<Strategy, CostModel.CreateParameters> createParameters,
            String createFitProblem) {}

    public static Report run(Options o, Consumer<String> progress) throws IOException {
        List<MossSeries.Point> points = new ArrayList<>();
        for (String s : o.series()) {
            points.addAll(MossSeries.points(s, o.objects(), o.seed()));
        }
        warmUp(o);
        List<PointResult> results = new ArrayList<>();
        int done = 0;
        for (MossSeries.Point p : points) {
            progress.accept(String.format(
                    java.util.Locale.ROOT,
                    "moss: %d/%d %s %s (%d objects)",
                    ++done,
                    points.size(),
                    p.series(),
                    p.label(),
                    p.shape().objects()));
            results.add(measure(o, p));
        }
        double heapV = median(results.stream()
                .filter(MossLab::measuresV)
                .mapToDouble(r -> r.heap().restPerVisitNs())
                .toArray());
        Map<Strategy, CostModel.Parameters> params = new EnumMap<>(Strategy.class);
        String problem = null;
        try {
            for (Strategy s : Strategy.values()) {
                params.put(s, fit(s, results));
            }
        } catch (IllegalArgumentException e) {
            params.clear();
            problem = e.getMessage();
        }
        Map<Strategy, CostModel.CreateParameters> createParams = new EnumMap<>(Strategy.class);
        String createProblem = null;
        try {
            for (Strategy s : Strategy.values()) {
                createParams.put(s, fitCreate(s, results));
            }
        } catch (IllegalArgumentException e) {
            createParams.clear();
            createProblem = e.getMessage();
        }
        List<PointResult> predicted = new ArrayList<>();
        for (PointResult r : results) {
            Map<Strategy, Double> cpred = new EnumMap<>(Strategy.class);
            if (!r.created().isEmpty()) {
                for (Map.Entry<Strategy, CostModel.CreateParameters> e : createParams.entrySet()) {
                    Measurement m = r.created().get(e.getKey());
                    cpred.put(
                            e.getKey(),
                            e.getValue()
                                    .predictNs(
                                            m.objects(),
                                            m.userBytes(),
                                            m.slots(),
                                            m.initialized(),
                                            m.visits(),
                                            r.workPerVisitNs()));
                }
            }
            Map<Strategy, Double> pred = new EnumMap<>(Strategy.class);
            for (Map.Entry<Strategy, CostModel.Parameters> e : params.entrySet()) {
                Measurement m = r.schemes().get(e.getKey());
                pred.put(
                        e.getKey(),
                        e.getValue()
                                .predictNs(
                                        m.objects(),
                                        m.userBytes(),
                                        m.slots(),
                                        m.initialized(),
                                        m.visits(),
                                        m.updated(),
                                        r.workPerVisitNs()));
            }
            predicted.add(
                    new PointResult(r.point(), r.heap(), r.workPerVisitNs(), r.schemes(), pred, r.created(), cpred));
        }
        return new Report(o, predicted, heapV, params, problem, createParams, createProblem);
    }

    private static void warmUp(Options o) throws IOException {
        TreeShape shape = TreeShape.uniform(Math.min(14, MossSeries.maxHeight(o.objects())), 3, 16);
        Path file = o.dir().resolve("moss-warmup.qs");
        Path created = o.dir().resolve("moss-warmup-created.qs");
        try {
            CollectionFile.write(file, shape, o.pageSize());
            Workload w = new Workload(3, 0.5, Workload.Work.READ_BYTES, 8, o.seed());
            for (int rep = 0; rep < 8; rep++) {
                for (Strategy s : Strategy.values()) {
                    SessionRunner.run(file, o.pageSize(), s, w);
                    SessionRunner.runCreate(created, o.pageSize(), s, shape, w);
                }
                SessionRunner.runHeap(shape, w);
            }
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(created);
        }
    }

    /**
     * Runs one point: the schemes interleaved, {@code reps} times, after one warm-up round; at a point that {@link
     * MossSeries#created} says so, each scheme's create-work-save session too (into a file of its own).
     */
    static PointResult measure(Options o, MossSeries.Point p) throws IOException {
        Path file = o.dir().resolve("moss-" + p.series() + ".qs");
        Path createdFile = o.dir().resolve("moss-" + p.series() + "-created.qs");
        boolean create = o.create() && MossSeries.created(p);
        try {
            CollectionFile.write(file, p.shape(), o.pageSize());
            Map<Strategy, List<Measurement>> runs = new EnumMap<>(Strategy.class);
            Map<Strategy, List<Measurement>> createRuns = new EnumMap<>(Strategy.class);
            List<Measurement> heap = new ArrayList<>();
            List<Measurement> heapPlain = new ArrayList<>();
            Workload plain = new Workload(
                    p.work().visits(), 0, Workload.Work.NONE, 0, p.work().seed());
            boolean work = p.work().work() != Workload.Work.NONE;
            for (int rep = -1; rep < o.reps(); rep++) {
                Strategy[] order = Strategy.values();
                for (int j = 0; j < order.length; j++) {
                    Strategy s = order[Math.floorMod(j + rep, order.length)];
                    betweenSessions(); // untimed: no session pays for the garbage of the one before
                    Measurement m = SessionRunner.run(file, o.pageSize(), s, p.work());
                    if (rep >= 0) {
                        runs.computeIfAbsent(s, k -> new ArrayList<>()).add(m);
                    }
                }
                for (int j = 0; create && j < order.length; j++) {
                    Strategy s = order[Math.floorMod(j + rep, order.length)];
                    betweenSessions();
                    Measurement m = SessionRunner.runCreate(createdFile, o.pageSize(), s, p.shape(), p.work());
                    if (rep >= 0) {
                        createRuns.computeIfAbsent(s, k -> new ArrayList<>()).add(m);
                    }
                }
                betweenSessions();
                Measurement h = SessionRunner.runHeap(p.shape(), p.work());
                betweenSessions();
                Measurement hp = work ? SessionRunner.runHeap(p.shape(), plain) : h;
                if (rep >= 0) {
                    heap.add(h);
                    heapPlain.add(hp);
                }
            }
            Measurement heap1 = fastestOf(heap);
            String expected = heap1.results();
            Map<Strategy, Measurement> fastest = new LinkedHashMap<>();
            for (Strategy s : Strategy.values()) {
                Measurement m = fastestOf(runs.get(s));
                if (!m.results().equals(expected)) {
                    throw new IllegalStateException(s + " on " + p.series() + " " + p.label() + " computed "
                            + m.results() + ", the heap model " + expected);
                }
                fastest.put(s, m);
            }
            Map<Strategy, Measurement> created = new LinkedHashMap<>();
            for (Strategy s : create ? Strategy.values() : new Strategy[0]) {
                Measurement m = fastestOf(createRuns.get(s));
                if (!m.results().equals(expected)) {
                    throw new IllegalStateException(s + " creating " + p.series() + " " + p.label() + " computed "
                            + m.results() + ", the heap model " + expected);
                }
                created.put(s, m);
            }
            double w = 0;
            if (work && p.work().visits() > 1) {
                w = Math.max(0, heap1.restPerVisitNs() - fastestOf(heapPlain).restPerVisitNs());
            }
            return new PointResult(p, heap1, w, fastest, Map.of(), created, Map.of());
        } finally {
            Files.deleteIfExists(file);
            Files.deleteIfExists(createdFile);
        }
    }

    private static Measurement fastestOf(List<Measurement> ms) {
        Measurement first = ms.get(0);
        return first.withTimes(
                ms.stream().mapToLong(Measurement::loadNs).min().orElseThrow(),
                ms.stream().mapToLong(Measurement::firstNs).min().orElseThrow(),
                ms.stream().mapToLong(Measurement::restNs).min().orElseThrow(),
                ms.stream().mapToLong(Measurement::saveNs).min().orElseThrow(),
                ms.stream().mapToLong(Measurement::prepareNs).min().orElseThrow());
    }

    /** Whether a point's later traversals measure V: no work, several traversals, the whole collection. */
    private static boolean measuresV(PointResult r) {
        Workload w = r.point().work();
        return w.work() == Workload.Work.NONE && w.visits() > 1 && w.skip() == 0;
    }

    static double median(double[] v) {
        double[] s = Arrays.stream(v).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (s.length == 0) {
            return Double.NaN;
        }
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /**
     * A scheme's V: the median over the no-work runs of its time per visit in the traversals after the first, in its
     * load-work-save sessions or ({@code created}) its create-work-save ones; NaN without such runs.
     */
    public static double medianV(List<PointResult> results, Strategy s, boolean created) {
        return median(results.stream()
                .filter(MossLab::measuresV)
                .filter(r -> !created || !r.created().isEmpty())
                .mapToDouble(r -> (created ? r.created() : r.schemes()).get(s).restPerVisitNs())
                .toArray());
    }

    private static CostModel.CreateParameters fitCreate(Strategy s, List<PointResult> results) {
        double v = medianV(results, s, true);
        if (Double.isNaN(v)) {
            throw new IllegalArgumentException("no create-work-save runs with several no-work traversals to measure V");
        }
        List<CostModel.Observation> obs = new ArrayList<>();
        for (PointResult r : results) {
            if (!r.created().isEmpty()) {
                obs.add(observation(r.created().get(s), r));
            }
        }
        if (obs.size() < 4) {
            throw new IllegalArgumentException("only " + obs.size()
                    + " create-work-save runs (the fitted series without updates): the model has 4 terms");
        }
        return CostModel.fitCreate(s, v, obs);
    }

    /** A measured session as an observation of the cost model (the point's work per visit from the heap model). */
    private static CostModel.Observation observation(Measurement m, PointResult r) {
        return new CostModel.Observation(
                m.objects(),
                m.userBytes(),
                m.slots(),
                m.initialized(),
                m.visits(),
                m.updated(),
                r.workPerVisitNs(),
                m.totalNs());
    }

    private static CostModel.Parameters fit(Strategy s, List<PointResult> results) {
        double v = medianV(results, s, false);
        if (Double.isNaN(v)) {
            throw new IllegalArgumentException("no series with several no-work traversals to measure V");
        }
        List<CostModel.Observation> obs = new ArrayList<>();
        for (PointResult r : results) {
            if (!MossSeries.fitted(r.point().series())) {
                continue;
            }
            obs.add(observation(r.schemes().get(s), r));
        }
        if (obs.size() < 7) {
            throw new IllegalArgumentException(
                    "only " + obs.size() + " runs of the fitted series (VS, VB, VH, VN, SI): the model has 7 terms");
        }
        return CostModel.fit(s, v, obs);
    }

    /**
     * A full collection before each session (untimed), so that no session pays for the garbage of the one before.
     * {@code -Dqs.lab.moss.gcBetweenSessions=false} skips it: for the CLI tests, whose tiny collections leave no
     * garbage worth collecting and whose ~2,000 collections in a test JVM took minutes (documented in lab-moss.md).
     */
    private static void betweenSessions() {
        if (!"false".equals(System.getProperty("qs.lab.moss.gcBetweenSessions"))) {
            System.gc();
        }
    }
}
