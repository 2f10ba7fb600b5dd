package dev.quickstore.replication;

import java.nio.file.Path;

/**
 * {@code java dev.quickstore.replication.ReplicaMain DIR HOST:PORT,HOST:PORT,... ID}: one replica process
 * without the shell (tests start replicas as real processes; {@code qs serve --replicas} is the user's command).
 * Prints {@code listening qs://HOST:PORT} on standard output once it runs, logs to standard error, stops cleanly on
 * SIGTERM. {@code -Dqs.replica.group=NAME}, {@code -Dqs.replica.checkpointEvery=N}, {@code
 * -Dqs.server.leaseMs=N}, {@code -Dqs.replica.requestTimeoutMs=N}, {@code -Dqs.replica.electionMinMs=N}, {@code -Dqs.replica.purgeUptoSnapshot=true}, {@code
 * -Dqs.replica.logSegmentBytes=N}, {@code -Dqs.replica.snapshotChunkBytes=N}.
 */
public final class ReplicaMain {
    private ReplicaMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: ReplicaMain DIR HOST:PORT,HOST:PORT,... ID");
            System.exit(2);
        }
        ReplicaServer.Options d = ReplicaServer.Options.defaults();
        ReplicaServer.Options o = new ReplicaServer.Options(
                Integer.getInteger("qs.server.leaseMs", d.leaseMs()),
                Integer.getInteger("qs.replica.checkpointEvery", d.checkpointEvery()),
                Integer.getInteger("qs.replica.requestTimeoutMs", d.requestTimeoutMs()),
                Integer.getInteger("qs.replica.electionMinMs", d.electionMinMs()),
                Boolean.getBoolean("qs.replica.purgeUptoSnapshot"),
                Long.getLong("qs.replica.logSegmentBytes", d.logSegmentBytes()),
                Integer.getInteger("qs.replica.snapshotChunkBytes", d.snapshotChunkBytes()));
        ReplicaGroup group =
                ReplicaGroup.parse(args[1], System.getProperty("qs.replica.group", ReplicaGroup.DEFAULT_NAME));
        ReplicaServer server;
        try {
            server = ReplicaServer.start(Path.of(args[0]), group, Integer.parseInt(args[2]), o, System.err);
        } catch (Exception e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            System.err.println("qs serve: replica " + args[2] + " did not start: " + e
                    + (root != e ? " (cause: " + root + ")" : ""));
            System.exit(1);
            return;
        }
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
}
