package dev.quickstore.replication;

import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.SessionFrame;
import dev.quickstore.core.remote.TransactionConflictException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;

/**
 * The Raft state machine of a replica (Apache Ratis; Ongaro and Ousterhout's replicated state machine): applies
 * each committed {@link CommitEntry} to the replica's own store ({@link ReplicaStore}) in log order and answers
 * with an {@link EntryReply}; a CHECKPOINT entry makes the store's snapshot, which Ratis reports as this state
 * machine's latest snapshot, sends to a replica that lags behind the purged log, and restores at start
 * ({@link #initialize}, {@link #reinitialize}). A failure of the store other than a conflict or a refused commit
 * fails the entry, which stops the replica (fail-stop: it is rebuilt from a snapshot and the log when restarted).
 *
 * <p>Queries ({@link #query}): {@code status} answers this replica's applied index, its term and role as one line;
 * {@code digest} adds the SHA-256 of its committed pages, taken at that applied index; {@code verify} adds the
 * outcome of {@code Store.verify()} of its store (what {@code qs verify} checks), at that applied index.
 */
final class StoreStateMachine extends BaseStateMachine {
    private final ReplicaStore replica;
    private final Consumer<String> log;
    private final Storage storage = new Storage();
    private volatile ReplicaSnapshot latest;
    private volatile SnapshotInfo latestInfo;
    private volatile Consumer<RaftPeerId> leaderChanged = id -> {};

    StoreStateMachine(ReplicaStore replica, Consumer<String> log) {
        this.replica = replica;
        this.log = log;
    }

    /** Called with the new leader's id whenever this replica learns of a new leader (null: it stepped down). */
    void onLeaderChange(Consumer<RaftPeerId> listener) {
        this.leaderChanged = listener;
    }

    ReplicaStore replica() {
        return replica;
    }

    /** The directory of this state machine's snapshots (Ratis's state machine directory). */
    private final class Storage implements StateMachineStorage {
        private volatile Path smDir;

        @Override
        public void init(RaftStorage raftStorage) {
            smDir = raftStorage.getStorageDir().getStateMachineDir().toPath();
        }

        @Override
        public SnapshotInfo getLatestSnapshot() {
            return latestInfo;
        }

        @Override
        public void format() {}

        @Override
        public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) {
            // a new snapshot deletes the older ones itself (ReplicaStore.snapshot)
        }
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        getLifeCycle().startAndTransition(() -> {
            super.initialize(server, groupId, raftStorage);
            storage.init(raftStorage);
            load();
        });
    }

    /** Before Ratis installs a snapshot the leader sent (its reload requires the PAUSED state). */
    @Override
    public synchronized void pause() {
        if (getLifeCycleState() == LifeCycle.State.PAUSED) {
            return; // a retried installation pauses again
        }
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    /** After Ratis installed a snapshot the leader sent: the store is rebuilt from it. */
    @Override
    public synchronized void reinitialize() throws IOException {
        log.accept("installing the snapshot the leader sent");
        load();
        if (getLifeCycleState() == LifeCycle.State.PAUSED) {
            getLifeCycle().transition(LifeCycle.State.STARTING);
            getLifeCycle().transition(LifeCycle.State.RUNNING);
        }
    }

    private synchronized void load() throws IOException {
        ReplicaSnapshot s = ReplicaSnapshot.latest(storage.smDir);
        replica.restore(s);
        publish(s);
        if (s != null) {
            setLastAppliedTermIndex(TermIndex.valueOf(s.term(), s.index()));
        }
        log.accept("store restored from " + (s == null ? "the seed" : "snapshot " + s) + ", "
                + replica.store().pageCount() + " pages");
    }

    private void publish(ReplicaSnapshot s) throws IOException {
        latest = s;
        if (s == null) {
            latestInfo = null;
            return;
        }
        List<FileInfo> files = new ArrayList<>();
        for (Path f : s.storeFiles()) {
            files.add(new FileInfo(f, MD5FileUtil.computeMd5ForFile(f.toFile())));
        }
        File manifest = s.dir().resolve(ReplicaSnapshot.MANIFEST).toFile();
        files.add(new FileInfo(manifest.toPath(), MD5FileUtil.computeMd5ForFile(manifest)));
        latestInfo = new FileListSnapshotInfo(files, TermIndex.valueOf(s.term(), s.index()));
    }

    /** The snapshots are made at CHECKPOINT entries; this reports the latest one. */
    @Override
    public long takeSnapshot() {
        ReplicaSnapshot s = latest;
        return s == null ? RaftLog.INVALID_LOG_INDEX : s.index();
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        TermIndex ti = TermIndex.valueOf(entry);
        byte[] data = entry.getStateMachineLogEntry().getLogData().toByteArray();
        try {
            byte[] reply = apply(ti, data);
            return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(reply)));
        } catch (IOException | RuntimeException e) {
            log.accept("applying log entry " + ti + " failed, this replica stops: " + e);
            return CompletableFuture.failedFuture(e);
        }
    }

    private synchronized byte[] apply(TermIndex ti, byte[] data) throws IOException {
        CommitEntry e;
        try {
            e = CommitEntry.decode(data);
        } catch (SessionFrame.ProtocolException x) {
            updateLastAppliedTermIndex(ti); // the same verdict on every replica: nothing applied
            return EntryReply.refused("log entry " + ti.getIndex() + " refused: " + x.getMessage());
        }
        byte[] reply;
        if (e.kind() == CommitEntry.CHECKPOINT) {
            ReplicaSnapshot s = replica.snapshot(storage.smDir, ti.getTerm(), ti.getIndex());
            publish(s);
            reply = EntryReply.checkpointed();
        } else {
            Object o = replica.apply(e.commit());
            reply = switch (o) {
                case CommitMessages.Applied a -> EntryReply.applied(a);
                case TransactionConflictException c -> EntryReply.conflict(c);
                case IllegalArgumentException r -> EntryReply.refused(r.getMessage());
                default -> throw new IllegalStateException("unexpected outcome " + o);
            };
        }
        updateLastAppliedTermIndex(ti);
        return reply;
    }

    /**
     * Status queries answer at once, whatever this replica has applied (they report it): a replica that has not
     * committed anything yet - a new member, before it is added - answers too.
     */
    @Override
    public CompletableFuture<Message> queryStale(Message request, long minIndex) {
        return query(request);
    }

    @Override
    public CompletableFuture<Message> query(Message request) {
        String q = request.getContent().toStringUtf8();
        if (!q.equals("status") && !q.equals("digest") && !q.equals("verify")) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("unknown query '" + q + "'"));
        }
        try {
            return CompletableFuture.completedFuture(
                    Message.valueOf(ByteString.copyFrom(status(q), StandardCharsets.UTF_8)));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * One line: {@code applied=I term=T role=R leader=L commit=C start=S conf=P;P;... snapshot=S pages=P
     * [digest=HEX] [verify=OK|N-problems:FIRST]} ({@code start}: the first index still in this replica's Raft
     * log; {@code conf}: the peer ids of the group's current configuration as this replica knows it).
     */
    private synchronized String status(String q) throws IOException {
        boolean digest = !q.equals("status");
        RaftServer.Division d = getServer().join().getDivision(getGroupId());
        TermIndex applied = getLastAppliedTermIndex();
        ReplicaSnapshot s = latest;
        RaftPeerId leader = d.getInfo().getLeaderId();
        return "applied=" + (applied == null ? -1 : applied.getIndex()) + " term="
                + d.getInfo().getCurrentTerm()
                + " role=" + d.getInfo().getCurrentRole() + " leader=" + (leader == null ? "none" : leader)
                + " commit=" + d.getRaftLog().getLastCommittedIndex() + " start="
                + d.getRaftLog().getStartIndex()
                + " conf="
                + String.join(
                        ";",
                        d.getRaftConf().getCurrentPeers().stream()
                                .map(p -> p.getId().toString())
                                .sorted()
                                .toList())
                + " snapshot=" + (s == null ? -1 : s.index())
                + " pages=" + replica.store().pageCount() + (digest ? " digest=" + replica.digest() : "")
                + (q.equals("verify") ? " verify=" + replica.verify() : "");
    }

    @Override
    public void notifyLeaderChanged(RaftGroupMemberId groupMemberId, RaftPeerId newLeaderId) {
        leaderChanged.accept(newLeaderId);
    }

    /** This replica stepped down (it may not know the new leader yet): its clients must go. */
    @Override
    public void notifyNotLeader(java.util.Collection<TransactionContext> pendingEntries) {
        leaderChanged.accept(null);
    }

    @Override
    public void close() throws IOException {
        super.close();
        replica.close();
    }
}
