package dev.quickstore.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What every test of a replicated page server (issue 18) needs to start replica processes on 127.0.0.1: free port
 * pairs (a replica's client port and its Raft port, the next one), a copy of the group's seed store for each
 * replica, and a replica process started and awaited until it prints its {@code listening qs://...} line. Used by
 * store-replication's {@code ReplicaGroupFixture} (replicas as {@code ReplicaMain}) and store-cli's {@code
 * ClusterCommandTest} (replicas as {@code qs serve --replicas}).
 */
public final class LoopbackReplicas {
    private LoopbackReplicas() {}

    /** {@code n} ports p with p and p + 1 free on loopback, no two pairs overlapping. */
    public static List<Integer> freePortPairs(int n) throws IOException {
        List<Integer> out = new ArrayList<>();
        while (out.size() < n) {
            int p;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                p = s.getLocalPort();
            }
            if (p >= 65534 || out.contains(p) || out.contains(p + 1) || out.contains(p - 1)) {
                continue;
            }
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), p + 1));
            } catch (IOException e) {
                continue;
            }
            out.add(p);
        }
        return out;
    }

    /** {@code 127.0.0.1:P,127.0.0.1:Q,...} for the ports, as {@code --replicas} takes them. */
    public static String replicasSpec(List<Integer> ports) {
        List<String> out = new ArrayList<>();
        for (int p : ports) {
            out.add("127.0.0.1:" + p);
        }
        return String.join(",", out);
    }

    /** Copies the seed store {@code from} (with its secret) to a replica's directory {@code to}, not its lock. */
    public static void copySeed(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else if (!p.getFileName().toString().equals("lock")) {
                    Files.copy(p, t);
                }
            }
        }
    }

    /**
     * Starts a replica process and waits up to two minutes for its first line, which must begin with {@code
     * listening}; otherwise kills it and throws, naming what it said.
     */
    public static ChildJvm.Running start(ChildJvm replica, String listening) throws IOException, InterruptedException {
        ChildJvm.Running r = replica.start();
        String line = r.nextLine(Duration.ofSeconds(120));
        if (line == null || !line.startsWith(listening)) {
            r.kill();
            throw new AssertionError("the replica did not start (expected '" + listening + "...', it said " + line
                    + "); " + r.describe());
        }
        return r;
    }
}
