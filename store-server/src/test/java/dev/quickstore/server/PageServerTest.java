package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.core.remote.ServerUnavailableException;
import dev.quickstore.core.remote.SessionFrame;
import dev.quickstore.testkit.ChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page server as a real second process on loopback, and this JVM as its client: every fault of the client
 * is served in C over a real socket by the server process (qs_socket.c against {@link SessionHandler}).
 */
class PageServerTest {
    private static final int TIMEOUT_MS = 3000;

    @TempDir
    Path dir;

    /** The port of the server {@link #startServer} started last. */
    private int lastPort;

    /** Builds a store of {@code n} objects of seeded random bytes; returns arena offset to bytes. */
    private static Map<Long, byte[]> build(Path db, int n, long seed) throws IOException {
        Map<Long, byte[]> objects = new LinkedHashMap<>();
        Random r = new Random(seed);
        try (Store s = Store.create(db)) {
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < n; i++) {
                    byte[] b = new byte[200 + r.nextInt(1500)];
                    r.nextBytes(b);
                    long ref = tx.allocate(b.length);
                    tx.write(ref, 0, b);
                    objects.put(ref - s.arenaBase(), b);
                }
                tx.commit();
            }
        }
        return objects;
    }

    private ChildJvm.Running startServer(Path db) throws Exception {
        ChildJvm.Running server = ChildJvm.main(PageServerMain.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args(db.toString(), "127.0.0.1:0")
                .timeout(Duration.ofSeconds(240))
                .start();
        String line = server.nextLine(Duration.ofSeconds(60));
        if (line == null || !line.startsWith("listening qs://127.0.0.1:")) {
            server.kill();
            fail("server did not start: " + line + "; " + server.describe());
        }
        lastPort = Integer.parseInt(line.substring(line.lastIndexOf(':') + 1));
        return server;
    }

    private static String uri(String listening) {
        return listening.substring("listening ".length());
    }

    @Test
    void aClientFaultsEveryPageInFromTheServerProcess() throws Exception {
        Path db = dir.resolve("db");
        Map<Long, byte[]> objects = build(db, 400, 11);
        try (ChildJvm.Running server = ChildJvm.main(PageServerMain.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args(db.toString(), "127.0.0.1:0")
                .timeout(Duration.ofSeconds(240))
                .start()) {
            String line = server.nextLine(Duration.ofSeconds(60));
            assertTrue(line != null && line.startsWith("listening qs://127.0.0.1:"), line + " " + server.describe());
            Path secret = db.resolve(ServerSecret.FILE);
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secret)));
            assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
                try (RemotePages client = RemotePages.connect(uri(line), secret, TIMEOUT_MS)) {
                    assertEquals(0, client.residentPages());
                    MemorySegment view = client.view();
                    client.read(() -> {
                        objects.forEach((off, bytes) -> assertArrayEquals(
                                bytes,
                                view.asSlice(off, bytes.length).toArray(ValueLayout.JAVA_BYTE),
                                "object at " + off));
                        return null;
                    });
                    long afterObjects = client.counters().readFaults();
                    assertTrue(afterObjects > 0 && client.residentPages() > 0, "faults were taken: " + afterObjects);
                    // every page as the server's volume holds it (it checkpointed at start; nothing changes it)
                    byte[] file = Files.readAllBytes(db.resolve("volume.qs"));
                    int ps = client.pageSize();
                    client.read(() -> {
                        for (long p = 0; p < client.pageCount(); p++) {
                            byte[] expected = new byte[ps];
                            long from = p * ps;
                            if (from < file.length) {
                                System.arraycopy(file, (int) from, expected, 0, (int) Math.min(ps, file.length - from));
                            }
                            assertArrayEquals(
                                    expected, view.asSlice(from, ps).toArray(ValueLayout.JAVA_BYTE), "page " + p);
                        }
                        return null;
                    });
                    assertEquals(client.pageCount(), client.residentPages(), "the whole store is cached now");
                    long faults = client.counters().readFaults();
                    client.read(() -> {
                        objects.forEach((off, bytes) -> assertEquals(bytes[0], view.get(ValueLayout.JAVA_BYTE, off)));
                        return null;
                    });
                    assertEquals(faults, client.counters().readFaults(), "cached pages are not asked for again");
                }
            });
            server.terminate(); // SIGTERM: the server checkpoints and closes the store
            assertEquals(143, server.exitCode(), server.describe());
            assertTrue(server.stderr().contains("stopped ("), server.describe());
        }
    }

    @Test
    void aClientThatDoesNotKnowTheSecretIsRefusedAndGetsNoPage() throws Exception {
        Path db = dir.resolve("db");
        build(db, 10, 12);
        Path other = Files.createDirectories(dir.resolve("other"));
        ServerSecret.loadOrCreate(other);
        try (ChildJvm.Running server = startServer(db)) {
            String uri = "qs://127.0.0.1:" + lastPort;
            ServerUnavailableException e = assertThrows(
                    ServerUnavailableException.class,
                    () -> RemotePages.connect(uri, other.resolve(ServerSecret.FILE), TIMEOUT_MS)
                            .close());
            assertTrue(e.getMessage().contains("authentication failed"), e.getMessage());
            Path open = Files.writeString(dir.resolve("open.secret"), Files.readString(db.resolve(ServerSecret.FILE)));
            Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
            IOException io = assertThrows(IOException.class, () -> RemotePages.connect(uri, open, TIMEOUT_MS));
            assertTrue(io.getMessage().contains("chmod 600"), io.getMessage());
            server.kill();
            assertTrue(server.stderr().contains("wrong proof"), server.describe());
        }
    }

    @Test
    void aServerKilledMidSessionRefusesTheFaultsInFlightAndTheClientIsTold() throws Exception {
        Path db = dir.resolve("db");
        Map<Long, byte[]> objects = build(db, 400, 13);
        Path secret;
        String uri;
        ChildJvm.Running server = startServer(db);
        try {
            uri = "qs://127.0.0.1:" + lastPort;
            secret = db.resolve(ServerSecret.FILE);
            try (RemotePages client = RemotePages.connect(uri, secret, TIMEOUT_MS)) {
                MemorySegment view = client.view();
                Map.Entry<Long, byte[]> first = objects.entrySet().iterator().next();
                client.read(() -> view.get(ValueLayout.JAVA_BYTE, first.getKey()));
                server.kill(); // a real SIGKILL of the server process
                assertEquals(137, server.exitCode());
                long t0 = System.nanoTime();
                ServerUnavailableException e = assertTimeoutPreemptively(
                        Duration.ofSeconds(60),
                        () -> assertThrows(
                                ServerUnavailableException.class,
                                () -> client.read(() -> {
                                    long sum = 0;
                                    for (long off : objects.keySet()) {
                                        sum += view.get(ValueLayout.JAVA_BYTE, off); // the pages not cached yet
                                    }
                                    return sum;
                                })));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(e.getMessage().contains("is unavailable"), e.getMessage());
                assertTrue(ms < 10L * TIMEOUT_MS, "told within " + ms + " ms");
                assertTrue(!client.connected());
                assertThrows(ServerUnavailableException.class, () -> client.read(() -> 0));
            }
        } finally {
            server.close();
        }
        // the server comes back (its recovery runs at open) and a new connection reads the same store
        try (ChildJvm.Running again = startServer(db)) {
            try (RemotePages client = RemotePages.connect("qs://127.0.0.1:" + lastPort, secret, TIMEOUT_MS)) {
                MemorySegment view = client.view();
                client.read(() -> {
                    objects.forEach((off, bytes) -> assertArrayEquals(
                            bytes, view.asSlice(off, bytes.length).toArray(ValueLayout.JAVA_BYTE)));
                    return null;
                });
            }
            again.terminate();
        }
        assertTrue(uri.startsWith("qs://"));
    }

    @Test
    void malformedTruncatedOversizedAndUnauthenticatedFramesCloseTheConnectionNeverTheServer() throws Exception {
        Path db = dir.resolve("db");
        Map<Long, byte[]> objects = build(db, 50, 14);
        try (ChildJvm.Running server = startServer(db)) {
            InetSocketAddress at = new InetSocketAddress("127.0.0.1", lastPort);
            Random r = new Random(2026);
            byte[] hello = new SessionFrame(
                            SessionFrame.HELLO, 0, new dev.quickstore.core.remote.Hello(1, 0, 0, "fuzz").encode())
                    .encode();
            int closed = 0;
            int cases = 120;
            for (int i = 0; i < cases; i++) {
                byte[] frame;
                switch (i % 6) {
                    case 0 -> { // random bytes
                        frame = new byte[1 + r.nextInt(200)];
                        r.nextBytes(frame);
                    }
                    case 1 -> { // a HELLO with one bit flipped
                        frame = hello.clone();
                        int bit = r.nextInt(frame.length * 8);
                        frame[bit / 8] ^= (byte) (1 << (bit % 8));
                    }
                    case 2 -> { // a header announcing a payload beyond the bound
                        frame = hello.clone();
                        ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).putInt(24, 1 << 30);
                        reseal(frame, 0);
                    }
                    case 3 -> frame = pageRequest(r.nextLong(), r.nextInt(50)); // before authenticating
                    case 4 -> { // HELLO, then a PROOF of random bytes
                        frame = concat(hello, new SessionFrame(SessionFrame.PROOF, 0, random(r, 32)).encode());
                    }
                    default -> { // a truncated HELLO, then silence until the handshake deadline is not awaited
                        frame = java.util.Arrays.copyOf(hello, 1 + r.nextInt(hello.length - 1));
                    }
                }
                if (i % 6 == 5) {
                    try (Socket s = new Socket()) { // the server waits for the rest; the client gives up
                        s.connect(at, 5000);
                        s.getOutputStream().write(frame);
                    }
                    continue;
                }
                if (closedAfter(at, frame)) {
                    closed++;
                }
            }
            assertEquals(cases - cases / 6, closed, "every malformed or unauthenticated exchange ends in a close");
            // the server is alive and serves an honest client
            try (RemotePages client =
                    RemotePages.connect("qs://127.0.0.1:" + lastPort, db.resolve(ServerSecret.FILE), TIMEOUT_MS)) {
                MemorySegment view = client.view();
                client.read(() -> {
                    objects.forEach((off, bytes) -> assertArrayEquals(
                            bytes, view.asSlice(off, bytes.length).toArray(ValueLayout.JAVA_BYTE)));
                    return null;
                });
            }
            assertTrue(server.alive());
            server.terminate();
            assertEquals(143, server.exitCode(), server.describe());
        }
    }

    @Test
    void aClientInTheServersOwnProcessIsRefusedInsteadOfDeadlockingAtASafepoint() throws Exception {
        Path db = dir.resolve("db");
        build(db, 10, 15);
        try (PageServer server = PageServer.start(db, new InetSocketAddress("127.0.0.1", 0), System.err)) {
            ServerUnavailableException e = assertThrows(
                    ServerUnavailableException.class,
                    () -> RemotePages.connect(server.uri(), db.resolve(ServerSecret.FILE), TIMEOUT_MS)
                            .close());
            assertTrue(e.getMessage().contains("own process"), e.getMessage());
        }
    }

    /** Sends {@code frame} and reads until the server closes: true if it closed within 5 s. */
    private static boolean closedAfter(InetSocketAddress at, byte[] frame) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(at, 5000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(frame);
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            try {
                while (in.read(buf) >= 0) {
                    // a CHALLENGE or a REFUSED frame may come first
                }
                return true;
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException reset) {
                return true; // closed with unread data: a reset
            }
        }
    }

    private static byte[] pageRequest(long id, long page) {
        byte[] h = new byte[32];
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, PageWire.REQUEST_MAGIC)
                .put(4, (byte) 1)
                .put(5, (byte) 1)
                .putLong(8, id)
                .putLong(16, page);
        b.putInt(24, 8192);
        reseal(h, 0);
        return h;
    }

    private static void reseal(byte[] frame, int payload) {
        CRC32C crc = new CRC32C();
        crc.update(frame, 0, 28);
        crc.update(frame, 32, payload);
        ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).putInt(28, (int) crc.getValue());
    }

    private static byte[] random(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
