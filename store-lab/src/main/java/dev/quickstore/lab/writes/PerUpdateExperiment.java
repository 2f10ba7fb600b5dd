package dev.quickstore.lab.writes;

import dev.quickstore.api.PersistentStore;
import dev.quickstore.lab.writes.WriteDetectionLab.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cost per update (Hosking and Moss, section 4, Table III, "long-running update"): one transaction updates {@code
 * updateParts} random parts once (the <i>first</i> update of each: traps, card marks, object marks, buffer entries)
 * and then {@code repeats} more times (the <i>repeated</i> updates), commit not included; ns per update over the same
 * loop on plain heap objects ({@link HeapParts}, the non-persistent baseline). Two {@code per-update} rows per scheme.
 */
final class PerUpdateExperiment {
    /** Heap warm-up rounds (JIT) before the baseline is measured. */
    private static final int HEAP_WARMUP_ROUNDS = 20;

    private final PartsDatabase db;
    private final int[] idx;
    private final int repeats;
    private final HeapParts.Part[] heapSelected;
    private double heapFirstNs = Double.NaN;
    private double heapRepeatedNs = Double.NaN;

    /** Updates the parts {@code idx} once and then {@code repeats} times more. */
    PerUpdateExperiment(PartsDatabase db, int[] idx, int repeats) {
        this.db = db;
        this.idx = idx;
        this.repeats = repeats;
        this.heapSelected = new HeapParts(db.rel.length).select(idx);
    }

    /** The heap loop's warm-up (JIT), before the schemes' warm-up round. */
    void warmUpHeap() {
        for (int i = 0; i < HEAP_WARMUP_ROUNDS; i++) {
            HeapParts.update(heapSelected, 1 + repeats);
        }
    }

    /** The baseline: the fastest of {@code reps} first and repeated update loops on the heap, ns per update. */
    void measureHeap(int reps) {
        double[] heapFirst = new double[reps];
        double[] heapRepeated = new double[reps];
        for (int r = 0; r < reps; r++) {
            long t0 = System.nanoTime();
            HeapParts.update(heapSelected, 1);
            long t1 = System.nanoTime();
            HeapParts.update(heapSelected, repeats);
            long t2 = System.nanoTime();
            heapFirst[r] = (double) (t1 - t0) / idx.length;
            heapRepeated[r] = (double) (t2 - t1) / ((long) idx.length * repeats);
        }
        heapFirstNs = Arrays.stream(heapFirst).min().orElseThrow();
        heapRepeatedNs = Arrays.stream(heapRepeated).min().orElseThrow();
    }

    double heapFirstNs() {
        return heapFirstNs;
    }

    double heapRepeatedNs() {
        return heapRepeatedNs;
    }

    /**
     * On an open, preloaded store of {@code scheme}: {@value WriteDetectionLab#WARMUP_TRANSACTIONS} unmeasured
     * transactions (this scheme's barrier compiled), then {@code reps} measured; the first and repeated rows of the
     * fastest.
     */
    List<Row> measure(PersistentStore s, String scheme, int reps) {
        for (int w = 0; w < WriteDetectionLab.WARMUP_TRANSACTIONS; w++) {
            transaction(s);
        }
        List<TransactionCost> first = new ArrayList<>();
        List<TransactionCost> repeated = new ArrayList<>();
        for (int r = 0; r < reps; r++) {
            TransactionCost[] t = transaction(s);
            first.add(t[0]);
            repeated.add(t[1]);
        }
        TransactionCost f = TransactionCost.fastest(first);
        TransactionCost rp = TransactionCost.fastest(repeated);
        long n = idx.length;
        return List.of(
                new Row(
                        "per-update",
                        scheme,
                        null,
                        "first",
                        f.runNs() / (double) n,
                        f.beginNs() / 1e6,
                        f.runNs() / 1e6,
                        f.commitNs() / 1e6,
                        f.flushNs() / 1e6,
                        f.runNs() / (double) n / heapFirstNs,
                        f.logBytes(),
                        f.pages(),
                        f.writeFaults(),
                        n,
                        null),
                new Row(
                        "per-update",
                        scheme,
                        null,
                        "repeated",
                        rp.runNs() / (double) (n * repeats),
                        rp.beginNs() / 1e6,
                        rp.runNs() / 1e6,
                        rp.commitNs() / 1e6,
                        rp.flushNs() / 1e6,
                        rp.runNs() / (double) (n * repeats) / heapRepeatedNs,
                        rp.logBytes(),
                        rp.pages(),
                        rp.writeFaults(),
                        n * repeats,
                        null));
    }

    /** The per-update transaction: [first updates, repeated updates] (both carry the transaction's commit). */
    TransactionCost[] transaction(PersistentStore s) {
        TimedUpdate u = TimedUpdate.begin(s, db, idx);
        long t2 = System.nanoTime();
        for (UpdatePart p : u.parts) {
            p.x(p.x() + 1);
        }
        long t3 = System.nanoTime();
        for (int r = 0; r < repeats; r++) {
            for (UpdatePart p : u.parts) {
                p.x(p.x() + 1);
            }
        }
        long t4 = System.nanoTime();
        u.commit();
        for (int i : idx) {
            db.x[i] += 1 + repeats;
        }
        return new TransactionCost[] {u.cost(t3 - t2), u.cost(t4 - t3)};
    }
}
