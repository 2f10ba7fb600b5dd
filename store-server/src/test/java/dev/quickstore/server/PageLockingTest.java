package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.remote.PageLockException;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.testkit.ChildJvm;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ESM-style page locking (qs serve --cc locking): locks taken by the clients' fault paths (Cricket section 3),
 * a bounded wait that refuses the fault, deadlocks refused at once, locks released at commit and abort, and a
 * cached copy another client changed reloaded when it is locked again - all against a real server process.
 */
class PageLockingTest {
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG_UNALIGNED;

    @TempDir
    Path dir;

    /** Writes (an upgrade to an exclusive lock) and commits: the commit LSN, or the PageLockException. */
    private static Object upgradeAndCommit(RemoteTransaction t, long at, long value) {
        try {
            t.view().set(LONG, at, value);
            return t.commit();
        } catch (PageLockException e) {
            return e;
        }
    }

    @Test
    void locksFromTheFaultPathBlockTimeOutDeadlockAndReleaseAtTheEnd() throws Exception {
        Path db = dir.resolve("db");
        long[] off = new long[3];
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            for (int i = 0; i < off.length; i++) {
                long ref = tx.allocate(7000);
                tx.write(ref, 0, new byte[8]);
                off[i] = ref - s.arenaBase();
            }
            tx.commit();
        }
        Path secret = db.resolve(ServerSecret.FILE);
        int lockWait = 700;
        try (ChildJvm.Running server = ChildJvm.main(PageServerMain.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m", "-Dqs.server.cc=locking", "-Dqs.server.lockWaitMs=" + lockWait)
                .args(db.toString(), "127.0.0.1:0")
                .timeout(Duration.ofSeconds(240))
                .start()) {
            String line = server.nextLine(Duration.ofSeconds(60));
            if (line == null || !line.startsWith("listening ")) {
                fail("server did not start: " + server.describe());
            }
            String uri = line.substring("listening ".length());
            assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
                try (RemotePages c1 = RemotePages.connect(uri, secret, 5000);
                        RemotePages c2 = RemotePages.connect(uri, secret, 5000)) {
                    assertTrue(c1.locking() && c2.locking());
                    // c1 holds an exclusive lock: c2's read waits, times out, and is refused
                    RemoteTransaction t1 = c1.begin();
                    t1.view().set(LONG, off[0], 5);
                    long t0 = System.nanoTime();
                    RemoteTransaction t2 = c2.begin();
                    long seen = t2.view().get(LONG, off[0]); // waits for the lock, then reads the scratch page
                    long waited = (System.nanoTime() - t0) / 1_000_000;
                    assertEquals(0, seen, "a refused access reads zeros");
                    assertTrue(waited >= lockWait - 50, "the fault waited for the lock: " + waited + " ms");
                    PageLockException e = assertThrows(PageLockException.class, t2::commit);
                    assertTrue(e.getMessage().contains("lock wait timed out"), e.getMessage());
                    assertEquals(off[0] / c1.pageSize(), e.page());
                    t1.commit(); // releases c1's locks
                    // c2 cached page 1 under a shared lock; c1 changes it; c2's next lock sees a newer LSN and
                    // reloads it (no callbacks under locking)
                    try (RemoteTransaction t = c2.begin()) {
                        assertEquals(0, t.view().get(LONG, off[1]));
                        t.commit();
                    }
                    try (RemoteTransaction t = c1.begin()) {
                        t.view().set(LONG, off[1], 11);
                        t.commit();
                    }
                    try (RemoteTransaction t = c2.begin()) {
                        assertEquals(11, t.view().get(LONG, off[1]), "the stale cached copy was reloaded");
                        assertEquals(5, t.view().get(LONG, off[0]));
                        t.commit();
                    }
                    // a deadlock: both read page 2 (shared), both want to write it; the upgrade that closes the
                    // cycle is refused at once and the other is granted when the victim's abort releases its lock
                    RemoteTransaction a = c1.begin();
                    RemoteTransaction b = c2.begin();
                    assertEquals(0, a.view().get(LONG, off[2]));
                    assertEquals(0, b.view().get(LONG, off[2]));
                    // two threads of their own (the common pool may have one thread on a 2-core machine)
                    java.util.concurrent.ExecutorService two = java.util.concurrent.Executors.newFixedThreadPool(2);
                    CompletableFuture<Object> fa =
                            CompletableFuture.supplyAsync(() -> upgradeAndCommit(a, off[2], 1), two);
                    CompletableFuture<Object> fb =
                            CompletableFuture.supplyAsync(() -> upgradeAndCommit(b, off[2], 2), two);
                    Object ra = fa.get(30, TimeUnit.SECONDS);
                    Object rb = fb.get(30, TimeUnit.SECONDS);
                    two.shutdown();
                    boolean aWon = ra instanceof Long;
                    assertTrue(aWon != (rb instanceof Long), "exactly one commits: " + ra + " / " + rb);
                    PageLockException d = (PageLockException) (aWon ? rb : ra);
                    assertTrue(d.getMessage().contains("deadlock"), d.getMessage());
                    try (RemoteTransaction t = c2.begin()) {
                        assertEquals(aWon ? 1 : 2, t.view().get(LONG, off[2]), "the winner's write");
                        t.commit();
                    }
                    var st = c1.serverStatus();
                    assertEquals("locking", st.server().get("concurrency"));
                    assertEquals("0", st.server().get("locksHeld"), st.toString());
                    assertTrue(Long.parseLong(st.server().get("deadlocks")) >= 1, st.toString());
                    assertTrue(Long.parseLong(st.server().get("lockTimeouts")) >= 1, st.toString());
                }
            });
            server.terminate();
        }
    }
}
