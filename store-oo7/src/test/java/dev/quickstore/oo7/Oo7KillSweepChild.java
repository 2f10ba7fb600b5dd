package dev.quickstore.oo7;

import dev.quickstore.core.crashpoint.CrashPoints;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The child JVM of {@link Oo7KillSweepTest}: opens (recovering) the OO7 store in {@code args[0]}, announces
 * {@code ready}, then commits the sweep's transactions {@code args[2]+1, args[2]+2, ...} (seed {@code args[1]})
 * forever, printing {@code committed N} after each commit returned, until it is killed. With {@code args[3]} =
 * {@code POINT:K} it stops at the K-th time the store reaches that {@link dev.quickstore.core.crashpoint.CrashPoints.Point}, prints {@code at
 * POINT} and blocks there until the parent kills it; with {@code args[4]} = {@code relocate} it opens with a
 * one-time relocation of a quarter of the pages (QS-OR), whose placement commit is a crash point. A watchdog
 * halts it after five minutes should the parent never kill it.
 */
public final class Oo7KillSweepChild {
    private Oo7KillSweepChild() {}

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> {
            LockSupport.parkNanos(300_000_000_000L);
            Runtime.getRuntime().halt(3);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        long n = Long.parseLong(args[2]);
        CrashPoints.armStop(args[3]);
        MappedOo7Store store = MappedOo7Store.open(
                dir,
                false,
                args.length > 4 && args[4].equals("relocate")
                        ? Oo7KillSweep.OPTIONS.withRelocation(dev.quickstore.core.options.Relocation.ONE_TIME, 0.25)
                        : Oo7KillSweep.OPTIONS);
        System.out.println("ready " + n);
        System.out.flush();
        while (true) {
            n++;
            Oo7KillSweep.apply(store, seed, n);
            System.out.println("committed " + n);
            System.out.flush();
        }
    }
}
