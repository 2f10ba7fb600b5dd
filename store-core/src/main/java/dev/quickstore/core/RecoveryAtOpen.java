package dev.quickstore.core;

import dev.quickstore.core.buffer.BufferPool;
import dev.quickstore.core.events.Recorder;
import dev.quickstore.core.events.RecoveryEvent;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogWriter;
import dev.quickstore.core.recovery.Recovery;
import dev.quickstore.core.stats.RecoveryStats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Restart recovery as {@link Store}'s opening runs it (ARIES-style; the argument is in docs/recovery.md):
 * the redo and undo passes after the analysis, each followed by releasing the pages it pinned, timed by one JFR
 * {@link RecoveryEvent} from before the control file is read to the end of undo, and summed up as the store's
 * {@link RecoveryStats}. The passes themselves are {@code recovery.Recovery}'s; the order of the opening steps
 * stays in {@link Store}.
 */
final class RecoveryAtOpen {
    /** The timed event, or null when JFR does not record it. */
    private final RecoveryEvent event;

    private RecoveryAtOpen(RecoveryEvent event) {
        this.event = event;
    }

    /** Starts timing recovery (analysis, redo, undo) if the JFR event is recorded. */
    static RecoveryAtOpen start() {
        RecoveryEvent event = null;
        if (Recorder.initialized() && RecoveryEvent.enabled()) {
            event = new RecoveryEvent(); // timed: analysis, redo, undo
            event.begin();
        }
        return new RecoveryAtOpen(event);
    }

    /**
     * Redoes the history of {@code analysis} and undoes its losers through {@code pool}, reports the event for
     * store {@code dir} and returns the counts ({@code restored}: the torn pages the double-write buffer restored).
     */
    RecoveryStats redoAndUndo(
            Path dir, LogReader reader, Recovery.Analysis analysis, BufferPool pool, LogWriter log, List<Long> restored)
            throws IOException {
        long redone = Recovery.redo(reader, analysis, pool);
        pool.unpinAll();
        int losers = Recovery.undo(reader, analysis, pool, log);
        pool.unpinAll();
        RecoveryStats stats = new RecoveryStats(analysis.records, redone, losers, restored);
        if (event != null && event.shouldCommit()) {
            event.store = dir.toString();
            event.recordsScanned = analysis.records;
            event.recordsRedone = redone;
            event.losersUndone = losers;
            event.tornPagesRestored = restored.size();
            event.commit();
        }
        return stats;
    }
}
