package dev.quickstore.core.inspect;

import java.util.List;

/**
 * The state of a store's log and control file.
 *
 * @param opened whether the store was ever opened (the log and control file are created by the first open)
 * @param checkpointLsn LSN of the last checkpoint named by the control file (0 = none)
 * @param logStartLsn first LSN kept in the log (older segments were truncated)
 * @param segmentBytes size of a log segment
 * @param endLsn LSN just past the last valid record
 * @param records valid records in the segment files present (from the oldest one's start to the end)
 * @param recordsAfterCheckpoint records after the last checkpoint record
 * @param clean true when the last record is the checkpoint named by the control file (the store was
 *     closed cleanly; opening it replays nothing)
 * @param segments the segment files present
 */
public record LogState(
        boolean opened,
        long checkpointLsn,
        long logStartLsn,
        long segmentBytes,
        long endLsn,
        long records,
        long recordsAfterCheckpoint,
        boolean clean,
        List<Segment> segments) {

    /**
     * One log segment file.
     *
     * @param file file name
     * @param firstLsn LSN of its first byte
     * @param bytes file size
     */
    public record Segment(String file, long firstLsn, long bytes) {}
}
