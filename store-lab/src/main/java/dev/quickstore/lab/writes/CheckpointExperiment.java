package dev.quickstore.lab.writes;

import dev.quickstore.api.PersistentStore;
import dev.quickstore.lab.writes.WriteDetectionLab.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Checkpoint cost against the fraction of parts modified (Hosking and Moss, section 4, the hot-update figures:
 * elapsed time against the actual fraction of parts modified): per fraction, a transaction updates two int fields of
 * that fraction of the parts; begin, run and commit (the checkpoint: diffs, log records, the forced COMMIT) timed
 * apart; REDO bytes and pages diffed. {@code checkpoint} rows, with (begin + commit) over page protection's at the
 * same fraction ({@link #overPages}).
 */
final class CheckpointExperiment {
    private final PartsDatabase db;
    private final List<Double> fractions;
    private final List<int[]> fractionIdx;

    /** The parts each fraction updates: the first {@code f x parts} of a shuffle seeded with {@code seed}. */
    CheckpointExperiment(PartsDatabase db, List<Double> fractions, long seed) {
        this.db = db;
        this.fractions = fractions;
        int parts = db.rel.length;
        this.fractionIdx = new ArrayList<>();
        for (double f : fractions) {
            fractionIdx.add(WriteDetectionLab.firstOfShuffle(parts, Math.max(1, (int) Math.round(f * parts)), seed));
        }
    }

    /** One unmeasured checkpoint transaction at the middle fraction (the warm-up round). */
    void warmUp(PersistentStore s) {
        transaction(s, fractionIdx.get(fractionIdx.size() / 2));
    }

    /** The fastest of {@code reps} checkpoint transactions at every fraction, on an open store of {@code scheme}. */
    List<Row> measure(PersistentStore s, String scheme, int reps) {
        List<Row> rows = new ArrayList<>();
        for (int k = 0; k < fractions.size(); k++) {
            int[] idx = fractionIdx.get(k);
            List<TransactionCost> ts = new ArrayList<>();
            for (int r = 0; r < reps; r++) {
                ts.add(transaction(s, idx));
            }
            TransactionCost t = TransactionCost.fastest(ts);
            rows.add(new Row(
                    "checkpoint",
                    scheme,
                    fractions.get(k),
                    "update",
                    t.runNs() / (double) idx.length,
                    t.beginNs() / 1e6,
                    t.runNs() / 1e6,
                    t.commitNs() / 1e6,
                    t.flushNs() / 1e6,
                    null,
                    t.logBytes(),
                    t.pages(),
                    t.writeFaults(),
                    idx.length,
                    null));
        }
        return rows;
    }

    /** The rows with their ratio: (begin + commit) over the pages scheme's at the same fraction. */
    static List<Row> overPages(List<Row> checkpoints) {
        List<Row> rows = new ArrayList<>();
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
        return rows;
    }

    /** The checkpoint transaction: x and y of every part of {@code idx} incremented once, then commit. */
    private TransactionCost transaction(PersistentStore s, int[] idx) {
        TimedUpdate u = TimedUpdate.begin(s, db, idx);
        long t2 = System.nanoTime();
        for (UpdatePart p : u.parts) {
            p.x(p.x() + 1);
            p.y(p.y() + 1);
        }
        long t3 = System.nanoTime();
        u.commit();
        for (int i : idx) {
            db.x[i]++;
            db.y[i]++;
        }
        return u.cost(t3 - t2);
    }
}
