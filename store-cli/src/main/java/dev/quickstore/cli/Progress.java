package dev.quickstore.cli;

import java.io.PrintWriter;
import java.util.Locale;

/** Progress of long work on stderr: one line rewritten in place ({@code \r}), ended by {@link #done}. */
final class Progress implements AutoCloseable {
    private final PrintWriter err;
    private final String label;
    private final boolean quiet;
    private long lastPercent = -1;

    Progress(PrintWriter err, String label, boolean quiet) {
        this.err = err;
        this.label = label;
        this.quiet = quiet;
    }

    void update(long done, long total, String unit) {
        if (quiet) {
            return;
        }
        long percent = total <= 0 ? 100 : done * 100 / total;
        if (percent != lastPercent || done == total) {
            lastPercent = percent;
            err.printf(Locale.ROOT, "\r%s: %d/%d %s (%d%%)   ", label, done, total, unit, percent);
            err.flush();
        }
    }

    /** Ends the progress line (so an error message that follows starts on its own line). */
    void done() {
        if (!quiet && lastPercent >= 0) {
            err.println();
            err.flush();
            lastPercent = -1;
        }
    }

    @Override
    public void close() {
        done();
    }
}
