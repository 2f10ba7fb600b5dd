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
            "fault and abort the transaction).",
            "",
            "Replicated (--replicas, --id): DIR is one replica of a Raft group (Apache Ratis) of 3 or 5 page servers.",
            "Create the store once, copy DIR (with its server.secret) to every replica, then start each with the",
            "same --replicas list (every member's client address; its Raft port is the next port) and its own --id.",
            "A commit is acknowledged only once a majority has it on disk; only the leader accepts clients (the",
            "others refuse them naming the leader). Optimistic concurrency control only. See docs/replication.md."
        },
        footer = {
            "",
            "Examples:",
            "  qs serve ./db",
            "  qs serve ./db --listen 127.0.0.1:0     (any free port)",
            "  qs serve ./db --cc locking --lock-wait 500",
            "  qs serve ./r1 --replicas 127.0.0.1:7420,127.0.0.1:7430,127.0.0.1:7440 --id 1"
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

    @Option(
            names = "--replicas",
            paramLabel = "HOST:PORT,...",
            description = "serve as one replica of this Raft group: every member's client address, in the same order"
                    + " on every member (its Raft port is the next port); --listen is then this member's address")
    String replicas;

    @Option(
            names = "--id",
            paramLabel = "N",
            defaultValue = "0",
            description = "with --replicas: this replica's position in the list, 1-based")
    int id;

    @Option(
            names = "--group",
            paramLabel = "NAME",
            defaultValue = dev.quickstore.replication.ReplicaGroup.DEFAULT_NAME,
            description = "with --replicas: the group's name (default: ${DEFAULT-VALUE}); every member and qs cluster"
                    + " must use the same")
    String group;

    @Option(
            names = "--checkpoint-every",
            paramLabel = "N",
            defaultValue = "1000",
            description = "with --replicas: the leader adds a CHECKPOINT entry (every replica snapshots its store)"
                    + " every N commits (default: ${DEFAULT-VALUE})")
    int checkpointEvery;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (replicas != null) {
            return replica();
        }
        if (id != 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--id needs --replicas");
        }
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

    private Integer replica() throws Exception {
        dev.quickstore.replication.ReplicaGroup g;
        try {
            g = dev.quickstore.replication.ReplicaGroup.parse(replicas, group);
            g.member(id);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--replicas/--id: " + e.getMessage());
        }
        if (cc == Cc.locking) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--cc locking: a replicated server runs optimistic concurrency control only");
        }
        if (leaseMs < 30) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--lease " + leaseMs + ": at least 30 ms");
        }
        if (checkpointEvery < 1) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--checkpoint-every " + checkpointEvery + ": at least 1");
        }
        var d = dev.quickstore.replication.ReplicaServer.Options.defaults();
        var server = dev.quickstore.replication.ReplicaServer.start(
                store.path(),
                g,
                id,
                new dev.quickstore.replication.ReplicaServer.Options(
                        leaseMs,
                        checkpointEvery,
                        d.requestTimeoutMs(),
                        d.electionMinMs(),
                        d.purgeUptoSnapshot(),
                        d.logSegmentBytes(),
                        d.snapshotChunkBytes()),
                System.err);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("qs serve: stopping failed: " + e);
            }
        }));
        PrintWriter out = spec.commandLine().getOut();
        out.println("listening " + server.uri() + " (replica " + id + " of group " + group + ", "
                + g.members().size() + " replicas; clients authenticate with a copy of "
                + store.path().resolve(ServerSecret.FILE) + ")");
        out.flush();
        server.awaitClose();
        return ExitCodes.OK;
    }
}
