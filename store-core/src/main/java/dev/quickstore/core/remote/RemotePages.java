package dev.quickstore.core.remote;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.FaultRefusedException;
import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.PageServerSocket;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A client's mapped view of a page server's store (QuickStore on ESM, White and DeWitt 1994 section 1 and
 * 4.4): the arena is mapped at the store's preferred base, every frame is reserved with a page-server source,
 * and a plain load from a page that is not resident faults it in from the server, entirely in C over the
 * connection (qs_socket.c; design notes section 11) - the handler never calls Java and never waits without a
 * deadline. Pages stay cached across {@link #read} calls until this view is closed.
 *
 * <p>What this class is today: the read path of the client. The connection is opened and authenticated here
 * ({@link SessionFrame}: HELLO, CHALLENGE, PROOF, WELCOME) and handed to the arena. Writes, commits and
 * cache invalidations (issue 12's optimistic protocol) attach to it next.
 *
 * <p>Failure: when the server dies or stops answering within the timeout, the faults in flight are refused
 * (they read zeros on a scratch page, never a stale or partial page) and the {@link #read} that made them
 * throws {@link ServerUnavailableException}; the view stays unusable and the client connects again.
 */
public final class RemotePages implements AutoCloseable {
    /** The default port of {@code qs serve}. */
    public static final int DEFAULT_PORT = 7420;

    private final InetSocketAddress server;
    private final Challenge store;
    private final long sessionId;
    private final MappedArena arena;
    private final int source;
    private final int timeoutMs;

    private RemotePages(
            InetSocketAddress server, Challenge store, long sessionId, MappedArena arena, int source, int timeoutMs) {
        this.server = server;
        this.store = store;
        this.sessionId = sessionId;
        this.arena = arena;
        this.source = source;
        this.timeoutMs = timeoutMs;
    }

    /**
     * Connects to the page server at {@code uri} ({@code qs://host:port}, port {@value #DEFAULT_PORT} if
     * omitted), proves knowledge of the store's secret, and maps its pages.
     *
     * @param secretFile a copy of the store's {@value ServerSecret#FILE} (mode 0600)
     * @param timeoutMs the deadline of every request, the handshake's and each page fault's
     * @throws ServerUnavailableException if the server cannot be reached or refuses the client
     */
    public static RemotePages connect(String uri, Path secretFile, int timeoutMs) throws IOException {
        InetSocketAddress address = parse(uri);
        ServerSecret secret = ServerSecret.read(secretFile);
        PageServerSocket socket;
        try {
            socket = PageServerSocket.dial(address, timeoutMs);
        } catch (IOException e) {
            throw new ServerUnavailableException(e.getMessage(), e);
        }
        try {
            send(socket, new SessionFrame(SessionFrame.HELLO, 0, hello()), timeoutMs);
            SessionFrame c = receive(socket, timeoutMs);
            if (c.type() != SessionFrame.CHALLENGE) {
                throw unexpected(address, c, "CHALLENGE");
            }
            Challenge challenge = Challenge.decode(c.payload());
            send(socket, new SessionFrame(SessionFrame.PROOF, 0, secret.proof(challenge.nonce())), timeoutMs);
            SessionFrame w = receive(socket, timeoutMs);
            if (w.type() != SessionFrame.WELCOME) {
                throw unexpected(address, w, "WELCOME");
            }
            long pages = challenge.pageCount();
            long bytes = Math.max(pages, 1) * challenge.pageSize();
            MappedArena a = MappedArena.open(bytes, challenge.pageSize(), challenge.arenaBase());
            try {
                int src = a.addSocketSource(socket, timeoutMs);
                a.reserve(0, pages, src, 0);
                return new RemotePages(address, challenge, w.sessionId(), a, src, timeoutMs);
            } catch (RuntimeException e) {
                a.close();
                throw e;
            }
        } catch (SessionFrame.ProtocolException e) {
            throw new ServerUnavailableException(
                    "page server " + uri + " broke the session protocol: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new ServerUnavailableException("page server " + uri + ": " + e.getMessage(), e);
        } finally {
            socket.close(); // no-op once handed to the arena
        }
    }

    /** {@code qs://host[:port]} as an address; the host must resolve to IPv4. */
    public static InetSocketAddress parse(String uri) throws IOException {
        URI u;
        try {
            u = URI.create(uri);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("page server address " + uri + " is not a URI: expected qs://host:port");
        }
        if (!"qs".equals(u.getScheme()) || u.getHost() == null) {
            throw new IllegalArgumentException("page server address " + uri + ": expected qs://host:port");
        }
        InetAddress host = null;
        for (InetAddress a : InetAddress.getAllByName(u.getHost())) {
            if (a instanceof java.net.Inet4Address) {
                host = a;
                break;
            }
        }
        if (host == null) {
            throw new IOException("page server host " + u.getHost() + " has no IPv4 address");
        }
        return new InetSocketAddress(host, u.getPort() < 0 ? DEFAULT_PORT : u.getPort());
    }

    private static byte[] hello() {
        byte[] name = ("quickstore-client pid " + ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(6 + name.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) ProcessHandle.current().pid())
                .putShort((short) name.length)
                .put(name);
        return b.array();
    }

    private static void send(PageServerSocket s, SessionFrame f, int timeoutMs) throws IOException {
        s.send(f.encode(), timeoutMs);
    }

    private static SessionFrame receive(PageServerSocket s, int timeoutMs) throws IOException {
        byte[] header = s.receive(SessionFrame.HEADER, timeoutMs);
        int len = SessionFrame.payloadLength(header);
        return SessionFrame.decode(header, s.receive(len, timeoutMs));
    }

    private static IOException unexpected(InetSocketAddress server, SessionFrame f, String expected) {
        if (f.type() == SessionFrame.REFUSED) {
            throw new ServerUnavailableException(
                    "page server " + server + " refused the client: " + new String(f.payload(), StandardCharsets.UTF_8),
                    null);
        }
        return new SessionFrame.ProtocolException("frame type " + f.type() + ", expected " + expected);
    }

    /**
     * Runs {@code work}, which reads pages through {@link #view()}, as one read of the cached store: faults
     * are allowed while it runs, and a fault the data plane refused surfaces here as {@link
     * ServerUnavailableException} (the server is gone or late) or as the {@link FaultRefusedException}
     * (anything else, such as a checksum mismatch).
     */
    public synchronized <T> T read(Supplier<T> work) {
        if (arena.sourceBroken(source)) {
            throw unavailable(null);
        }
        arena.transaction(true);
        T result;
        try {
            result = work.get();
        } finally {
            arena.transaction(false);
        }
        try {
            arena.refusals().checkPending();
        } catch (FaultRefusedException e) {
            arena.repairRefused(0, store.pageCount());
            if (arena.sourceBroken(source)) {
                throw unavailable(e);
            }
            throw new StoreException("a fault on the page server's store was refused: " + e.getMessage(), e);
        }
        return result;
    }

    private ServerUnavailableException unavailable(Throwable cause) {
        return new ServerUnavailableException(
                "page server " + server.getAddress().getHostAddress() + ":" + server.getPort()
                        + " is unavailable (it closed the connection or did not answer within " + timeoutMs
                        + " ms); the faults in flight were refused - connect again",
                cause);
    }

    /**
     * The store's volume header, read from page 0 through the view (a real fault served by the server the
     * first time) and validated.
     */
    public dev.quickstore.core.volume.VolumeHeader header() {
        byte[] page0 =
                read(() -> arena.view().asSlice(0, store.pageSize()).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        return dev.quickstore.core.volume.VolumeHeader.decode(
                "qs://" + server.getAddress().getHostAddress() + ":" + server.getPort() + " page 0", page0);
    }

    /** The arena: the page at store address {@code a} is at offset {@code a - arenaBase()} of this view. */
    public MemorySegment view() {
        return arena.view();
    }

    /** The address of page 0's first byte in this process. */
    public long arenaBase() {
        return arena.base();
    }

    /** Whether the arena sits at the store's preferred base (then store addresses are valid as they are). */
    public boolean atPreferredBase() {
        return arena.atPreferredBase();
    }

    public int pageSize() {
        return store.pageSize();
    }

    /** The server's page count when this client connected. */
    public long pageCount() {
        return store.pageCount();
    }

    public UUID storeId() {
        return store.storeId();
    }

    /** The session id the server gave this client. */
    public long sessionId() {
        return sessionId;
    }

    /** Whether the connection is still usable (no timeout, closed connection or protocol error seen). */
    public boolean connected() {
        return !arena.sourceBroken(source);
    }

    /** Pages resident in this client's cache. */
    public long residentPages() {
        return arena.residentFrames();
    }

    /** The fault path's counters (faults, bytes read, time in the handler). */
    public FaultCounters counters() {
        return arena.counters();
    }

    /**
     * Drops every cached page (its memory is kept for reuse): the next read of a page faults it in from the
     * server again. Returns how many pages were dropped.
     */
    public synchronized long dropCache() {
        return arena.evict(0, store.pageCount(), false, true);
    }

    /** Unmaps the cache and closes the connection. */
    @Override
    public void close() {
        arena.close();
    }
}
