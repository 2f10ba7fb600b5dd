package dev.quickstore.lab.cricket;

import dev.quickstore.core.stats.CommitStats;

/**
 * Differences and sums of {@link CommitStats} snapshots: what the commits of one round of {@link
 * CommitLoggingExperiment} spent, added up over the rounds of one logging mode.
 */
final class CommitStatsDelta {
    private CommitStatsDelta() {}

    static CommitStats minus(CommitStats a, CommitStats b) {
        return new CommitStats(
                a.commits() - b.commits(),
                a.pages() - b.pages(),
                a.redoRecords() - b.redoRecords(),
                a.redoBytes() - b.redoBytes(),
                a.preimageNanos() - b.preimageNanos(),
                a.reprotectNanos() - b.reprotectNanos(),
                a.stableNanos() - b.stableNanos(),
                a.diffNanos() - b.diffNanos(),
                a.appendNanos() - b.appendNanos(),
                a.flushNanos() - b.flushNanos(),
                a.logNanos() - b.logNanos(),
                a.checkpointNanos() - b.checkpointNanos(),
                a.totalNanos() - b.totalNanos(),
                a.cardPages() - b.cardPages(),
                a.cards() - b.cards());
    }

    /** {@code a + b}; {@code b} if {@code a} is null (the first round). */
    static CommitStats plus(CommitStats a, CommitStats b) {
        if (a == null) {
            return b;
        }
        return new CommitStats(
                a.commits() + b.commits(),
                a.pages() + b.pages(),
                a.redoRecords() + b.redoRecords(),
                a.redoBytes() + b.redoBytes(),
                a.preimageNanos() + b.preimageNanos(),
                a.reprotectNanos() + b.reprotectNanos(),
                a.stableNanos() + b.stableNanos(),
                a.diffNanos() + b.diffNanos(),
                a.appendNanos() + b.appendNanos(),
                a.flushNanos() + b.flushNanos(),
                a.logNanos() + b.logNanos(),
                a.checkpointNanos() + b.checkpointNanos(),
                a.totalNanos() + b.totalNanos(),
                a.cardPages() + b.cardPages(),
                a.cards() + b.cards());
    }
}
