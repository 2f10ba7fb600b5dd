package dev.quickstore.core;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Child JVM of {@link TexasModeTest}: on the Texas store built from {@code TexasGraph(900, 11)}, commits the
 * update plan {@link #COMMITTED_SEED} (prints "committed"), then overwrites every node's value with -1 and
 * retargets B references through the view in a transaction that never commits, forcing steals (the pool holds
 * 16 pages), prints "uncommitted steals=N" and waits to be killed with SIGKILL.
 */
public final class TexasCrashChild {
    static final long COMMITTED_SEED = 4242;
    static final int UPDATES = 300;

    private TexasCrashChild() {}

    public static void main(String[] args) throws Exception {
        Store s = Store.open(Path.of(args[0]), TexasModeTest.opts(16));
        TexasGraph g = new TexasGraph(900, 11);
        g.update(s, COMMITTED_SEED, UPDATES, true);
        System.out.println("committed");
        System.out.flush();
        Transaction tx = s.begin();
        long first = tx.root("g0");
        for (long r = first; r != 0; r = TexasGraph.get(s, r, TexasGraph.A)) {
            TexasGraph.put(s, r, TexasGraph.VALUE, -1);
            TexasGraph.put(s, r, TexasGraph.B, first);
        }
        for (int i = 0; i < 40; i++) {
            tx.allocate(MappedStoreTest.OBJECT);
        }
        System.out.println("uncommitted steals=" + s.pool.steals());
        System.out.flush();
        while (true) {
            LockSupport.park(); // until SIGKILL
        }
    }
}
