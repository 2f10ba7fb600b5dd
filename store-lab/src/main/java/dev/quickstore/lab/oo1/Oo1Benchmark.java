package dev.quickstore.lab.oo1;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Runs OO1 on one built database the way Texas ran it (Kakkad and Wilson 1999, section 6.2): a <em>traversal
 * set</em> of {@value #TRAVERSALS} traversals from new random roots, the first cold (nothing cached: the mapped
 * store reopened), the next {@value #WARM} warm, the last {@value #HOT} hot, each timed in CPU time of the running
 * thread (the paper's measure: the fault handler runs on that thread, so faults count, a pread served by the
 * operating system's cache included), then 1,000 lookups cold (an empty cache), warm (1,000 other ids, the cache as
 * the cold ones left it) and hot (the cold ones again), then an insert of 100 parts with its commit.
 * Before the measured set the same code runs once on other roots and the store is made cold again, so that the
 * JIT has compiled it: "cold" is the cost of faults, not of compilation. Every system gets the same roots (one
 * seed), so the visits and checksums of two systems must be equal.
 */
public final class Oo1Benchmark {
    /** Traversals per set: 1 cold, {@value #WARM} warm, {@value #HOT} hot. */
    public static final int TRAVERSALS = 45;

    public static final int WARM = 34;
    public static final int HOT = 10;

    /** Lookups per lookup run (OO1). */
    public static final int LOOKUPS = 1_000;

    /** Parts per insert (OO1). */
    public static final int INSERTS = 100;

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Oo1Benchmark() {}

    /**
     * One traversal of the set: its place, phase, CPU and wall time, pages read, faults, visits, checksum and the
     * frames (address space) the system holds after it ({@link Oo1Database#framesReserved}).
     */
    public record TraversalRun(
            int index,
            String phase,
            long cpuNanos,
            long wallNanos,
            long pagesRead,
            long faults,
            int visits,
            long checksum,
            long framesReserved) {}

    /**
     * A system's whole run; {@code lookupChecksum} covers the values the cold (= hot) and the warm lookups read, so
     * two systems that agree on it found the same parts.
     */
    public record Result(
            String system,
            int parts,
            List<TraversalRun> traversals,
            long lookupColdCpuNanos,
            long lookupColdPagesRead,
            long lookupWarmCpuNanos,
            long lookupWarmPagesRead,
            long lookupHotCpuNanos,
            long lookupChecksum,
            long insertWallNanos,
            long framesAfterTraversals,
            long framesAfterColdLookups,
            long framesAfterWarmLookups) {

        /** Mean CPU time of the traversals of {@code phase} ({@code cold}, {@code warm}, {@code hot}). */
        public double meanCpuNanos(String phase) {
            return traversals.stream()
                    .filter(t -> t.phase().equals(phase))
                    .mapToLong(TraversalRun::cpuNanos)
                    .average()
                    .orElse(Double.NaN);
        }

        /** Pages read by the traversals of {@code phase}. */
        public long pagesRead(String phase) {
            return traversals.stream()
                    .filter(t -> t.phase().equals(phase))
                    .mapToLong(TraversalRun::pagesRead)
                    .sum();
        }
    }

    /** The phase of traversal {@code i} (0-based) of a set. */
    public static String phase(int i) {
        return i == 0 ? "cold" : i <= WARM ? "warm" : "hot";
    }

    /**
     * Runs the traversal set, the lookups and the insert on {@code db} (built with {@code parts} parts); {@code
     * seed} chooses the roots, the looked-up ids and the inserted parts. {@code progress} is told each step.
     */
    public static Result run(Oo1Database db, int parts, long seed, java.util.function.Consumer<String> progress) {
        // JIT warm-up on other roots, then an empty cache
        SplittableRandom warm = new SplittableRandom(~seed);
        for (int i = 0; i < TRAVERSALS; i++) {
            db.begin();
            Oo1Operations.traverse(db, 1 + warm.nextInt(parts));
            db.commit();
        }
        db.begin();
        Oo1Operations.lookup(db, parts, LOOKUPS, warm);
        db.commit();
        progress.accept(db.name() + ": warmed up");

        db.makeCold();
        SplittableRandom roots = new SplittableRandom(seed);
        List<TraversalRun> runs = new ArrayList<>();
        for (int i = 0; i < TRAVERSALS; i++) {
            int root = 1 + roots.nextInt(parts);
            db.begin();
            long f0 = db.pagesRead();
            long g0 = db.faults();
            long w0 = System.nanoTime();
            long c0 = THREADS.getCurrentThreadCpuTime();
            Oo1Operations.Traversal t = Oo1Operations.traverse(db, root);
            long c1 = THREADS.getCurrentThreadCpuTime();
            long w1 = System.nanoTime();
            long f1 = db.pagesRead();
            long g1 = db.faults();
            db.commit();
            runs.add(new TraversalRun(
                    i + 1, phase(i), c1 - c0, w1 - w0, f1 - f0, g1 - g0, t.visits, t.checksum, db.framesReserved()));
        }
        long framesAfterTraversals = db.framesReserved();
        progress.accept(db.name() + ": traversal set done");

        db.makeCold();
        db.begin();
        long f0 = db.pagesRead();
        long c0 = THREADS.getCurrentThreadCpuTime();
        long sum = Oo1Operations.lookup(db, parts, LOOKUPS, new SplittableRandom(seed + 1));
        long c1 = THREADS.getCurrentThreadCpuTime();
        long coldPages = db.pagesRead() - f0;
        db.commit();
        long framesAfterLookups = db.framesReserved();
        db.begin();
        long f4 = db.pagesRead();
        long c4 = THREADS.getCurrentThreadCpuTime();
        long warmSum = Oo1Operations.lookup(db, parts, LOOKUPS, new SplittableRandom(seed + 3));
        long c5 = THREADS.getCurrentThreadCpuTime();
        long warmPages = db.pagesRead() - f4;
        db.commit();
        long framesAfterWarmLookups = db.framesReserved();
        db.begin();
        long c2 = THREADS.getCurrentThreadCpuTime();
        long hotSum = Oo1Operations.lookup(db, parts, LOOKUPS, new SplittableRandom(seed + 1));
        long c3 = THREADS.getCurrentThreadCpuTime();
        db.commit();
        if (hotSum != sum) {
            throw new IllegalStateException(db.name() + ": the same lookups read different values cold and hot");
        }
        progress.accept(db.name() + ": lookups done");

        long w0 = System.nanoTime();
        Oo1Operations.insert(db, parts + 1, INSERTS, new SplittableRandom(seed + 2));
        long insert = System.nanoTime() - w0;
        return new Result(
                db.name(),
                parts,
                List.copyOf(runs),
                c1 - c0,
                coldPages,
                c5 - c4,
                warmPages,
                c3 - c2,
                sum * 31 + warmSum,
                insert,
                framesAfterTraversals,
                framesAfterLookups,
                framesAfterWarmLookups);
    }
}
