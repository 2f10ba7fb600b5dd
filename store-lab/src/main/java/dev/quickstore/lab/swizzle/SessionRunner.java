package dev.quickstore.lab.swizzle;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Runs one timed load-work-save session of a scheme on a collection file (Moss 1992, section 5.2), or the same work
 * on the heap model, and returns its {@link Measurement}. The collection counts are taken by the session itself (or
 * by its untimed census); the phases are timed with {@link System#nanoTime}.
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
            s.traverse(0);
            long t2 = System.nanoTime();
            for (int pass = 1; pass < work.visits(); pass++) {
                s.traverse(pass);
            }
            long t3 = System.nanoTime();
            s.save();
            long t4 = System.nanoTime();
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
                    t4 - t3,
                    buffers.pagesRead(),
                    buffers.pagesWritten(),
                    t.results(),
                    work.visits());
        }
    }

    /** The workload on a fresh heap model of {@code shape} (building it is not timed). */
    public static Measurement runHeap(TreeShape shape, Workload work) {
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
                0,
                t2 - t1,
                t3 - t2,
                0,
                0,
                0,
                t.results(),
                work.visits());
    }
}
