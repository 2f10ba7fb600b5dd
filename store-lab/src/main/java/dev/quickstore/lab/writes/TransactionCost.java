package dev.quickstore.lab.writes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What one measured transaction of {@link WriteDetectionLab} cost, phase by phase (Hosking and Moss, section 4: the
 * run-time cost of the updates apart from the checkpoint at commit).
 *
 * @param beginNs begin (scanning gives every resident page its pre-image there)
 * @param runNs the updates measured
 * @param commitNs the commit without its log force and the store checkpoint that may follow
 * @param flushNs the log force and that store checkpoint
 * @param logBytes REDO bytes of the commit
 * @param pages pages the commit examined
 * @param writeFaults write faults of the transaction
 */
record TransactionCost(
        long beginNs, long runNs, long commitNs, long flushNs, long logBytes, long pages, long writeFaults) {
    /** The fastest (begin + run + commit): the least disturbed on a shared machine. */
    static TransactionCost fastest(List<TransactionCost> ts) {
        List<TransactionCost> sorted = new ArrayList<>(ts);
        sorted.sort(Comparator.comparingLong(t -> t.beginNs + t.runNs + t.commitNs));
        return sorted.get(0);
    }
}
