package dev.quickstore.replication;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.util.TimeDuration;

/**
 * {@code qs cluster add} and {@code qs cluster remove}: changes the members of a replication group through Raft's
 * membership change (Ongaro and Ousterhout, "In Search of an Understandable Consensus Algorithm", section 6: joint
 * consensus; Ratis's {@code setConfiguration}). The group's configuration is read from its leader (not from the
 * list the caller gives, which only has to reach the leader), every member of the new configuration is asked
 * whether it is up, and the change is refused in one line when there is no leader, when the member to remove is
 * not one, when the member to add already is one or does not answer, or when the new configuration would not have
 * a majority of its members up (it could then commit nothing, not even the change). A new member catches up before
 * the new configuration takes effect (Ratis stages it: it gets the log, or the leader's snapshot if the log was
 * purged); a removed member stops being asked and should then be stopped.
 */
public final class ClusterMembership {
    private ClusterMembership() {}

    /** A refused change; the message is one line. */
    public static final class RefusedException extends Exception {
        private static final long serialVersionUID = 1L;

        RefusedException(String message) {
            super(message);
        }
    }

    /** Adds the replica whose client address is {@code added}; returns the new configuration's members. */
    public static ReplicaGroup add(ReplicaGroup reach, InetSocketAddress added, int timeoutMs)
            throws IOException, RefusedException {
        List<InetSocketAddress> conf = configuration(reach, timeoutMs);
        if (conf.contains(added)) {
            throw new RefusedException(
                    "replica " + address(added) + " is already a member of group " + reach.name() + " " + list(conf));
        }
        List<InetSocketAddress> next = new ArrayList<>(conf);
        next.add(added);
        ReplicaGroup after = new ReplicaGroup(reach.name(), next);
        List<ClusterStatus.Member> st = ClusterStatus.query(after, false, timeoutMs);
        if (!st.getLast().up()) {
            throw new RefusedException("the new replica " + address(added) + " does not answer ("
                    + st.getLast().error() + "): start it first, e.g. qs serve DIR --replicas " + list(next)
                    + " --id " + next.size() + " --group " + reach.name() + " (DIR holding a copy of the seed)");
        }
        return change(reach, after, st, timeoutMs);
    }

    /** Removes the replica whose client address is {@code removed}; returns the new configuration's members. */
    public static ReplicaGroup remove(ReplicaGroup reach, InetSocketAddress removed, int timeoutMs)
            throws IOException, RefusedException {
        List<InetSocketAddress> conf = configuration(reach, timeoutMs);
        if (!conf.contains(removed)) {
            throw new RefusedException("unknown member " + address(removed) + ": the members of group " + reach.name()
                    + " are " + list(conf));
        }
        if (conf.size() == 1) {
            throw new RefusedException("replica " + address(removed) + " is the last member of group " + reach.name()
                    + ": a group cannot lose its last replica");
        }
        List<InetSocketAddress> next = new ArrayList<>(conf);
        next.remove(removed);
        ReplicaGroup after = new ReplicaGroup(reach.name(), next);
        return change(reach, after, ClusterStatus.query(after, false, timeoutMs), timeoutMs);
    }

    /**
     * The members of the group's current configuration, as its leader knows them: those of {@code reach} in its
     * order, then the others.
     */
    static List<InetSocketAddress> configuration(ReplicaGroup reach, int timeoutMs)
            throws IOException, RefusedException {
        List<ClusterStatus.Member> st = ClusterStatus.query(reach, false, timeoutMs);
        ClusterStatus.Member leader = ClusterStatus.leader(st);
        if (leader == null) {
            long up = st.stream().filter(ClusterStatus.Member::up).count();
            throw new RefusedException("no leader: " + up + " of the " + st.size() + " replicas asked answer and none"
                    + " is the leader, so group " + reach.name() + " cannot change its members");
        }
        List<InetSocketAddress> out = new ArrayList<>();
        for (String id : leader.conf()) {
            String uri = ReplicaGroup.clientUriOf(RaftPeerId.valueOf(id));
            if (uri == null) {
                throw new IOException("the leader " + leader.uri() + " names a member '" + id
                        + "' that is not a replica's HOST_PORT");
            }
            String hp = uri.substring("qs://".length());
            int colon = hp.lastIndexOf(':');
            out.add(InetSocketAddress.createUnresolved(
                    hp.substring(0, colon), Integer.parseInt(hp.substring(colon + 1))));
        }
        List<InetSocketAddress> ordered = new ArrayList<>();
        for (InetSocketAddress a : reach.members()) {
            if (out.contains(a)) {
                ordered.add(a);
            }
        }
        for (InetSocketAddress a : out) {
            if (!ordered.contains(a)) {
                ordered.add(a);
            }
        }
        return ordered;
    }

    private static ReplicaGroup change(
            ReplicaGroup reach, ReplicaGroup after, List<ClusterStatus.Member> st, int timeoutMs)
            throws IOException, RefusedException {
        long up = st.stream().filter(ClusterStatus.Member::up).count();
        if (up * 2 <= after.members().size()) {
            throw new RefusedException("the change would lose the majority: " + up + " of the "
                    + after.members().size() + " replicas of the new configuration " + list(after.members())
                    + " answer, a majority is " + (after.members().size() / 2 + 1));
        }
        RaftProperties p = new RaftProperties();
        // a new member first catches up (the log, or a snapshot): the change waits for it
        RaftClientConfigKeys.Rpc.setRequestTimeout(
                p, TimeDuration.valueOf(Math.max(timeoutMs, 60_000), TimeUnit.MILLISECONDS));
        List<RaftPeer> peers = after.peers();
        try (RaftClient client = RaftClient.newBuilder()
                .setRaftGroup(reach.raftGroup())
                .setProperties(p)
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(
                        10, TimeDuration.valueOf(500, TimeUnit.MILLISECONDS)))
                .build()) {
            RaftClientReply r = client.admin().setConfiguration(peers);
            if (!r.isSuccess()) {
                String why = String.valueOf(r.getException());
                throw new RefusedException("group " + reach.name() + " refused the new configuration "
                        + list(after.members()) + ": " + why.lines().findFirst().orElse(why));
            }
        }
        return after;
    }

    /** {@code HOST:PORT}. */
    static String address(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    /** {@code HOST:PORT,HOST:PORT,...}, as {@code --replicas} takes it. */
    public static String list(List<InetSocketAddress> members) {
        List<String> out = new ArrayList<>();
        for (InetSocketAddress a : members) {
            out.add(address(a));
        }
        return String.join(",", out);
    }
}
