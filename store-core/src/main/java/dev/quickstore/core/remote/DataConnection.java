package dev.quickstore.core.remote;

import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.PageServerSocket;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A client's data connection to the page server (White and DeWitt 1994, section 4.4: the client's page faults are
 * served over its own connection): it joins the session the {@link ControlConnection} opened, authenticated the
 * same way ({@link SessionFrame}: HELLO with {@link Hello#DATA}, CHALLENGE, PROOF, WELCOME), and is then handed to
 * the arena as the page source of every frame, so that a fault is served in C over it (qs_socket.c; design notes
 * section 11). {@link RemotePages} owns the result.
 *
 * @param store the server's challenge (page size, page count, preferred base, store id)
 * @param sessionId the session the server welcomed the connection into (the control connection's)
 * @param arena the mapped arena, its frames [0, pages) reserved with {@code source}
 * @param source the arena's page source for this connection
 * @param pages the store's pages at connect
 */
record DataConnection(Challenge store, long sessionId, MappedArena arena, int source, long pages) {
    /**
     * Dials the data connection, joins the control connection's session (HELLO, CHALLENGE, PROOF, WELCOME) and
     * maps an arena of at least the store's pages (or {@code arenaBytes}) whose frames are reserved with this
     * connection as their page source; a failure closes what was opened.
     */
    static DataConnection open(
            String uri,
            InetSocketAddress address,
            ServerSecret secret,
            int timeoutMs,
            ControlConnection control,
            long arenaBytes)
            throws IOException {
        PageServerSocket socket;
        try {
            socket = PageServerSocket.dial(address, timeoutMs);
        } catch (IOException e) {
            throw new ServerUnavailableException(e.getMessage(), e);
        }
        try {
            Hello hello = new Hello(
                    (int) ProcessHandle.current().pid(),
                    Hello.DATA,
                    control.session(),
                    "quickstore-client pid " + ProcessHandle.current().pid());
            send(socket, new SessionFrame(SessionFrame.HELLO, 0, hello.encode()), timeoutMs);
            SessionFrame c = receive(socket, timeoutMs);
            ControlConnection.expect(address, c, SessionFrame.CHALLENGE);
            Challenge challenge = Challenge.decode(c.payload());
            send(socket, new SessionFrame(SessionFrame.PROOF, 0, secret.proof(challenge.nonce())), timeoutMs);
            SessionFrame w = receive(socket, timeoutMs);
            ControlConnection.expect(address, w, SessionFrame.WELCOME);
            if (w.sessionId() != control.session()) {
                throw new SessionFrame.ProtocolException(
                        "data connection joined session " + w.sessionId() + ", expected " + control.session());
            }
            long pages = challenge.pageCount();
            long bytes = Math.max(
                    Math.max(pages, 1) * challenge.pageSize(),
                    arenaBytes / challenge.pageSize() * challenge.pageSize());
            MappedArena a = MappedArena.open(bytes, challenge.pageSize(), challenge.arenaBase());
            try {
                int src = a.sources().addSocketSource(socket, timeoutMs);
                a.reserve(0, pages, src, 0);
                a.locking(control.locking);
                return new DataConnection(challenge, w.sessionId(), a, src, pages);
            } catch (RuntimeException e) {
                a.close();
                throw e;
            }
        } catch (IOException e) {
            throw unavailable(uri, e);
        } finally {
            socket.close(); // no-op once handed to the arena
        }
    }

    private static void send(PageServerSocket s, SessionFrame f, int timeoutMs) throws IOException {
        s.send(f.encode(), timeoutMs);
    }

    private static SessionFrame receive(PageServerSocket s, int timeoutMs) throws IOException {
        byte[] header = s.receive(SessionFrame.HEADER, timeoutMs);
        int len = SessionFrame.payloadLength(header);
        return SessionFrame.decode(header, s.receive(len, timeoutMs));
    }

    /**
     * A connection's failure as the client reports it: the server at {@code uri} broke the session protocol, or
     * could not be reached. (A {@link ServerUnavailableException} is unchecked and passes through as it is.)
     */
    static ServerUnavailableException unavailable(String uri, IOException e) {
        if (e instanceof SessionFrame.ProtocolException) {
            return new ServerUnavailableException(
                    "page server " + uri + " broke the session protocol: " + e.getMessage(), e);
        }
        return new ServerUnavailableException("page server " + uri + ": " + e.getMessage(), e);
    }
}
