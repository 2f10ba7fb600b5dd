package dev.quickstore.lab.writes;

import java.util.List;

/**
 * What Hosking and Moss report, for printing beside our tables. The stored text of the paper
 * (hosking-moss-write-detection.txt) lost its digits (figure values, cycle counts, card sizes), so what is kept
 * here are the trends and rankings the text states in words, each with its place in the paper.
 */
public final class HoskingMossPaper {
    private HoskingMossPaper() {}

    /** Section 4, "Long-running update", Table III and the regression slopes: run-time cost per update. */
    public static final List<String> PER_UPDATE = List.of(
            "remsets: the highest overhead per update (a call to hash the updated location into the set)",
            "cards: mid-range, the same few instructions for every card size (shift, index, byte store)",
            "objects: low (set a bit in the object's header)",
            "pages: the first update of a page pays a protection trap, later updates to it cost nothing",
            "scan, non-persistent: no per-update work (the baseline)");

    /** Section 4, "Hot update" and "Insert" breakdowns: checkpoint cost against the fraction of parts updated. */
    public static final List<String> CHECKPOINT = List.of(
            "scan worst everywhere (compares every resident object), pages next (whole pages, reprotection)",
            "the 'old' component (diffing modified objects against the clean copy) dominates the checkpoint",
            "remsets best at low update probabilities (a concise record of just the modified objects)",
            "objects worst of the software schemes at low probabilities (it scans all cached objects for marks)",
            "cards: at low probabilities larger cards win (smaller table to scan), at high ones smaller cards win"
                    + " (less unmodified data compared); small cards are the robust choice over the range");

    /** Section 4, summary: which scheme to choose. */
    public static final List<String> CONCLUSIONS = List.of(
            "software schemes significantly outperform page protection (traps, protection calls, page granularity)",
            "short transactions: remsets best at low update probability, small cards robust over the range",
            "long transactions: run-time costs matter; remsets lose appeal, pages amortise the trap",
            "avoid large granules of update detection to keep the checkpoint latency small");
}
