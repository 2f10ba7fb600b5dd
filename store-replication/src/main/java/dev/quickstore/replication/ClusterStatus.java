package dev.quickstore.replication;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.util.TimeDuration;

/**
 * {@code qs cluster status}: asks every member of a replication group, over Raft (a read of that member's own
 * state machine, which needs no leader, nor anything committed: a stale read with minimum index -1), for its role, term, leader, commit and applied index, latest snapshot and
 * page count, and optionally the SHA-256 of its committed pages at its applied index. A member that does not
 * answer within the timeout is reported down with the reason.
 */
public final class ClusterStatus {
    private ClusterStatus() {}

    /** One member's answer; {@code error} is null for a member that answered. */
    public record Member(
            int id,
            String uri,
            String role,
            long term,
            String leader,
            long commitIndex,
            long appliedIndex,
            long snapshotIndex,
            long pages,
            String digest,
            String error,
            long logStartIndex,
            String verify,
            int leaderId,
            List<String> conf) {
        public boolean up() {
            return error == null;
        }

        /** The leader's replica number in the list asked (0: none known, or not in the list), from its view. */
        public int leaderId() {
            return leaderId;
        }
    }

    /** Every member's status, in the group's order. */
    public static List<Member> query(ReplicaGroup group, boolean digest, int timeoutMs) throws IOException {
        return query(group, digest ? "digest" : "status", timeoutMs);
    }

    /**
     * Every member's answer to {@code what}: {@code status}, {@code digest} (with the SHA-256 of its pages) or
     * {@code verify} (the digest and {@code Store.verify()} of its store, {@link Member#verify}).
     */
    public static List<Member> query(ReplicaGroup group, String what, int timeoutMs) throws IOException {
        RaftProperties p = new RaftProperties();
        RaftClientConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(timeoutMs, TimeUnit.MILLISECONDS));
        List<Member> out = new ArrayList<>();
        try (RaftClient client = RaftClient.newBuilder()
                .setRaftGroup(group.raftGroup())
                .setProperties(p)
                .setRetryPolicy(RetryPolicies.noRetry())
                .build()) {
            for (int id = 1; id <= group.members().size(); id++) {
                try {
                    RaftClientReply r = client.io().sendStaleRead(Message.valueOf(what), -1, group.peerId(id));
                    if (!r.isSuccess()) {
                        out.add(down(group, id, String.valueOf(r.getException())));
                        continue;
                    }
                    Map<String, String> f = new HashMap<>();
                    for (String kv : r.getMessage().getContent().toStringUtf8().split(" ")) {
                        int eq = kv.indexOf('=');
                        if (eq > 0) {
                            f.put(kv.substring(0, eq), kv.substring(eq + 1));
                        }
                    }
                    out.add(new Member(
                            id,
                            group.clientUri(id),
                            f.getOrDefault("role", "?"),
                            Long.parseLong(f.getOrDefault("term", "-1")),
                            f.getOrDefault("leader", "none"),
                            Long.parseLong(f.getOrDefault("commit", "-1")),
                            Long.parseLong(f.getOrDefault("applied", "-1")),
                            Long.parseLong(f.getOrDefault("snapshot", "-1")),
                            Long.parseLong(f.getOrDefault("pages", "-1")),
                            f.get("digest"),
                            null,
                            Long.parseLong(f.getOrDefault("start", "-1")),
                            f.get("verify"),
                            f.containsKey("leader") && !f.get("leader").equals("none")
                                    ? group.idOf(RaftPeerId.valueOf(f.get("leader")))
                                    : 0,
                            f.getOrDefault("conf", "").isEmpty()
                                    ? List.of()
                                    : List.of(f.get("conf").split(";"))));
                } catch (IOException | RuntimeException e) {
                    out.add(down(group, id, e.getMessage() == null ? e.toString() : e.getMessage()));
                }
            }
        }
        return out;
    }

    private static Member down(ReplicaGroup group, int id, String why) {
        String line = why.lines().findFirst().orElse(why);
        return new Member(
                id, group.clientUri(id), "DOWN", -1, "none", -1, -1, -1, -1, null, line, -1, null, 0, List.of());
    }

    /** The member that calls itself the leader, or null. */
    public static Member leader(List<Member> members) {
        for (Member m : members) {
            if (m.up() && m.role().equals("LEADER")) {
                return m;
            }
        }
        return null;
    }
}
