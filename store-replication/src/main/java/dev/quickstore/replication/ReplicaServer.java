package dev.quickstore.replication;

import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.server.PageServer;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;

/**
 * One replica of a replicated page server ({@code qs serve DIR --replicas ... --id N}; issue 18,
 * docs/replication.md): a Ratis {@link RaftServer} whose state machine ({@link StoreStateMachine}) applies the
 * group's committed entries to this replica's store, and a {@link PageServer} over that store whose commits go
 * through the group ({@link ReplicatedCommitPath}). Only the leader accepts clients; when this replica stops
 * being the leader its clients' sessions are ended, and they reconnect to the new leader ({@link GroupClient}).
 *
 * <p>Raft settings: election timeout 1 to 2 s (two cores shared by several JVMs must not cause spurious
 * elections), Raft requests time out after {@link Options#requestTimeoutMs}, the Raft log is forced on each
 * append (Ratis's default: a committed entry is on the disks of a majority), the log purged up to the latest
 * snapshot as far as every member has committed (a replica that was down catches up from the log; one that lacks
 * purged entries gets the snapshot installed).
 */
public final class ReplicaServer implements AutoCloseable {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    /**
     * Tunables: defaults suit loopback tests and a small group on one machine. {@code purgeUptoSnapshot}: purge the
     * Raft log up to the latest snapshot even when a member has not committed that far (that member then gets
     * the snapshot installed; Ratis's default, false, keeps the log for it); {@code logSegmentBytes}: the size of
     * a Raft log segment (only closed segments are purged).
     */
    public record Options(
            int leaseMs,
            int checkpointEvery,
            int requestTimeoutMs,
            int electionMinMs,
            boolean purgeUptoSnapshot,
            long logSegmentBytes,
            int snapshotChunkBytes) {
        public static Options defaults() {
            return new Options(PageServer.DEFAULT_LEASE_MS, 1000, 3000, 1000, false, 32L << 20, 1 << 20);
        }
    }

    private final ReplicaGroup group;
    private final int self;
    private final RaftServer raft;
    private final PageServer pages;
    private final PrintStream log;

    private ReplicaServer(ReplicaGroup group, int self, RaftServer raft, PageServer pages, PrintStream log) {
        this.group = group;
        this.self = self;
        this.raft = raft;
        this.pages = pages;
        this.log = log;
    }

    /**
     * Starts replica {@code id} (1-based) of {@code group} over the replica directory {@code dir} (which holds the
     * group's seed store and its secret): the Raft server (its store restored from the latest snapshot or the seed,
     * then the log replayed) and the page server on the member's client address.
     */
    public static ReplicaServer start(Path dir, ReplicaGroup group, int id, Options options, PrintStream log)
            throws IOException {
        InetSocketAddress listen = group.member(id);
        Path work = dir.resolve(ReplicaStore.WORK_DIR);
        String who = "replica " + id + " of " + group.name();
        java.util.function.Consumer<String> logLine = l -> line(log, who + ": " + l);
        ServerSecret secret = ServerSecret.loadOrCreate(dir);

        RaftProperties p = new RaftProperties();
        RaftServerConfigKeys.setStorageDir(p, List.of(work.resolve("raft").toFile()));
        GrpcConfigKeys.Server.setPort(p, listen.getPort() + ReplicaGroup.RAFT_PORT_OFFSET);
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(options.electionMinMs(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(
                p, TimeDuration.valueOf(2L * options.electionMinMs(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setRequestTimeout(
                p, TimeDuration.valueOf(options.requestTimeoutMs(), TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, Math.max(1, options.checkpointEvery()));
        // the log is purged up to the latest snapshot only as far as every member has committed (Ratis's default):
        // a replica that was down catches up from the log; a new one gets the snapshot installed
        RaftServerConfigKeys.Log.setPurgeGap(p, Math.max(1, options.checkpointEvery()));
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, options.purgeUptoSnapshot());
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(options.logSegmentBytes()));
        RaftServerConfigKeys.Log.setPreallocatedSize(
                p, SizeInBytes.valueOf(Math.min(options.logSegmentBytes(), 4L << 20)));
        // a snapshot is a small store's files: 1 MiB chunks keep a replica's heap small while it sends one
        RaftServerConfigKeys.Log.Appender.setSnapshotChunkSizeMax(p, SizeInBytes.valueOf(options.snapshotChunkBytes()));

        ReplicaStore replica = new ReplicaStore(dir);
        StoreStateMachine machine = new StoreStateMachine(replica, logLine);
        RaftServer raft = RaftServer.newBuilder()
                .setGroup(group.raftGroup())
                .setServerId(group.peerId(id))
                .setStateMachine(machine)
                .setProperties(p)
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
        PageServer pages = null;
        try {
            raft.start();
            RaftProperties cp = new RaftProperties();
            RaftClientConfigKeys.Rpc.setRequestTimeout(
                    cp, TimeDuration.valueOf(options.requestTimeoutMs(), TimeUnit.MILLISECONDS));
            pages = PageServer.start(
                    dir,
                    () -> machine.replica().store(),
                    secret,
                    new InetSocketAddress(listen.getHostString(), listen.getPort()),
                    log,
                    options.leaseMs(),
                    server -> new ReplicatedCommitPath(raft, group, id, cp, options.checkpointEvery(), logLine));
            PageServer ps = pages;
            machine.onLeaderChange(leader -> {
                String l = leader == null ? null : ReplicaGroup.clientUriOf(leader);
                logLine.accept("the leader is " + (l == null ? "unknown" : l));
                if (!group.peerId(id).equals(leader)) {
                    ps.endSessions("replica " + id + " is not the leader any more");
                }
            });
            logLine.accept("started: Raft on " + group.raftAddress(id) + ", clients on " + group.clientUri(id) + " ("
                    + group.members().size() + " replicas)");
            return new ReplicaServer(group, id, raft, pages, log);
        } catch (IOException | RuntimeException e) {
            if (pages != null) {
                pages.close();
            }
            raft.close();
            throw e;
        }
    }

    private static void line(PrintStream log, String s) {
        log.println(LocalTime.now().truncatedTo(ChronoUnit.MILLIS).format(TIME) + " qs serve: " + s);
        log.flush();
    }

    /** This replica's client URI. */
    public String uri() {
        return group.clientUri(self);
    }

    /** Blocks until the page server is closed. */
    public void awaitClose() throws InterruptedException {
        pages.awaitClose();
    }

    /** Stops the page server (its clients' sessions end), then the Raft server (the store is closed). */
    @Override
    public void close() throws IOException {
        try {
            pages.close();
        } finally {
            raft.close();
            line(log, "replica " + self + " of " + group.name() + ": stopped");
        }
    }
}
