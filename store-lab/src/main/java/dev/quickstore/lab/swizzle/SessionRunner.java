package dev.quickstore.lab.swizzle;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Runs one timed session of a scheme (Moss 1992, section 5.2) and returns its {@link Measurement}: a load-work-save
 * session on a collection file ({@link #run}), a create-work-save session that creates the collection and saves it
 * into a new file ({@link #runCreate}), or the same work on the heap model ({@link #runHeap}). The collection counts
 * are taken by the session itself (or by its untimed census); the phases are timed with {@link System#nanoTime},
 * the save phase split into preparing and writing as Moss measured them (section 5.4.5).
 */
public final class SessionRunner {
    private SessionRunner() {}

    public static Measurement run(Path file, int pageSize, Strategy strategy, Workload work) throws IOException {
        Tally t = new Tally();
        try (PageBuffers buffers = PageBuffers.open(file, pageSize)) {
            SwizzleSession s = strategy.open(buffers, work, t);
            long t0 = System.nanoTime();
            s.load();
            long t1 = System.nanoTime();
            return workAndSave(strategy, work, t, buffers, s, t0, t1);
        }
    }

    /**
     * A create-work-save session (Moss 1992, sections 2 and 5.5.2): the scheme creates the collection of {@code
     * shape} in memory (its {@link SwizzleSession#create}), works, and saves it into {@code file} (overwritten), which
     * then holds the same collection {@link CollectionFile#write} would have written, updated by the work.
     */
    public static Measurement runCreate(Path file, int pageSize, Strategy strategy, TreeShape shape, Workload work)
            throws IOException {
        Tally t = new Tally();
        boolean inPlace = strategy == Strategy.EIS || strategy == Strategy.LIS;
        long heap = inPlace ? InPlaceSwizzling.heapBytes(shape) : 0;
        try (PageBuffers buffers = PageBuffers.create(file, pageSize, shape, heap)) {
            SwizzleSession s = strategy.open(buffers, work, t);
            long t0 = System.nanoTime();
            s.create();
            long t1 = System.nanoTime();
            return workAndSave(strategy, work, t, buffers, s, t0, t1);
        }
    }

    private static Measurement workAndSave(
            Strategy strategy, Workload work, Tally t, PageBuffers buffers, SwizzleSession s, long t0, long t1) {
        s.traverse(0);
        long t2 = System.nanoTime();
        for (int pass = 1; pass < work.visits(); pass++) {
            s.traverse(pass);
        }
        long t3 = System.nanoTime();
        s.prepare();
        long t4 = System.nanoTime();
        s.write();
        long t5 = System.nanoTime();
        s.census();
        return new Measurement(
                strategy,
                t.objects,
                t.slots,
                t.initialized,
                t.userBytes,
                t.visits,
                t.updated,
                t1 - t0,
                t2 - t1,
                t3 - t2,
                t5 - t3,
                t4 - t3,
                buffers.pagesRead(),
                buffers.pagesWritten(),
                t.results(),
                work.visits());
    }

    /** The workload on a fresh heap model of {@code shape}; building it is timed as the load (creation) phase. */
    public static Measurement runHeap(TreeShape shape, Workload work) {
        long t0 = System.nanoTime();
        HeapModel model = new HeapModel(shape);
        Tally t = new Tally();
        long t1 = System.nanoTime();
        model.traverse(work, true, t);
        long t2 = System.nanoTime();
        for (int pass = 1; pass < work.visits(); pass++) {
            model.traverse(work, false, t);
        }
        long t3 = System.nanoTime();
        return new Measurement(
                null,
                shape.objects(),
                shape.slots(),
                shape.initializedSlots(),
                shape.userBytes(),
                t.visits,
                t.updated,
                t1 - t0,
                t2 - t1,
                t3 - t2,
                0,
                0,
                0,
                0,
                t.results(),
                work.visits());
    }
}
