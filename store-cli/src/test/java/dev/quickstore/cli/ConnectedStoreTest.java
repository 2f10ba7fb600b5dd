package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.remote.ServerUnavailableException;
import dev.quickstore.core.remote.TransactionConflictException;
import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The object API over a page server ({@code PersistentStore.connect}): {@code qs serve} in a real second
 * process, this JVM and further client processes on the same store over real sockets. Objects created by one
 * client (growing the store past the pages it had at connect) are seen by another; two clients' concurrent
 * updates of one object all count (conflicts retried); a conflict is detected, not lost; every acknowledged
 * commit survives a SIGKILL of the server; a client of a dead server gets {@link ServerUnavailableException}.
 */
class ConnectedStoreTest {
    static final int CHAIN = 2_000;
    static final int BUMPS = 400;

    @TempDir
    Path dir;

    /** (count, sum of ids) of the chain from {@code g}. */
    static long[] walk(Gadget g) {
        long n = 0;
        long sum = 0;
        for (Gadget x = g; x != null; x = x.next()) {
            if (!("gadget-" + x.id()).equals(x.name())) {
                throw new AssertionError("gadget " + x.id() + " is named " + x.name());
            }
            n++;
            sum += x.id();
        }
        return new long[] {n, sum};
    }

    private static final java.util.Map<ChildJvm.Running, String> URIS = new java.util.concurrent.ConcurrentHashMap<>();

    private static ChildJvm.Running serve(Path dir, Path db, String cc) throws Exception {
        ChildJvm.Running server = ChildJvm.main(Qs.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args("serve", db.toString(), "--listen", "127.0.0.1:0", "--cc", cc)
                .timeout(Duration.ofSeconds(240))
                .start();
        String line = server.nextLine(Duration.ofSeconds(60));
        if (line == null || !line.startsWith("listening qs://127.0.0.1:")) {
            server.kill();
            fail("qs serve said " + line + "; " + server.describe());
        }
        URIS.put(server, line.split(" ")[1]);
        return server;
    }

    private static String uriOf(ChildJvm.Running server) {
        return URIS.get(server);
    }

    private ChildJvm.Result client(String uri, Path secret, String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = uri;
        all[1] = secret.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        ChildJvm.Result r = ChildJvm.main(GadgetClient.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args(all)
                .timeout(Duration.ofSeconds(180))
                .run();
        assertEquals(0, r.exitCode(), r.describe());
        return r;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"optimistic", "locking"})
    void objectsCommittedByOneClientProcessAreSeenByAnotherAndSurviveAServerKill(String cc) throws Exception {
        boolean locking = cc.equals("locking");
        Path db = dir.resolve("db");
        try (PersistentStore local = PersistentStore.create(db, Gadget.class);
                ObjectTransaction tx = local.begin()) {
            Gadget c = tx.create(Gadget.class);
            c.name("counter");
            tx.root("counter", c);
            tx.commit();
        }
        Path secret = db.resolve("server.secret");
        long expectedSum = (long) CHAIN * (CHAIN - 1) / 2;
        String uri;
        ChildJvm.Running server = serve(dir, db, cc);
        try {
            uri = uriOf(server);
            try (PersistentStore remote = PersistentStore.connect(uri, secret, Gadget.class)) {
                long pagesAtConnect = remote.storageManager().pageCount();
                try (ObjectTransaction tx = remote.begin()) {
                    Gadget next = null;
                    for (int i = CHAIN - 1; i >= 0; i--) {
                        Gadget g = tx.create(Gadget.class, next);
                        g.id(i);
                        g.name("gadget-" + i);
                        g.weight(i * 0.5);
                        g.next(next);
                        next = g;
                    }
                    tx.root("head", next);
                    tx.commit();
                }
                assertTrue(
                        remote.storageManager().pageCount() > pagesAtConnect,
                        "the chain grew the store past the " + pagesAtConnect + " pages it had at connect");
                try (ObjectTransaction tx = remote.begin()) {
                    long[] cs = walk(tx.root("head", Gadget.class));
                    assertEquals(CHAIN, cs[0]);
                    assertEquals(expectedSum, cs[1]);
                    tx.commit();
                }

                // another process sees every object, on pages that did not exist when this one connected
                ChildJvm.Result w = client(uri, secret, "walk");
                assertTrue(w.stdout().contains("count " + CHAIN + " sum " + expectedSum), w.describe());

                // a conflict is detected: this transaction read the counter before another process bumped it
                // (under page locking the other process would wait for this one's shared lock instead)
                if (!locking)
                    try (ObjectTransaction tx = remote.begin()) {
                        Gadget c = tx.root("counter", Gadget.class);
                        int before = c.id();
                        assertTrue(client(uri, secret, "bump", "1").stdout().contains("bumped 1"));
                        c.id(before + 100);
                        TransactionConflictException e = assertThrows(TransactionConflictException.class, tx::commit);
                        assertTrue(e.getMessage().contains("page"), e.getMessage());
                        assertTrue(!tx.isActive());
                    }

                // concurrent updates of one object by two processes, started together: none lost
                int mine = BUMPS;
                int theirs = BUMPS;
                Path go = dir.resolve("go");
                try (ChildJvm.Running other = ChildJvm.main(GadgetClient.class)
                        .workDir(dir)
                        .jvmArgs("-Xmx256m")
                        .args(uri, secret.toString(), "bump", "" + theirs, go.toString())
                        .timeout(Duration.ofSeconds(180))
                        .start()) {
                    String ready = other.nextLine(Duration.ofSeconds(60));
                    assertEquals("ready", ready, other.describe());
                    java.nio.file.Files.createFile(go);
                    int conflicts = GadgetClient.bump(remote, mine);
                    String result = other.nextLine(Duration.ofSeconds(120));
                    assertTrue(result != null && result.startsWith("bumped " + theirs), result + other.describe());
                    System.out.println(cc + ": concurrent bumps: this client " + mine + " with " + conflicts
                            + " conflicts; the other process " + result);
                }
                int expectedCounter = (locking ? 0 : 1) + mine + theirs;
                assertEquals(expectedCounter, readCounter(remote));

                // the server dies: this client learns it at its next transaction, and nothing acknowledged is lost
                server.kill();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                ServerUnavailableException gone = null;
                while (gone == null && System.nanoTime() < deadline) {
                    try (ObjectTransaction tx = remote.begin()) {
                        tx.root("counter", Gadget.class).id();
                        tx.commit();
                        Thread.sleep(20);
                    } catch (ServerUnavailableException e) {
                        gone = e;
                    }
                }
                assertTrue(gone != null, "no ServerUnavailableException within 10 s of the server's SIGKILL");
                assertTrue(gone.getMessage().contains("unavailable"), gone.getMessage());
            }
        } catch (Throwable t) {
            server.kill();
            t.addSuppressed(new AssertionError("the server's stderr: " + server.stderr()));
            throw t;
        } finally {
            server.close();
        }

        ChildJvm.Running again = serve(dir, db, cc);
        try {
            String uri2 = uriOf(again);
            try (PersistentStore remote = PersistentStore.connect(uri2, secret, Gadget.class)) {
                assertEquals((locking ? 0 : 1) + 2 * BUMPS, readCounter(remote));
                try (ObjectTransaction tx = remote.begin()) {
                    long[] cs = walk(tx.root("head", Gadget.class));
                    assertEquals(CHAIN, cs[0]);
                    assertEquals(expectedSum, cs[1]);
                    tx.commit();
                }
                assertTrue(remote.storageManager().verify().ok(), "the server's store verifies");
            }
            again.terminate();
        } finally {
            again.close();
        }
        try (PersistentStore local = PersistentStore.open(db, Gadget.class)) {
            assertTrue(local.storageManager().verify().ok());
            try (ObjectTransaction tx = local.begin()) {
                assertEquals(CHAIN, walk(tx.root("head", Gadget.class))[0]);
            }
        }
    }

    private static int readCounter(PersistentStore db) {
        for (int attempt = 0; ; attempt++) {
            try (ObjectTransaction tx = db.begin()) {
                int v = tx.root("counter", Gadget.class).id();
                tx.commit(); // validates the read: a stale cached page would conflict here
                return v;
            } catch (TransactionConflictException e) {
                if (attempt > 20) {
                    throw e;
                }
            }
        }
    }
}
