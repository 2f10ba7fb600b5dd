package dev.quickstore.core.crashpoint;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * Named instants in the write path at which a crash test stops the process so that its parent can kill it with
 * SIGKILL exactly there, rather than only at random instants (the weighted kill sweep of issue 14; SQLite's crash
 * tests and H2's kill-while-writing sweep aim at the same places: the commit's log force, log roll-over,
 * checkpoint, steal and the placement commit of QS-OR relocation).
 *
 * <p>The store calls {@link #reach} at each {@link Point}. Nothing happens unless a test process has installed a
 * {@link Listener} with {@link #arm}; the listener typically counts, and at the chosen occurrence reports the
 * point to its parent and blocks until it is killed. The cost when disarmed is one volatile read per point, and
 * no point lies on the native fault path (the signal handler never calls Java, design notes section 1).
 */
public final class CrashPoints {
    /** Where the store can be stopped, in the order a commit, a checkpoint or an opening passes them. */
    public enum Point {
        /** Every record of a commit, COMMIT included, is in the log buffer or file; the log is not forced yet. */
        COMMIT_LOGGED,
        /** The commit's log force returned: the transaction is durable but not yet acknowledged to its caller. */
        COMMIT_DURABLE,
        /** A log segment was closed complete and the next one created, before its header is written. */
        LOG_ROLL,
        /** A checkpoint wrote every dirty page back; its checkpoint record is not logged yet. */
        CHECKPOINT_PAGES_WRITTEN,
        /** A checkpoint's record is durable; the control file does not point at it yet. */
        CHECKPOINT_LOGGED,
        /**
         * A write-back (a steal, or a checkpoint's): a batch of dirty pages is durable in the double-write buffer,
         * not yet written in place.
         */
        STEAL_DOUBLE_WRITTEN,
        /** QS-OR: the placement file of a one-time relocation is durable; no page is placed by it yet. */
        PLACEMENT_COMMITTED
    }

    /** Told of every point reached while armed, on the thread that reached it. */
    @FunctionalInterface
    public interface Listener {
        void reached(Point point);
    }

    private static volatile Listener listener;

    private CrashPoints() {}

    /** Called by the store at {@code point}. */
    public static void reach(Point point) {
        Listener l = listener;
        if (l != null) {
            l.reached(point);
        }
    }

    /** Installs {@code l} for every later point of this process (test processes only). */
    public static void arm(Listener l) {
        listener = Objects.requireNonNull(l);
    }

    /**
     * For a crash-test child process: arms {@code spec} = {@code POINT:K} so that at the K-th time the store reaches
     * that point this prints {@code at POINT} on standard output (and where it stopped, as a stack trace, on
     * standard error, for the parent's failure messages) and blocks the thread right there, until the parent,
     * reading the line, kills the process (SIGKILL). {@code -} arms nothing.
     */
    public static void armStop(String spec) {
        if (spec.equals("-")) {
            return;
        }
        String[] parts = spec.split(":", 2);
        Point target = Point.valueOf(parts[0]);
        int[] left = {Integer.parseInt(parts[1])};
        arm(p -> {
            if (p == target && --left[0] == 0) {
                new Throwable("stopped at " + p + " (crash test)").printStackTrace();
                System.out.println("at " + p);
                System.out.flush();
                while (true) {
                    LockSupport.park(); // stopped exactly here until the parent's SIGKILL
                }
            }
        });
    }

    /** Removes the listener. */
    public static void disarm() {
        listener = null;
    }
}
