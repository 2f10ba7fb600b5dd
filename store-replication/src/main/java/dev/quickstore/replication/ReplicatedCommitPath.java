package dev.quickstore.replication;

import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.ServerUnavailableException;
import dev.quickstore.core.remote.SessionFrame;
import dev.quickstore.server.CommitPath;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

/**
 * The commit path of a replica (issue 18): a client's commit becomes a {@link CommitEntry} submitted to the Raft
 * group through this replica, which must be the leader; the page server answers COMMITTED only when Ratis
 * replies, i.e. when the entry is committed (on the disks of a majority) and applied here - and every replica
 * applies it the same way ({@link ReplicaStore}). Validation happens when the entry is applied, so a commit whose
 * entry is committed after a competing one still sees it (no lost update across a change of leader).
 *
 * <p>Only the leader accepts clients ({@link #refusal}): a follower names the leader's address, and a new leader
 * waits until it is "ready" (it has applied an entry of its own term, hence every entry committed before it) so
 * that no client reads a page older than a commit already acknowledged. The submission does not retry: if the
 * leader loses its majority or its leadership, the commit fails after the Raft request timeout and the client's
 * commit throws {@code ServerUnavailableException}; its outcome is then unknown to it (the entry may yet be
 * committed by a later leader), as with a single server that dies after forcing the log and before answering.
 *
 * <p>Every {@code checkpointEvery} commits this leader also submits a CHECKPOINT entry (the replicas' snapshots).
 */
final class ReplicatedCommitPath implements CommitPath {
    private final RaftServer server;
    private final ReplicaGroup group;
    private final int self;
    private final RaftClient client;
    private final int checkpointEvery;
    private final Consumer<String> log;
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong acknowledged = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong checkpoints = new AtomicLong();

    ReplicatedCommitPath(
            RaftServer server,
            ReplicaGroup group,
            int self,
            RaftProperties clientProperties,
            int checkpointEvery,
            Consumer<String> log) {
        this.server = server;
        this.group = group;
        this.self = self;
        this.checkpointEvery = checkpointEvery;
        this.log = log;
        this.client = RaftClient.newBuilder()
                .setRaftGroup(group.raftGroup())
                .setLeaderId(group.peerId(self))
                .setProperties(clientProperties)
                .setRetryPolicy(RetryPolicies.noRetry())
                .build();
    }

    private DivisionInfo info() throws IOException {
        return server.getDivision(group.groupId()).getInfo();
    }

    @Override
    public String refusal() {
        DivisionInfo d;
        try {
            d = info();
        } catch (IOException e) {
            return "replica " + self + " of group " + group.name() + " is not running: " + e.getMessage();
        }
        if (d.isLeader()) {
            return d.isLeaderReady()
                    ? null
                    : "replica " + self + " of group " + group.name()
                            + " was just elected and is catching up; no leader is ready yet, retry";
        }
        RaftPeerId leader = d.getLeaderId();
        String uri = leader == null ? null : ReplicaGroup.clientUriOf(leader);
        return uri == null
                ? "replica " + self + " of group " + group.name() + " is not the leader; no leader is elected yet"
                : "replica " + self + " of group " + group.name() + " is not the leader; the leader is " + uri;
    }

    @Override
    public CompletableFuture<CommitMessages.Applied> commit(CommitMessages.Commit commit) {
        String refusal = refusal();
        if (refusal != null) {
            failed.incrementAndGet();
            return CompletableFuture.failedFuture(new ServerUnavailableException(refusal, null));
        }
        long n = submitted.incrementAndGet();
        CompletableFuture<CommitMessages.Applied> done = submit(CommitEntry.commit(commit))
                .thenApply(o -> switch (o) {
                    case CommitMessages.Applied a -> {
                        acknowledged.incrementAndGet();
                        yield a;
                    }
                    case RuntimeException e -> throw new CompletionException(e);
                    default -> throw new CompletionException(new IllegalStateException("unexpected reply " + o));
                });
        if (checkpointEvery > 0 && n % checkpointEvery == 0) {
            submit(CommitEntry.checkpoint()).whenComplete((o, e) -> {
                if (e != null) {
                    log.accept("checkpoint entry after " + n + " commits failed: " + e);
                } else {
                    checkpoints.incrementAndGet();
                }
            });
        }
        return done;
    }

    /** Submits an entry; completes with the decoded {@link EntryReply}, or exceptionally if it was not applied. */
    private CompletableFuture<Object> submit(CommitEntry e) {
        return client.async()
                .send(Message.valueOf(ByteString.copyFrom(e.encode())))
                .handle((RaftClientReply reply, Throwable t) -> {
                    if (t != null || !reply.isSuccess()) {
                        failed.incrementAndGet();
                        Throwable why = t != null ? t : reply.getException();
                        throw new CompletionException(new ServerUnavailableException(
                                "replica " + self + " of group " + group.name()
                                        + ": the commit's log entry was not committed: " + why,
                                why));
                    }
                    try {
                        return EntryReply.decode(reply.getMessage().getContent().toByteArray());
                    } catch (SessionFrame.ProtocolException x) {
                        throw new CompletionException(x);
                    }
                });
    }

    @Override
    public void describe(Map<String, String> status) {
        status.put("replica", Integer.toString(self));
        status.put("group", group.name());
        try {
            DivisionInfo d = info();
            status.put("role", String.valueOf(d.getCurrentRole()));
            status.put("term", Long.toString(d.getCurrentTerm()));
            status.put("appliedIndex", Long.toString(d.getLastAppliedIndex()));
        } catch (IOException e) {
            status.put("role", "not running");
        }
        status.put("entriesSubmitted", Long.toString(submitted.get()));
        status.put("commitsAcknowledged", Long.toString(acknowledged.get()));
        status.put("commitsFailed", Long.toString(failed.get()));
        status.put("checkpointEntries", Long.toString(checkpoints.get()));
    }

    @Override
    public void close() {
        try {
            client.close();
        } catch (IOException e) {
            log.accept("closing the Raft client failed: " + e);
        }
    }
}
