package dev.quickstore.core.remote;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;

/** A page server's address as the client names it: {@code qs://host[:port]}, the port {@value #DEFAULT_PORT} if omitted. */
final class ServerAddress {
    /** The default port of {@code qs serve}. */
    static final int DEFAULT_PORT = 7420;

    private ServerAddress() {}

    /** {@code qs://host[:port]} as an address; the host must resolve to IPv4. */
    static InetSocketAddress parse(String uri) throws IOException {
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
}
