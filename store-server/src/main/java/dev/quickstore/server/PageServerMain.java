package dev.quickstore.server;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * {@code java dev.quickstore.server.PageServerMain DIR [HOST:PORT]}: a page server process without the
 * shell (tests start it as a real second process; {@code qs serve} is the user's command). Prints {@code
 * listening qs://HOST:PORT} on standard output once it accepts clients, logs to standard error, and stops
 * cleanly (checkpoint, store closed) on SIGTERM or SIGINT. {@code -Dqs.server.leaseMs=N}: the client lease;
 * {@code -Dqs.server.cc=locking}: page locking instead of optimistic validation ({@code -Dqs.server.lockWaitMs}).
 */
public final class PageServerMain {
    private PageServerMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: PageServerMain DIR [HOST:PORT]   (default 127.0.0.1:7420)");
            System.exit(2);
        }
        InetSocketAddress listen = parseListen(args.length == 2 ? args[1] : "127.0.0.1:7420");
        PageServer server = PageServer.start(
                Path.of(args[0]),
                listen,
                System.err,
                Integer.getInteger("qs.server.leaseMs", PageServer.DEFAULT_LEASE_MS),
                "locking".equals(System.getProperty("qs.server.cc", "optimistic")),
                Integer.getInteger("qs.server.lockWaitMs", PageServer.DEFAULT_LOCK_WAIT_MS));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("qs serve: stopping failed: " + e);
            }
        }));
        System.out.println("listening " + server.uri());
        System.out.flush();
        server.awaitClose();
    }

    /**
     * {@code HOST:PORT} (port 0: ephemeral) as an address to bind.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static InetSocketAddress parseListen(String s) {
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw new IllegalArgumentException("listen address " + s + ": expected HOST:PORT, e.g. 127.0.0.1:7420");
        }
        int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "listen address " + s + ": port " + s.substring(colon + 1) + " is not a number");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("listen address " + s + ": port " + port + " outside 0..65535");
        }
        return new InetSocketAddress(s.substring(0, colon), port);
    }
}
