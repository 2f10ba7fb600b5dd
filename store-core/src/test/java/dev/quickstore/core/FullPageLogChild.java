package dev.quickstore.core;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Child JVM of {@link FullPageLoggingTest}: opens the store with full-page commit logging, commits two updates
 * of word 1 (3000 + i, then 4000 + i, on objects 0, 2, 4, ...), prints "committed REDO-RECORDS" and waits to be
 * killed with SIGKILL, so that the committed pages are in the log only.
 */
public final class FullPageLogChild {
    private FullPageLogChild() {}

    public static void main(String[] args) throws Exception {
        Store s = Store.open(Path.of(args[0]), FullPageLoggingTest.FULL);
        long[] refs = FullPageLoggingTest.refsOf(s, Integer.parseInt(args[1]));
        FullPageLoggingTest.update(s, refs, 3000);
        FullPageLoggingTest.update(s, refs, 4000);
        System.out.println("committed " + s.stats().redoRecords());
        System.out.flush();
        while (true) {
            LockSupport.park(); // until SIGKILL
        }
    }
}
