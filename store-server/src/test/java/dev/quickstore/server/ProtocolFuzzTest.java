package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.remote.Challenge;
import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.Hello;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.core.remote.SessionFrame;
import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutation fuzzing of an authenticated client's frames against a real server process (issue 12: a
 * malformed, oversized or truncated frame gets an error reply or a closed connection and never crashes or
 * corrupts the server): COMMITs with flipped bytes (resealed so that they reach the decoder), truncated,
 * with counts and lengths beyond their bytes, ranges over the page header or past the page, pages past the
 * store's end; page requests with flipped bytes, wrong sizes and pages that do not exist. Every exchange must
 * end in an answer or a close within the deadline; afterwards the server still serves an honest client and
 * the store verifies with every object intact.
 */
@ExtendWith(SeedExtension.class)
class ProtocolFuzzTest {
    @TempDir
    Path dir;

    @Test
    @FixedSeed(7)
    void mutatedCommitsAndPageRequestsOfAnAuthenticatedClientNeverHurtTheServer(Seed seed) throws Exception {
        Path db = dir.resolve("db");
        byte[] payload = new byte[5000];
        new Random(1).nextBytes(payload);
        long ref;
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            ref = tx.allocate(payload.length);
            tx.write(ref, 0, payload);
            tx.setRoot("data", ref);
            tx.commit();
        }
        Path secretFile = db.resolve(ServerSecret.FILE);
        Random r = seed.random();
        int answered = 0;
        int closed = 0;
        try (ChildJvm.Running server = ChildJvm.main(PageServerMain.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args(db.toString(), "127.0.0.1:0")
                .timeout(Duration.ofSeconds(300))
                .start()) {
            String line = server.nextLine(Duration.ofSeconds(60));
            if (line == null || !line.startsWith("listening ")) {
                fail("server did not start: " + server.describe());
            }
            InetSocketAddress at =
                    new InetSocketAddress("127.0.0.1", Integer.parseInt(line.substring(line.lastIndexOf(':') + 1)));
            ServerSecret secret = ServerSecret.read(secretFile);
            int cases = 150;
            for (int i = 0; i < cases; i++) {
                try (Socket s = new Socket()) {
                    s.connect(at, 5000);
                    s.setSoTimeout(10_000);
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    boolean data = i % 3 == 2;
                    long session = handshake(s, in, secret, Hello.CONTROL, 0);
                    byte[] frame;
                    if (!data) {
                        frame = mutatedCommit(r, session);
                    } else {
                        // a data connection of the same session, then one mutated page request
                        try (Socket d = new Socket()) {
                            d.connect(at, 5000);
                            d.setSoTimeout(10_000);
                            DataInputStream din = new DataInputStream(d.getInputStream());
                            handshake(d, din, secret, Hello.DATA, session);
                            d.getOutputStream().write(mutatedPageRequest(r));
                            if (answeredOrClosed(din)) {
                                answered++;
                            } else {
                                closed++;
                            }
                        }
                        continue;
                    }
                    s.getOutputStream().write(frame);
                    if (answeredOrClosed(in)) {
                        answered++;
                    } else {
                        closed++;
                    }
                }
            }
            assertEquals(cases, answered + closed);
            assertTrue(
                    answered > 0 && closed > 0,
                    "both outcomes occurred: " + answered + " answers, " + closed + " closes");
            assertTrue(server.alive(), server.describe());
            server.terminate();
            assertEquals(143, server.exitCode(), server.describe());
        }
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            assertTrue(s.verify().ok(), "the store verifies after the fuzzing");
            byte[] back = new byte[payload.length];
            tx.read(tx.root("data"), 0, back, 0, back.length);
            assertArrayEquals(payload, back, "the object is intact");
            tx.commit();
        }
        System.out.println(
                "ProtocolFuzzTest: " + answered + " mutated frames answered, " + closed + " ended with a close");
    }

    /** HELLO, CHALLENGE, PROOF, WELCOME; returns the session id. */
    private static long handshake(Socket s, DataInputStream in, ServerSecret secret, int role, long session)
            throws IOException {
        Hello h = new Hello(1, role, session, "fuzz");
        s.getOutputStream().write(new SessionFrame(SessionFrame.HELLO, 0, h.encode()).encode());
        SessionFrame c = read(in);
        assertEquals(SessionFrame.CHALLENGE, c.type());
        byte[] nonce = Challenge.decode(c.payload()).nonce();
        s.getOutputStream().write(new SessionFrame(SessionFrame.PROOF, 0, secret.proof(nonce)).encode());
        SessionFrame w = read(in);
        assertEquals(SessionFrame.WELCOME, w.type(), new String(w.payload()));
        return w.sessionId();
    }

    private static SessionFrame read(DataInputStream in) throws IOException {
        byte[] header = new byte[SessionFrame.HEADER];
        in.readFully(header);
        byte[] payload = new byte[SessionFrame.payloadLength(header)];
        in.readFully(payload);
        return SessionFrame.decode(header, payload);
    }

    /** True if a frame came back (an answer or REFUSED), false if the server closed; fails on a hang. */
    private static boolean answeredOrClosed(DataInputStream in) throws IOException {
        try {
            byte[] header = new byte[32];
            in.readFully(header);
            return true;
        } catch (EOFException | SocketException e) {
            return false;
        } catch (SocketTimeoutException e) {
            fail("the server neither answered nor closed within 10 s");
            return false;
        }
    }

    /** A structurally valid COMMIT (read at LSN 1, which no page has: validation refuses it), then mutated. */
    private static byte[] mutatedCommit(Random r, long session) {
        int page = 1 + r.nextInt(4);
        CommitMessages.Commit c = new CommitMessages.Commit(
                r.nextLong(),
                List.of(new CommitMessages.PageVersion(r.nextInt(6), 1)),
                List.of(new CommitMessages.PageWrite(
                        page, 1, new int[] {64 + r.nextInt(4000)}, new byte[][] {randomBytes(r, 1 + r.nextInt(64))})));
        byte[] p = CommitMessages.encodeCommit(c);
        switch (r.nextInt(7)) {
            case 0 -> p[r.nextInt(p.length)] ^= (byte) (1 << r.nextInt(8)); // one bit
            case 1 -> p = java.util.Arrays.copyOf(p, r.nextInt(p.length)); // truncated
            case 2 -> ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).putInt(8, Integer.MAX_VALUE); // reads count
            case 3 -> ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).putInt(52, r.nextInt(24)); // range over header
            case 4 -> ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).putLong(32, 1L << 40); // page past the end
            case 5 -> ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).putInt(56, -1); // range length
            default -> {
                for (int k = 0; k < 8; k++) {
                    p[r.nextInt(p.length)] = (byte) r.nextInt();
                }
            }
        }
        return new SessionFrame(SessionFrame.COMMIT, session, p).encode();
    }

    private static byte[] mutatedPageRequest(Random r) {
        byte[] h = new byte[32];
        ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, PageWire.REQUEST_MAGIC).put(4, (byte) 1).put(5, (byte) 1).putLong(8, r.nextLong());
        b.putLong(16, r.nextBoolean() ? r.nextInt(8) : r.nextLong()).putInt(24, r.nextBoolean() ? 8192 : r.nextInt());
        CRC32C crc = new CRC32C();
        crc.update(h, 0, 28);
        b.putInt(28, (int) crc.getValue());
        if (r.nextInt(3) == 0) {
            h[r.nextInt(32)] ^= (byte) (1 << r.nextInt(8));
        }
        return h;
    }

    private static byte[] randomBytes(Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }
}
