package dev.quickstore.lab.cricket;

import static dev.quickstore.lab.cricket.Repetitions.ms;

/**
 * The heap tree's hot times, the baseline of every ratio of {@link TreeSearchBenchmark} (the paper's non-persistent
 * tree, Shekita and Zwilling 1990, Table 4): per repetition, one pass, two passes and the random searches, in ms.
 */
record HeapTimes(double[] onePass, double[] twoPasses, double[] searches) {
    /** {@code reps} repetitions of one pass, a second pass and the searches, in that order. */
    static HeapTimes measure(ComparedTrees t, int reps) {
        double[] heap1 = new double[reps];
        double[] heap2 = new double[reps];
        double[] heapS = new double[reps];
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            t.consume(t.heap.pass());
            long t1 = System.nanoTime();
            t.consume(t.heap.pass());
            long t2 = System.nanoTime();
            t.consume(t.heap.search(t.paths, 0, t.paths.count()));
            long t3 = System.nanoTime();
            heap1[r] = ms(t1 - t0);
            heap2[r] = ms(t2 - t0);
            heapS[r] = ms(t3 - t2);
        }
        return new HeapTimes(heap1, heap2, heapS);
    }
}
