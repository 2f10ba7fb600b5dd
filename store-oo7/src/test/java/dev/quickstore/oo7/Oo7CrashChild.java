package dev.quickstore.oo7;

import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.nio.file.Path;

/**
 * The child JVM of {@link Oo7CrashRestartTest}: opens the OO7 store in {@code args[0]}, runs operation {@code
 * args[1]} (T2 variant {@code args[2]}) in its own transaction, prints {@code committed COUNT} once the commit
 * has returned and then waits to be killed with SIGKILL (no close, so no checkpoint). A watchdog halts it after
 * two minutes should the parent never kill it.
 */
public final class Oo7CrashChild {
    private Oo7CrashChild() {}

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(120_000);
            } catch (InterruptedException e) {
                return;
            }
            Runtime.getRuntime().halt(3);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        MappedOo7Store store = MappedOo7Store.open(Path.of(args[0]), false);
        Oo7Operations ops = new Oo7Operations(
                store,
                Oo7Config.SMALL,
                7,
                new Oo7Operations.Parameters(Oo7Operations.T2Update.valueOf(args[2]), 10, 5));
        int count = ops.run(Oo7Operation.valueOf(args[1]));
        System.out.println("committed " + count);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
