package dev.quickstore.replication;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;

/**
 * The members of a replication group as {@code qs serve --replicas} names them: the page-server (client)
 * address of each replica; replica {@code i} (1-based, {@code --id}) is the {@code i}-th of the list. A replica's
 * Raft peer id is its client address, {@code HOST_PORT} ({@link #peerId(InetSocketAddress)}), so it does not
 * depend on the list's order: members can be added and removed ({@link ClusterMembership}) and any list naming the
 * current members addresses the same peers; a replica speaks Raft on its client port + {@value
 * #RAFT_PORT_OFFSET}. The Raft group id is derived from the group's name ({@code --group}, default {@value
 * #DEFAULT_NAME}), so every member and every admin client derives the same one.
 */
public record ReplicaGroup(String name, List<InetSocketAddress> members) {
    public static final String DEFAULT_NAME = "quickstore";
    /** A replica's Raft port is its client port plus this. */
    public static final int RAFT_PORT_OFFSET = 1;

    public ReplicaGroup {
        members = List.copyOf(members);
    }

    /**
     * {@code HOST:PORT,HOST:PORT,...}: at least one member, no duplicates, each port in 1..65534 (its Raft port is
     * the next one).
     *
     * @throws IllegalArgumentException naming the entry that is wrong
     */
    public static ReplicaGroup parse(String replicas, String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("group name is empty");
        }
        List<InetSocketAddress> out = new ArrayList<>();
        for (String e : replicas.split(",")) {
            String s = e.strip();
            int colon = s.lastIndexOf(':');
            if (colon <= 0 || colon == s.length() - 1) {
                throw new IllegalArgumentException("replica '" + s + "': expected HOST:PORT, e.g. 127.0.0.1:7420");
            }
            int port;
            try {
                port = Integer.parseInt(s.substring(colon + 1));
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException(
                        "replica '" + s + "': port " + s.substring(colon + 1) + " is not a number");
            }
            if (port < 1 || port > 65534) {
                throw new IllegalArgumentException(
                        "replica '" + s + "': port " + port + " outside 1..65534 (its Raft port is the next one)");
            }
            InetSocketAddress a = InetSocketAddress.createUnresolved(s.substring(0, colon), port);
            if (out.contains(a)) {
                throw new IllegalArgumentException("replica '" + s + "' is listed twice");
            }
            out.add(a);
        }
        return new ReplicaGroup(name, out);
    }

    /** The Raft group id: a name-based UUID of the group's name. */
    public RaftGroupId groupId() {
        return RaftGroupId.valueOf(
                UUID.nameUUIDFromBytes(("quickstore-replication:" + name).getBytes(StandardCharsets.UTF_8)));
    }

    /** Replica {@code id}'s (1-based) Raft peer id. */
    public RaftPeerId peerId(int id) {
        return peerId(member(id));
    }

    /** The Raft peer id of the replica whose client address is {@code a}: {@code HOST_PORT}. */
    public static RaftPeerId peerId(InetSocketAddress a) {
        return RaftPeerId.valueOf(a.getHostString() + "_" + a.getPort());
    }

    /** The client URI ({@code qs://HOST:PORT}) of a replica named by its Raft peer id, or null if it is not one. */
    public static String clientUriOf(RaftPeerId peer) {
        String s = peer.toString();
        int u = s.lastIndexOf('_');
        if (u <= 0 || u == s.length() - 1 || !s.substring(u + 1).chars().allMatch(Character::isDigit)) {
            return null;
        }
        return "qs://" + s.substring(0, u) + ":" + s.substring(u + 1);
    }

    /** The 1-based replica number of a Raft peer id in this list, or 0 if it is not in it. */
    public int idOf(RaftPeerId peer) {
        for (int i = 1; i <= members.size(); i++) {
            if (peerId(i).equals(peer)) {
                return i;
            }
        }
        return 0;
    }

    /** The Raft peer of the replica whose client address is {@code a}. */
    public static RaftPeer peer(InetSocketAddress a) {
        return RaftPeer.newBuilder()
                .setId(peerId(a))
                .setAddress(a.getHostString() + ":" + (a.getPort() + RAFT_PORT_OFFSET))
                .build();
    }

    /** Replica {@code id}'s page-server address as clients name it, {@code qs://HOST:PORT}. */
    public String clientUri(int id) {
        InetSocketAddress a = member(id);
        return "qs://" + a.getHostString() + ":" + a.getPort();
    }

    /** Replica {@code id}'s Raft address, {@code HOST:PORT+1}. */
    public String raftAddress(int id) {
        InetSocketAddress a = member(id);
        return a.getHostString() + ":" + (a.getPort() + RAFT_PORT_OFFSET);
    }

    /** Replica {@code id}'s client address (1-based). */
    public InetSocketAddress member(int id) {
        if (id < 1 || id > members.size()) {
            throw new IllegalArgumentException(
                    "replica id " + id + " outside 1.." + members.size() + " (the --replicas list)");
        }
        return members.get(id - 1);
    }

    /** The Raft group of every member. */
    public RaftGroup raftGroup() {
        return RaftGroup.valueOf(groupId(), peers());
    }

    /** Every member's Raft peer, in order. */
    public List<RaftPeer> peers() {
        List<RaftPeer> peers = new ArrayList<>();
        for (InetSocketAddress a : members) {
            peers.add(peer(a));
        }
        return peers;
    }

    /** Every member's client URI, in order. */
    public List<String> clientUris() {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= members.size(); i++) {
            out.add(clientUri(i));
        }
        return out;
    }
}
