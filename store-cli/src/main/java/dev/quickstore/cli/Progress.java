package dev.quickstore.cli;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress of long work on stderr: on a terminal one line rewritten in place ({@code \r}), ended by {@link
 * #done}; otherwise (logs, pipes, files) one line per tenth, so that no log gets a line of a hundred updates.
 */
final class Progress implements AutoCloseable {
    private final PrintWriter err;
    private final String label;
    private final boolean quiet;
    private long lastPercent = -1;

    private final boolean terminal;

    Progress(PrintWriter err, String label, boolean quiet) {
        this(err, label, quiet, System.console() != null && System.console().isTerminal());
    }

    Progress(PrintWriter err, String label, boolean quiet, boolean terminal) {
        this.err = err;
        this.label = label;
        this.quiet = quiet;
        this.terminal = terminal;
    }

    void update(long done, long total, String unit) {
        if (quiet) {
            return;
        }
        long percent = total <= 0 ? 100 : done * 100 / total;
        if (!terminal) {
            long tenth = percent / 10;
            if (tenth != lastPercent) {
                lastPercent = tenth;
                err.printf(Locale.ROOT, "%s: %d/%d %s (%d%%)%n", label, done, total, unit, percent);
                err.flush();
            }
            return;
        }
        if (percent != lastPercent || done == total) {
            lastPercent = percent;
            err.printf(Locale.ROOT, "\r%s: %d/%d %s (%d%%)   ", label, done, total, unit, percent);
            err.flush();
        }
    }

    /** Ends the progress line (so an error message that follows starts on its own line). */
    void done() {
        if (!quiet && terminal && lastPercent >= 0) {
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
