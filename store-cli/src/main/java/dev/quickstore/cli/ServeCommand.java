package dev.quickstore.cli;

import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.server.PageServer;
import dev.quickstore.server.PageServerMain;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs serve DIR [--listen HOST:PORT]}: runs a page server over a store until SIGINT or SIGTERM. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        header = "Serve a store's pages to client processes (the page server).",
        description = {
            "Open the store in DIR (running recovery if it was not closed cleanly) and serve its committed pages",
            "over TCP to client processes, whose page faults are answered by this server. Clients authenticate",
            "with the store's secret, DIR/server.secret (created here, mode 0600, if the store has none): give",
            "them a copy. Listens on loopback unless told otherwise. Prints one line on standard output once it",
            "accepts clients, then progress and errors on standard error, one line each. Stops cleanly",
            "(checkpoint, store closed) on Ctrl-C or SIGTERM.",
            "",
            "Clients run transactions (RemotePages in Java) under one of two concurrency controls: optimistic (the",
            "server validates each commit against the versions the client read, applies and logs it, and",
            "invalidates other clients' cached copies) or locking (the clients' page faults take shared and",
            "exclusive page locks at the server, held until commit or abort; deadlocks and long waits refuse the",
            "fault and abort the transaction)."
        },
        footer = {
            "",
            "Examples:",
            "  qs serve ./db",
            "  qs serve ./db --listen 127.0.0.1:0     (any free port)",
            "  qs serve ./db --cc locking --lock-wait 500"
        })
final class ServeCommand implements Callable<Integer> {
    @Mixin
    StoreDir store;

    @Option(
            names = "--listen",
            paramLabel = "HOST:PORT",
            defaultValue = "127.0.0.1:7420",
            description = "where to accept clients (default: ${DEFAULT-VALUE}; port 0 picks a free one)")
    String listen;

    @Option(
            names = "--lease",
            paramLabel = "MS",
            defaultValue = "10000",
            description = "a client that sends nothing (its heartbeats come every third of this) for MS"
                    + " milliseconds loses its session and callbacks (default: ${DEFAULT-VALUE})")
    int leaseMs;

    /** The concurrency control a server runs. */
    enum Cc {
        optimistic,
        locking
    }

    @Option(
            names = "--cc",
            paramLabel = "optimistic|locking",
            defaultValue = "optimistic",
            description = "concurrency control: optimistic (validation at commit, callbacks; the default) or locking"
                    + " (ESM-style strict two-phase page locks taken by the clients' fault paths)")
    Cc cc;

    @Option(
            names = "--lock-wait",
            paramLabel = "MS",
            defaultValue = "2000",
            description = "under --cc locking: how long a page lock may wait before the fault is refused (default:"
                    + " ${DEFAULT-VALUE}; keep it below the clients' request timeout)")
    int lockWaitMs;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        InetSocketAddress at;
        try {
            at = PageServerMain.parseListen(listen);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (leaseMs < 30) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--lease " + leaseMs + ": at least 30 ms");
        }
        if (lockWaitMs < 1) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--lock-wait " + lockWaitMs + ": at least 1 ms");
        }
        PageServer server = PageServer.start(store.path(), at, System.err, leaseMs, cc == Cc.locking, lockWaitMs);
        Thread stop = new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("qs serve: stopping failed: " + e);
            }
        });
        Runtime.getRuntime().addShutdownHook(stop);
        PrintWriter out = spec.commandLine().getOut();
        out.println("listening " + server.uri() + " (store " + store.path() + "; clients authenticate with a copy of "
                + store.path().resolve(ServerSecret.FILE) + ")");
        out.flush();
        server.awaitClose();
        return ExitCodes.OK;
    }
}
