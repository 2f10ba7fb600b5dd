package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.testkit.ChildJvm;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Three (or more) replica processes on 127.0.0.1 ({@link ReplicaMain} in child JVMs under watchdogs), each with
 * its own copy of a seed store; kill, restart, pause (SIGSTOP) and resume them; always stopped by {@link #close}.
 */
final class ReplicaGroupFixture implements AutoCloseable {
    final Path root;
    final ReplicaGroup group;
    final List<Path> dirs = new ArrayList<>();
    final ChildJvm.Running[] running;
    private final int checkpointEvery;

    ReplicaGroupFixture(Path root, Path seed, int n, int checkpointEvery) throws Exception {
        this.root = root;
        this.checkpointEvery = checkpointEvery;
        StringBuilder replicas = new StringBuilder();
        List<Integer> ports = freePortPairs(n);
        for (int i = 0; i < n; i++) {
            Path d = root.resolve("replica" + (i + 1));
            Seeds.copy(seed, d);
            dirs.add(d);
            replicas.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports.get(i));
        }
        this.group = ReplicaGroup.parse(replicas.toString(), "test");
        this.running = new ChildJvm.Running[n];
    }

    /** Ports p with p and p + 1 free on loopback (a replica's client and Raft ports). */
    private static List<Integer> freePortPairs(int n) throws IOException {
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

    void startAll() throws Exception {
        for (int id = 1; id <= running.length; id++) {
            start(id);
        }
    }

    /** Starts replica {@code id} (1-based) and waits for its "listening" line. */
    void start(int id) throws Exception {
        ChildJvm.Running r = ChildJvm.main(ReplicaMain.class)
                .workDir(root)
                .jvmArgs(
                        "-Xmx384m",
                        "-XX:+HeapDumpOnOutOfMemoryError",
                        "-XX:HeapDumpPath=" + root,
                        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Dorg.slf4j.simpleLogger.showDateTime=true",
                        "-XX:TieredStopAtLevel=1",
                        "-Dqs.replica.group=test",
                        "-Dqs.replica.checkpointEvery=" + checkpointEvery)
                .args(dirs.get(id - 1).toString(), groupSpec(), Integer.toString(id))
                .timeout(Duration.ofSeconds(ChildJvm.longMode() ? 3000 : 600))
                .start();
        running[id - 1] = r;
        String line = r.nextLine(Duration.ofSeconds(120));
        if (line == null || !line.startsWith("listening qs://127.0.0.1:")) {
            r.kill();
            fail("replica " + id + " did not start: " + line + "; " + r.describe());
        }
    }

    String groupSpec() {
        StringBuilder b = new StringBuilder();
        for (InetSocketAddress a : group.members()) {
            b.append(b.isEmpty() ? "" : ",")
                    .append(a.getHostString())
                    .append(':')
                    .append(a.getPort());
        }
        return b.toString();
    }

    /** SIGKILL of replica {@code id}. */
    void kill(int id) throws InterruptedException {
        running[id - 1].kill();
    }

    void signal(int id, String sig) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(running[id - 1].pid())).start();
        if (p.waitFor() != 0) {
            fail("kill -" + sig + " of replica " + id + " failed");
        }
    }

    /** The ready leader every up member agrees on, waiting up to {@code within}; fails with the members' views. */
    ClusterStatus.Member awaitLeader(Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        List<ClusterStatus.Member> last = List.of();
        while (System.nanoTime() < deadline) {
            last = ClusterStatus.query(group, false, 2000);
            ClusterStatus.Member l = ClusterStatus.leader(last);
            if (l != null) {
                return l;
            }
            Thread.sleep(100);
        }
        fail("no leader within " + within + ": " + last + "\n" + describe());
        return null;
    }

    /**
     * Waits until every member answers with the same applied index and the same digest of its pages; returns the
     * digest. Fails with the members' answers if they do not agree within {@code within}.
     */
    String awaitAgreement(Duration within) throws Exception {
        long deadline = System.nanoTime() + within.toNanos();
        List<ClusterStatus.Member> last = List.of();
        while (System.nanoTime() < deadline) {
            last = ClusterStatus.query(group, true, 5000);
            boolean agree = last.stream().allMatch(ClusterStatus.Member::up)
                    && last.stream()
                                    .map(ClusterStatus.Member::appliedIndex)
                                    .distinct()
                                    .count()
                            == 1
                    && last.stream()
                                    .map(ClusterStatus.Member::digest)
                                    .distinct()
                                    .count()
                            == 1;
            if (agree) {
                return last.getFirst().digest();
            }
            Thread.sleep(200);
        }
        fail("replicas do not agree within " + within + ": " + last + "\n" + describe());
        return null;
    }

    String describe() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < running.length; i++) {
            if (running[i] != null) {
                b.append("--- replica ")
                        .append(i + 1)
                        .append(": ")
                        .append(tail(running[i].describe()))
                        .append('\n');
            }
        }
        return b.toString();
    }

    private static String tail(String s) {
        return s.length() > 6000 ? "..." + s.substring(s.length() - 6000) : s;
    }

    @Override
    public void close() {
        for (ChildJvm.Running r : running) {
            if (r != null) {
                r.close();
            }
        }
    }
}
