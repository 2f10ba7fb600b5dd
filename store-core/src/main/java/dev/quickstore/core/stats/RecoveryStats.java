package dev.quickstore.core.stats;

import java.util.List;

/** What the last open found and did. */
public record RecoveryStats(long logRecordsScanned, long redoApplied, int losersUndone, List<Long> tornPagesRestored) {}
