package dev.quickstore.mmu;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;

/**
 * The control plane's half of a page-server connection: one stream socket opened in C ({@code
 * qs_socket_dial}), on which Java runs the handshake with {@link #send} and {@link #receive}, and which it
 * then {@linkplain PageSources#addSocketSource hands to the arena}, whose fault path sends page requests on
 * it (qs_socket.c, design notes section 11). The socket is a plain file descriptor rather than a Java
 * channel because the fault handler must use it without ever calling Java.
 *
 * <p>Every operation has a deadline; none blocks without one. Errors are {@link IOException}s naming the
 * server and the errno: {@link ConnectException} when nothing listens, {@link SocketTimeoutException} when the
 * deadline passes. Not thread-safe (one handshake on one thread); closed by {@link #close} unless handed over.
 */
public final class PageServerSocket implements AutoCloseable {
    private static final int ETIMEDOUT = 110;
    private static final int ECONNREFUSED = 111;
    private static final int ECONNRESET = 104;

    private final InetSocketAddress server;
    private int fd;

    private PageServerSocket(InetSocketAddress server, int fd) {
        this.server = server;
        this.fd = fd;
    }

    /** Connects to an IPv4 {@code server} within {@code timeoutMs}. */
    public static PageServerSocket dial(InetSocketAddress server, int timeoutMs) throws IOException {
        if (server.isUnresolved() || !(server.getAddress() instanceof Inet4Address v4)) {
            throw new IOException("page server " + server + ": only IPv4 addresses are supported");
        }
        byte[] a = v4.getAddress();
        int ip = ((a[0] & 0xff) << 24) | ((a[1] & 0xff) << 16) | ((a[2] & 0xff) << 8) | (a[3] & 0xff);
        int rc = Downcall.intValue(
                "qs_socket_dial", () -> (int) NativeCalls.SocketDial.H.invokeExact(ip, server.getPort(), timeoutMs));
        if (rc < 0) {
            throw error(server, "connecting", -rc, timeoutMs);
        }
        return new PageServerSocket(server, rc);
    }

    /** The server this socket is connected to. */
    public InetSocketAddress server() {
        return server;
    }

    /** Sends all of {@code bytes} within {@code timeoutMs}. */
    public void send(byte[] bytes, int timeoutMs) throws IOException {
        int f = open();
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment buf = tmp.allocate(Math.max(bytes.length, 1));
            MemorySegment.copy(bytes, 0, buf, ValueLayout.JAVA_BYTE, 0, bytes.length);
            int rc = Downcall.intValue("qs_socket_send", () ->
                    (int) NativeCalls.SocketSend.H.invokeExact(f, buf, (long) bytes.length, timeoutMs));
            if (rc < 0) {
                throw error(server, "sending " + bytes.length + " bytes to", -rc, timeoutMs);
            }
        }
    }

    /** Receives exactly {@code n} bytes within {@code timeoutMs}. */
    public byte[] receive(int n, int timeoutMs) throws IOException {
        int f = open();
        if (n == 0) {
            return new byte[0];
        }
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment buf = tmp.allocate(n);
            int rc = Downcall.intValue(
                    "qs_socket_recv", () -> (int) NativeCalls.SocketRecv.H.invokeExact(f, buf, (long) n, timeoutMs));
            if (rc < 0) {
                throw error(server, "receiving " + n + " bytes from", -rc, timeoutMs);
            }
            return buf.toArray(ValueLayout.JAVA_BYTE);
        }
    }

    private int open() throws IOException {
        if (fd < 0) {
            throw new IOException("page-server connection to " + server + " is closed or handed over");
        }
        return fd;
    }

    /** Gives up ownership of the descriptor (to an arena): {@link #close} no longer closes it. */
    int handOver() {
        if (fd < 0) {
            throw new IllegalStateException("page-server connection to " + server + " is closed or handed over");
        }
        int f = fd;
        fd = -1;
        return f;
    }

    static void closeFd(int f) {
        Downcall.intValue("qs_socket_close", () -> (int) NativeCalls.SocketClose.H.invokeExact(f));
    }

    @Override
    public void close() {
        if (fd >= 0) {
            closeFd(fd);
            fd = -1;
        }
    }

    private static IOException error(InetSocketAddress server, String what, int errno, int timeoutMs) {
        String base = what + " page server " + server.getAddress().getHostAddress() + ":" + server.getPort();
        return switch (errno) {
            case ECONNREFUSED -> new ConnectException(base + " failed: connection refused (is `qs serve` running?)");
            case ETIMEDOUT -> new SocketTimeoutException(base + " timed out after " + timeoutMs + " ms");
            case ECONNRESET -> new IOException(base + " failed: the server closed the connection");
            default -> new IOException(base + " failed: errno " + errno);
        };
    }
}
