package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.WritePointFileIO.Fault;
import dev.quickstore.core.WritePointFileIO.Kind;
import dev.quickstore.core.WritePointFileIO.Point;
import dev.quickstore.core.WritePointFileIO.PowerCut;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * Storage faults at every write point (issue 14), after SQLite's crash and I/O-error tests, H2's {@code
 * FilePathReorderWrites} and Lucene's {@code MockDirectoryWrapper}. A deterministic seeded workload (store
 * creation, index creation, creates, updates, deletes and B+tree inserts and deletes in committed transactions,
 * an abort with steals, an explicit checkpoint, a clean close and reopen, a log segment roll-over, all on a
 * 24-page pool so that pages are stolen and written back through the double-write file) runs once through
 * {@link WritePointFileIO} to enumerate every storage operation (file, offset, length, kind). Then, for each
 * point and each fault that applies to it (all of them with {@code -Dqs.long=true}; a seeded sample covering
 * every file, operation and fault kind otherwise), the workload runs again from scratch with the fault
 * injected there: a torn write, a lost write, a write lost while later ones reach the disk, ENOSPC, EIO on a
 * write, fsync, truncate, replace, delete or read, a power cut instead of an fsync. The machine then dies (or,
 * after ENOSPC/EIO, the process lives on: the store must refuse to continue), the disk's contents are written
 * to real files and opened with the real file layer (recovery) and compared with the exact oracle: every
 * commit acknowledged before the fault, at most the one in flight beyond them, no partial transaction, {@code
 * verify} clean - or the store refuses with a typed exception naming the file and the page or offset. A wrong
 * answer is a violation, printed with the point, the fault and the difference.
 *
 * <p>A second sweep fails each read of an opening store (recovery and the first transaction) with EIO on a few
 * crash images; the store must refuse naming the file and offset, and a later open without the error must
 * still recover to the oracle (the failed recovery left nothing half done).
 *
 * <p>Not covered: the reads the data plane makes in C ({@code pread} in the fault path bypasses {@code
 * FileIO}); this workload uses the store's own read and write calls, which go through it.
 */
@ExtendWith(SeedExtension.class)
class StorageFaultSweepTest {
    private static final Path DIR = Path.of("/mem/db");
    /** 24 frames (steals and write-back), 256 KiB log segments (a roll-over), no automatic checkpoints. */
    private static final StoreOptions OPTS = new StoreOptions(24, 1 << 18, 1L << 40);

    private static final boolean LONG = Boolean.getBoolean("qs.long");
    /** CI: this many (point, fault) cases beyond the per-group minimum. */
    private static final int CI_CASES = Integer.getInteger("qs.faults.cases", 40);
    /** Recovery reads: crash images swept (every read of each in the long variant, a sample otherwise). */
    private static final int READ_IMAGES = LONG ? 3 : 2;

    /** A case that takes longer than this is a hang (a violation); the sweep stops there. */
    private static final int CASE_TIMEOUT_S = 60;

    private static final int READ_SAMPLE = Integer.getInteger("qs.faults.reads", 12);

    @TempDir
    Path tmp;

    private int dirs;

    /** The state of one run of the workload as the oracle knows it. */
    private static final class Run {
        Workload.Model committed; // the last acknowledged state (null: the setup was never acknowledged)
        Workload.Model pending; // the commit in flight when the run stopped, if any
        Store store;
        Throwable error; // the first typed error the workload saw (ENOSPC, EIO)
        Throwable unexpected; // anything else: a violation
        boolean continued; // the store accepted a commit after an I/O error
        boolean rolledOver;
        long steals;
        String stage = "create";
    }

    enum Outcome {
        RECOVERED,
        RECOVERED_IN_FLIGHT,
        FAIL_STOP,
        VIOLATION
    }

    record Case(Point point, Fault fault) {}

    private final Map<Fault, EnumMap<Outcome, Integer>> outcomes = new EnumMap<>(Fault.class);
    private final List<String> violations = new ArrayList<>();
    private final Map<String, Integer> failStopMessages = new TreeMap<>();
    private int surfacedNamed;
    private int surfaced;

    @Test
    @FixedSeed(20261125L)
    void everyWritePointRecoversOrFailsStop(Seed seed) throws Exception {
        long t0 = System.nanoTime();
        // 1. record: every point of one clean run
        WritePointFileIO rec = new WritePointFileIO(DIR, -1, null, seed.value());
        Run r0 = new Run();
        workload(rec, seed.value(), r0);
        assertTrue(
                r0.unexpected == null && r0.error == null,
                "the recording run failed in " + r0.stage + ": " + r0.unexpected + " " + r0.error);
        List<Point> points = List.copyOf(rec.points);
        Map<String, Integer> byKind = new TreeMap<>();
        for (Point p : points) {
            byKind.merge(p.kind() + " " + p.fileKind(), 1, Integer::sum);
        }
        long steals = r0.steals + r0.store.stats().steals();
        System.out.printf(
                "storage fault sweep: the workload steals %d pages and ends at LSN %d (%d-byte log segments)%n",
                steals, r0.store.stats().logEndLsn(), OPTS.logSegmentBytes());
        assertTrue(r0.rolledOver, "the workload rolls the log over to a second segment");
        assertTrue(steals > 0, "the workload steals pages: " + steals);
        for (String k : List.of("WRITE volume", "WRITE doublewrite", "WRITE log", "FSYNC log", "REPLACE control")) {
            assertTrue(byKind.containsKey(k), "the workload issues " + k + ": " + byKind);
        }
        closeQuietly(r0.store);

        // 2. the cases: every applicable fault at every point, or a seeded sample covering every group
        List<Case> all = new ArrayList<>();
        for (Point p : points) {
            for (Fault f : faultsFor(p.kind())) {
                all.add(new Case(p, f));
            }
        }
        List<Case> cases = LONG ? shuffled(all, seed.value()) : sample(all, new SplittableRandom(seed.value()));
        System.out.printf(
                "storage fault sweep: %d points (%s), %d cases, running %d%n",
                points.size(), summary(points), all.size(), cases.size());

        // 3. inject, crash, recover, compare
        List<Path> readImages = new ArrayList<>();
        List<Run> readRuns = new ArrayList<>();
        SplittableRandom pick = new SplittableRandom(seed.value() ^ 0x5eed);
        java.util.concurrent.ExecutorService watchdog = java.util.concurrent.Executors.newSingleThreadExecutor(t -> {
            Thread th = new Thread(t, "fault-case");
            th.setDaemon(true);
            return th;
        });
        int done = 0;
        try {
            for (Case c : cases) {
                if (++done % 250 == 0) {
                    System.out.printf(
                            "  progress: %d of %d cases, %.0f s, %d violations: %s%n",
                            done, cases.size(), (System.nanoTime() - t0) / 1e9, violations.size(), outcomes);
                }
                java.util.concurrent.Future<?> f = watchdog.submit(() -> {
                    runCase(c, seed.value(), points, readImages, readRuns, pick);
                    return null;
                });
                try {
                    f.get(CASE_TIMEOUT_S, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    StringBuilder where = new StringBuilder();
                    Thread.getAllStackTraces().forEach((th, st) -> {
                        if (th.getName().equals("fault-case")) {
                            for (StackTraceElement e2 : st) {
                                where.append("\n    at ").append(e2);
                            }
                        }
                    });
                    violations.add(c.fault() + " at " + c.point() + ": hung for " + CASE_TIMEOUT_S + " s" + where);
                    record(c.fault(), Outcome.VIOLATION);
                    f.cancel(true);
                    break; // the stuck thread may hold the store's native resources: stop here
                } catch (java.util.concurrent.ExecutionException e) {
                    violations.add(c.fault() + " at " + c.point() + ": the harness failed " + trace(e.getCause()));
                }
            }
        } finally {
            watchdog.shutdownNow();
        }
        long t1 = System.nanoTime();

        // 4. EIO on every read of recovery and the first transaction, on a few crash images
        int readPoints = 0;
        EnumMap<Outcome, Integer> readOutcomes = new EnumMap<>(Outcome.class);
        for (int i = 0; i < readImages.size(); i++) {
            readPoints += readSweep(readImages.get(i), readRuns.get(i), readOutcomes, seed.value() + i);
        }
        long t2 = System.nanoTime();

        System.out.printf(
                "storage fault sweep: %d points enumerated: %d writes, %d fsyncs, %d truncates, %d replaces, %d deletes,"
                        + " %d reads (workload); by operation and file: %s%n",
                points.size(),
                count(points, Kind.WRITE),
                count(points, Kind.FSYNC),
                count(points, Kind.TRUNCATE),
                count(points, Kind.REPLACE),
                count(points, Kind.DELETE),
                count(points, Kind.READ),
                byKind);
        for (var e : outcomes.entrySet()) {
            int n = e.getValue().values().stream().mapToInt(Integer::intValue).sum();
            System.out.printf("  %-8s %5d injected: %s%n", e.getKey(), n, e.getValue());
        }
        System.out.printf(
                "  I/O errors surfaced to the caller: %d, naming file and offset: %d%n", surfaced, surfacedNamed);
        System.out.printf(
                "  recovery reads: %d read points on %d crash images, EIO injected: %s%n",
                readPoints, readImages.size(), readOutcomes);
        failStopMessages.forEach((m, n) -> System.out.printf("  fail-stop x%d: %s%n", n, m));
        System.out.printf(
                "  %d violations; %.1f s injecting, %.1f s recovery reads%n",
                violations.size(), (t1 - t0) / 1e9, (t2 - t1) / 1e9);
        violations.forEach(v -> System.out.println("VIOLATION " + v));
        if (imageRoot != tmp) {
            delete(imageRoot);
        }
        assertEquals(List.of(), violations, "storage faults must never return wrong data");
    }

    private void runCase(
            Case c, long seed, List<Point> points, List<Path> readImages, List<Run> readRuns, SplittableRandom pick)
            throws IOException {
        Run r = new Run();
        WritePointFileIO fs = inject(c, seed, r, points);
        if (fs == null) {
            record(c.fault(), Outcome.VIOLATION);
            return;
        }
        Path image = newDir();
        fs.materialize(image);
        if (readImages.size() < READ_IMAGES
                && (c.fault() == Fault.REORDER || c.fault() == Fault.TORN)
                && pick.nextInt(3) == 0) {
            Path pristine = newDir(); // recovery changes the image: keep the crash state for the read sweep
            fs.materialize(pristine);
            readImages.add(pristine);
            readRuns.add(r);
        }
        record(c.fault(), recoverAndCheck(image, r, c.fault() + " at " + c.point(), RealFileIO.INSTANCE));
        delete(image);
    }

    // ---- the workload -------------------------------------------------------------------------------------

    private static void workload(WritePointFileIO fs, long seed, Run r) {
        SplittableRandom rnd = new SplittableRandom(seed);
        try {
            r.store = Store.create(fs, DIR, 8192, OPTS);
            r.stage = "setup";
            r.pending = new Workload.Model();
            Workload.setup(r.store);
            r.committed = r.pending;
            r.pending = null;
            for (int t = 0; t < 12; t++) {
                r.stage = "commit " + t;
                if (t == 6) {
                    r.stage = "abort";
                    try (Transaction tx = r.store.begin()) { // enough new objects to steal pages of the 24-frame pool
                        Workload.operations(tx, r.committed.copy(), rnd.split(), 120, 60000);
                        tx.abort();
                    }
                    continue;
                }
                // commit 9 is too big for the pool: a committed transaction with stolen pages
                commit(r, rnd.split(), t == 9 ? 120 : 1 + rnd.nextInt(30), t == 9 ? 60000 : 20000);
            }
            r.stage = "checkpoint";
            r.store.checkpoint();
            r.stage = "close";
            Store s = r.store;
            r.steals += s.stats().steals();
            r.store = null;
            s.close();
            r.stage = "reopen";
            r.store = Store.open(fs, DIR, OPTS);
            for (int t = 0; t < 8; t++) {
                r.stage = "commit " + (12 + t);
                commit(r, rnd.split(), 1 + rnd.nextInt(30), 20000);
                r.rolledOver |= r.store.stats().logEndLsn() > OPTS.logSegmentBytes();
            }
            r.stage = "end";
        } catch (PowerCut e) {
            // the machine died: the run stops here
        } catch (StoreException | IOException e) {
            r.error = e;
            if (e.getCause() instanceof PowerCut || fs.dead()) {
                r.error = null; // the power cut, seen through the store's wrapping
            }
        } catch (Throwable e) {
            if (hasCause(e, PowerCut.class)) {
                return;
            }
            r.unexpected = e;
        }
    }

    private static void commit(Run r, SplittableRandom rnd, int ops, int maxLarge) {
        Workload.Model m = r.committed.copy();
        r.pending = m;
        Workload.commitTxn(r.store, m, rnd, ops, maxLarge);
        r.committed = m;
        r.pending = null;
    }

    private static List<Fault> faultsFor(Kind k) {
        return switch (k) {
            case WRITE -> List.of(Fault.TORN, Fault.LOST, Fault.REORDER, Fault.ENOSPC, Fault.EIO);
            case FSYNC, TRUNCATE, DELETE -> List.of(Fault.EIO, Fault.CRASH);
            case REPLACE -> List.of(Fault.ENOSPC, Fault.EIO, Fault.CRASH);
            case READ -> List.of(Fault.EIO);
        };
    }

    /** Every case in a seeded order: the progress lines of a long run that is stopped early are a fair sample. */
    private static List<Case> shuffled(List<Case> all, long seed) {
        List<Case> out = new ArrayList<>(all);
        java.util.Collections.shuffle(out, new java.util.Random(seed));
        return out;
    }

    /** Every (file kind, operation, fault) group gets 2 cases, then the rest of the budget uniformly. */
    private static List<Case> sample(List<Case> all, SplittableRandom rnd) {
        Map<String, List<Case>> groups = new LinkedHashMap<>();
        for (Case c : all) {
            groups.computeIfAbsent(
                            c.point().fileKind() + " " + c.point().kind() + " " + c.fault(), k -> new ArrayList<>())
                    .add(c);
        }
        java.util.Set<Case> chosen = new java.util.LinkedHashSet<>();
        for (List<Case> g : groups.values()) {
            chosen.add(g.get(rnd.nextInt(g.size())));
            chosen.add(g.get(rnd.nextInt(g.size())));
        }
        for (int i = 0; i < CI_CASES && chosen.size() < all.size(); i++) {
            chosen.add(all.get(rnd.nextInt(all.size())));
        }
        List<Case> out = new ArrayList<>(chosen);
        out.sort(Comparator.comparingInt((Case c) -> c.point().index()).thenComparing(Case::fault));
        return out;
    }

    // ---- one case --------------------------------------------------------------------------------------------

    /** Runs the workload with the fault and ends the machine; null if the case was judged already. */
    private WritePointFileIO inject(Case c, long seed, Run r, List<Point> recorded) {
        String ctx = c.fault() + " at " + c.point();
        WritePointFileIO fs = new WritePointFileIO(
                DIR, c.point().index(), c.fault(), seed * 31 + c.point().index());
        workload(fs, seed, r);
        // the run must have issued the recorded operations up to the fault (the workload is deterministic)
        for (int i = 0; i < Math.min(fs.points.size(), c.point().index() + 1); i++) {
            if (!fs.points.get(i).sameOperation(recorded.get(i))) {
                violations.add(ctx + ": the run diverged from the recording at " + fs.points.get(i) + " (recorded "
                        + recorded.get(i) + ")");
                closeQuietly(r.store);
                return null;
            }
        }
        if (fs.injectedAt == null) {
            violations.add(ctx + ": the point was never reached (" + fs.points.size() + " points)");
            closeQuietly(r.store);
            return null;
        }
        if (r.unexpected != null) {
            violations.add(ctx + " in " + r.stage + ": untyped failure " + trace(r.unexpected));
            closeQuietly(r.store);
            return null;
        }
        if (c.fault() == Fault.ENOSPC || c.fault() == Fault.EIO) {
            if (r.error == null) {
                violations.add(ctx + " in " + r.stage + ": the I/O error never reached the caller");
            } else {
                surfaced++;
                if (names(r.error, c.point())) {
                    surfacedNamed++;
                } else {
                    violations.add(
                            ctx + " in " + r.stage + ": the error does not name file and offset: " + chain(r.error));
                }
                if (r.store != null) { // fail-stop: the handle refuses to go on
                    try {
                        Workload.Model m = r.committed == null ? new Workload.Model() : r.committed.copy();
                        Workload.commitTxn(r.store, m, new SplittableRandom(seed), 3, 0);
                        r.continued = true;
                        violations.add(
                                ctx + " in " + r.stage + ": the store committed after the I/O error " + chain(r.error));
                    } catch (StoreException expected) {
                        // refused
                    } catch (Throwable t) {
                        violations.add(ctx + ": untyped failure after the I/O error " + trace(t));
                    }
                }
            }
            fs.end((c.point().index() & 1) == 0); // the process exits (page cache written) or the power fails
        } else {
            fs.end(false);
        }
        closeQuietly(r.store); // writes nothing: the machine is dead
        r.store = null;
        return fs;
    }

    private void record(Fault f, Outcome o) {
        outcomes.computeIfAbsent(f, k -> new EnumMap<>(Outcome.class)).merge(o, 1, Integer::sum);
    }

    /** Opens the image with {@code io} (recovery) and compares it with the oracle. */
    private Outcome recoverAndCheck(Path image, Run r, String ctx, dev.quickstore.core.volume.FileIO io) {
        Store s;
        try {
            s = Store.open(io, image, OPTS);
        } catch (StoreException | IOException e) {
            return failStop(ctx + " (open)", e, image);
        } catch (Throwable t) {
            violations.add(ctx + ": open failed with an untyped exception " + trace(t));
            return Outcome.VIOLATION;
        }
        try {
            boolean hasCounter;
            long k;
            try (Transaction tx = s.begin()) {
                hasCounter = tx.roots().containsKey("counter");
                k = hasCounter ? tx.getLong(tx.root("counter"), 0) : -1;
            }
            Workload.Model expect;
            boolean inFlight = false;
            if (!hasCounter) {
                if (r.committed != null) {
                    violations.add(ctx + ": the counter root is gone, " + r.committed.committed + " acknowledged");
                    return Outcome.VIOLATION;
                }
                var report = s.verify();
                if (!report.ok()) {
                    violations.add(ctx + ": store before its setup commit, verify: " + report);
                    return Outcome.VIOLATION;
                }
                return Outcome.RECOVERED;
            } else if (r.committed != null && k == r.committed.committed) {
                expect = r.committed;
            } else if (r.pending != null && k == r.pending.committed) {
                expect = r.pending;
                inFlight = true;
            } else {
                violations.add(ctx + ": recovered " + k + " transactions, acknowledged "
                        + (r.committed == null ? "none" : r.committed.committed) + ", in flight "
                        + (r.pending == null ? "none" : r.pending.committed));
                return Outcome.VIOLATION;
            }
            Workload.check(s, expect, ctx);
            return inFlight ? Outcome.RECOVERED_IN_FLIGHT : Outcome.RECOVERED;
        } catch (AssertionFailedError e) {
            violations.add(ctx + ": wrong data after recovery: " + e.getMessage());
            return Outcome.VIOLATION;
        } catch (StoreException e) {
            return failStop(ctx + " (after open)", e, image);
        } catch (Throwable t) {
            violations.add(ctx + ": untyped failure after recovery " + trace(t));
            return Outcome.VIOLATION;
        } finally {
            closeQuietly(s);
        }
    }

    private Outcome failStop(String ctx, Throwable e, Path image) {
        String text = chain(e);
        boolean named = Stream.of("volume.qs", "doublewrite.qs", "control.qs", ".wal", "placement.qs", "log")
                        .anyMatch(text::contains)
                && (text.contains("offset") || text.contains("page") || e instanceof java.nio.file.NoSuchFileException);
        if (!named) {
            violations.add(ctx + ": refused without naming file and offset: " + text);
            return Outcome.VIOLATION;
        }
        failStopMessages.merge(text.replace(image.toString(), "DIR").replaceAll("\\d+", "N"), 1, Integer::sum);
        return Outcome.FAIL_STOP;
    }

    /** EIO at each read of recovery on a copy of {@code image}; returns the reads enumerated. */
    private int readSweep(Path image, Run r, EnumMap<Outcome, Integer> out, long seed) throws IOException {
        Path first = copy(image);
        ReadFaultFileIO rec = new ReadFaultFileIO(RealFileIO.INSTANCE, first, -1);
        Outcome base = recoverAndCheck(first, r, "recording reads", rec);
        if (base == Outcome.VIOLATION) {
            return 0;
        }
        List<Point> reads = List.copyOf(rec.reads);
        List<Integer> which = new ArrayList<>();
        for (int j = 0; j < reads.size(); j++) {
            which.add(j);
        }
        if (!LONG && which.size() > READ_SAMPLE) {
            java.util.Collections.shuffle(which, new java.util.Random(seed));
            which = which.subList(0, READ_SAMPLE);
        }
        for (int j : which) {
            Path d = copy(image);
            ReadFaultFileIO io = new ReadFaultFileIO(RealFileIO.INSTANCE, d, j);
            String ctx = "EIO at recovery read " + reads.get(j);
            Outcome o = recoverAndCheck(d, r, ctx, io);
            if (io.injected && o != Outcome.FAIL_STOP && o != Outcome.VIOLATION) {
                violations.add(ctx + ": the read error was absorbed (" + o + ")");
                o = Outcome.VIOLATION;
            }
            out.merge(o, 1, Integer::sum);
            // whatever the failed recovery did, the next one (without the error) must reach the oracle
            Outcome again = recoverAndCheck(d, r, ctx + ", then reopened", RealFileIO.INSTANCE);
            if (again != Outcome.RECOVERED && again != Outcome.RECOVERED_IN_FLIGHT) {
                violations.add(ctx + ": after the failed recovery the store no longer recovers (" + again + ")");
            }
            delete(d);
        }
        delete(first);
        delete(image);
        return reads.size();
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private static boolean names(Throwable e, Point p) {
        String text = chain(e);
        String file = Path.of(p.file()).getFileName().toString();
        boolean offset = p.kind() == Kind.FSYNC
                || p.kind() == Kind.REPLACE
                || p.kind() == Kind.DELETE
                || text.contains("offset " + p.offset())
                || text.contains("page ");
        return text.contains(file) && offset;
    }

    /**
     * Images live on tmpfs when there is one (the real file layer, without the disk's fsync latency: a case
     * costs tens of milliseconds instead of hundreds), else in the test's temporary directory.
     */
    private Path imageRoot() throws IOException {
        if (imageRoot == null) {
            Path shm = Path.of("/dev/shm");
            imageRoot = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, "qs-faults-")
                    : tmp;
        }
        return imageRoot;
    }

    private Path imageRoot;

    private Path newDir() throws IOException {
        Path d = imageRoot().resolve("run" + dirs++);
        Files.createDirectories(d);
        return d;
    }

    private Path copy(Path image) throws IOException {
        Path d = newDir();
        try (Stream<Path> s = Files.walk(image)) {
            for (Path p : s.toList()) {
                Path t = d.resolve(image.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else if (!p.getFileName().toString().equals("lock")) {
                    Files.copy(p, t);
                }
            }
        }
        return d;
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static long count(List<Point> points, Kind k) {
        return points.stream().filter(p -> p.kind() == k).count();
    }

    private static String summary(List<Point> points) {
        Map<String, Integer> m = new TreeMap<>();
        points.forEach(p -> m.merge(p.fileKind(), 1, Integer::sum));
        return m.toString();
    }

    private static boolean hasCause(Throwable t, Class<?> c) {
        for (Throwable x = t; x != null; x = x.getCause()) {
            if (c.isInstance(x)) {
                return true;
            }
            for (Throwable s : x.getSuppressed()) {
                if (c.isInstance(s)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String chain(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable x = t; x != null; x = x.getCause()) {
            if (b.length() > 0) {
                b.append(" <- ");
            }
            b.append(x.getClass().getSimpleName()).append(": ").append(x.getMessage());
        }
        return b.toString();
    }

    private static String trace(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        String s = w.toString();
        return s.length() > 3000 ? s.substring(0, 3000) + "..." : s;
    }

    private static void closeQuietly(Store s) {
        if (s != null) {
            try {
                s.close();
            } catch (Throwable t) {
                // a dead machine or a poisoned handle: closing writes nothing
            }
        }
    }
}
