package dev.quickstore.core.remote;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A client's control connection to the page server (Java, never used by the fault path): the handshake that
 * opens the session, then commits and their answers, and the server's invalidations, which a reader thread
 * collects as they come (a client applies them when its next transaction begins). Frames: {@link
 * SessionFrame}, {@link CommitMessages}. A heartbeat thread sends a HEARTBEAT every third of the lease the
 * server announced in WELCOME: a client that stops (killed, stopped, cut off) loses its session and its
 * callbacks after one lease.
 */
final class ControlConnection implements AutoCloseable {
    private final InetSocketAddress server;
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;
    private final long session;
    private final Challenge challenge;
    private final LinkedBlockingQueue<SessionFrame> answers = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<long[]> invalidations = new ConcurrentLinkedQueue<>();
    private final Thread reader;
    private final Thread heartbeat;
    private final int leaseMs;
    private volatile String broken;
    /** Whether the server runs page locking (strict 2PL from the fault path) instead of validation. */
    boolean locking;

    private ControlConnection(
            InetSocketAddress server, Socket socket, DataInputStream in, long session, Challenge challenge, int leaseMs)
            throws IOException {
        this.server = server;
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = in;
        this.session = session;
        this.challenge = challenge;
        this.leaseMs = leaseMs;
        this.reader = Thread.ofPlatform()
                .daemon()
                .name("qs-remote-control-" + session)
                .start(this::readLoop);
        this.heartbeat = Thread.ofPlatform()
                .daemon()
                .name("qs-remote-heartbeat-" + session)
                .start(this::heartbeatLoop);
    }

    /** One HEARTBEAT per third of the lease, so that a live client never loses its session. */
    private void heartbeatLoop() {
        byte[] beat = new SessionFrame(SessionFrame.HEARTBEAT, session, new byte[0]).encode();
        try {
            while (!socket.isClosed()) {
                Thread.sleep(Math.max(leaseMs / 3, 10));
                synchronized (out) {
                    out.write(beat);
                    out.flush();
                }
            }
        } catch (InterruptedException | IOException e) {
            // closed: the reader thread reports why
        }
    }

    /** Connects, authenticates and opens a session. */
    static ControlConnection open(InetSocketAddress server, ServerSecret secret, int timeoutMs) throws IOException {
        Socket s = new Socket();
        boolean ok = false;
        try {
            try {
                s.connect(server, timeoutMs);
            } catch (java.net.ConnectException e) {
                throw new java.net.ConnectException(
                        "connecting page server " + server.getAddress().getHostAddress() + ":" + server.getPort()
                                + " failed: connection refused (is `qs serve` running?)");
            }
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMs);
            OutputStream o = s.getOutputStream();
            DataInputStream i = new DataInputStream(s.getInputStream());
            Hello hello = new Hello(
                    (int) ProcessHandle.current().pid(),
                    Hello.CONTROL,
                    0,
                    "quickstore-client pid " + ProcessHandle.current().pid());
            o.write(new SessionFrame(SessionFrame.HELLO, 0, hello.encode()).encode());
            SessionFrame c = read(i);
            expect(server, c, SessionFrame.CHALLENGE);
            Challenge challenge = Challenge.decode(c.payload());
            o.write(new SessionFrame(SessionFrame.PROOF, 0, secret.proof(challenge.nonce())).encode());
            SessionFrame w = read(i);
            expect(server, w, SessionFrame.WELCOME);
            s.setSoTimeout(0); // the reader thread waits for invalidations as long as the session lasts
            if (w.payload().length != 5) {
                throw new SessionFrame.ProtocolException(
                        "WELCOME payload of " + w.payload().length + " bytes, expected 5");
            }
            int lease = java.nio.ByteBuffer.wrap(w.payload())
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .getInt();
            if (lease < 30) {
                throw new SessionFrame.ProtocolException("WELCOME lease of " + lease + " ms");
            }
            int cc = w.payload()[4];
            if (cc != 0 && cc != 1) {
                throw new SessionFrame.ProtocolException("WELCOME concurrency control " + cc + ", expected 0 or 1");
            }
            ControlConnection conn = new ControlConnection(server, s, i, w.sessionId(), challenge, lease);
            conn.locking = cc == 1;
            ok = true;
            return conn;
        } finally {
            if (!ok) {
                s.close();
            }
        }
    }

    static SessionFrame read(DataInputStream in) throws IOException {
        byte[] header = new byte[SessionFrame.HEADER];
        in.readFully(header);
        byte[] payload = new byte[SessionFrame.payloadLength(header)];
        in.readFully(payload);
        return SessionFrame.decode(header, payload);
    }

    /** Throws unless {@code f} is of {@code type}: a REFUSED frame's reason becomes the message. */
    static void expect(InetSocketAddress server, SessionFrame f, int type) throws IOException {
        if (f.type() == SessionFrame.REFUSED) {
            throw new ServerUnavailableException(
                    "page server " + server.getAddress().getHostAddress() + ":" + server.getPort()
                            + " refused the client: " + new String(f.payload(), StandardCharsets.UTF_8),
                    null);
        }
        if (f.type() != type) {
            throw new SessionFrame.ProtocolException("frame type " + f.type() + ", expected " + type);
        }
    }

    private void readLoop() {
        try {
            while (!socket.isClosed()) {
                SessionFrame f = read(in);
                if (f.type() == SessionFrame.INVALIDATE) {
                    invalidations.add(CommitMessages.decodeInvalidate(f.payload()));
                } else {
                    answers.add(f);
                }
            }
        } catch (IOException e) {
            broken = e instanceof java.io.EOFException ? "the server closed the connection" : e.toString();
            answers.add(new SessionFrame(SessionFrame.REFUSED, 0, broken.getBytes(StandardCharsets.UTF_8)));
        }
    }

    long session() {
        return session;
    }

    Challenge challenge() {
        return challenge;
    }

    /** Why the connection broke, or null. */
    String broken() {
        return broken;
    }

    /** Sends a frame and waits up to {@code timeoutMs} for the answer (COMMITTED, CONFLICT or REFUSED). */
    synchronized SessionFrame call(SessionFrame request, int timeoutMs) throws IOException {
        if (broken != null) {
            throw new IOException(broken);
        }
        synchronized (out) {
            out.write(request.encode());
            out.flush();
        }
        try {
            SessionFrame answer = answers.poll(timeoutMs, TimeUnit.MILLISECONDS);
            if (answer == null) {
                broken = "no answer within " + timeoutMs + " ms";
                socket.close();
                throw new java.net.SocketTimeoutException(broken);
            }
            return answer;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for the page server");
        }
    }

    /** The pages invalidated since the last call. */
    long[] takeInvalidations() {
        long[] all = new long[0];
        for (long[] p = invalidations.poll(); p != null; p = invalidations.poll()) {
            long[] merged = java.util.Arrays.copyOf(all, all.length + p.length);
            System.arraycopy(p, 0, merged, all.length, p.length);
            all = merged;
        }
        return all;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing to do
        }
        heartbeat.interrupt();
        try {
            reader.join(5000);
            heartbeat.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
