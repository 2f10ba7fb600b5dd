package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.LoopbackReplicas;
import java.net.InetSocketAddress;
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
    /** Every member the fixture may start (its directories and ports). */
    final ReplicaGroup all;
    /** The members the test asks (awaitLeader, awaitAgreement, clients): the group's current configuration. */
    ReplicaGroup group;

    final List<Path> dirs = new ArrayList<>();
    final ChildJvm.Running[] running;
    private final int checkpointEvery;
    private final int initial;
    /** More JVM arguments of every replica started from now on (system properties of {@link ReplicaMain}). */
    final List<String> jvmArgs = new ArrayList<>();

    ReplicaGroupFixture(Path root, Path seed, int n, int checkpointEvery) throws Exception {
        this(root, seed, n, n, checkpointEvery);
    }

    /**
     * {@code n} members of which the first {@code initial} form the group; the others are started with the list of
     * all {@code n} (to be added with {@link ClusterMembership#add}).
     */
    ReplicaGroupFixture(Path root, Path seed, int n, int initial, int checkpointEvery) throws Exception {
        this.root = root;
        this.checkpointEvery = checkpointEvery;
        this.initial = initial;
        StringBuilder replicas = new StringBuilder();
        List<Integer> ports = LoopbackReplicas.freePortPairs(n);
        for (int i = 0; i < n; i++) {
            Path d = root.resolve("replica" + (i + 1));
            LoopbackReplicas.copySeed(seed, d);
            dirs.add(d);
            replicas.append(i == 0 ? "" : ",").append("127.0.0.1:").append(ports.get(i));
        }
        this.all = ReplicaGroup.parse(replicas.toString(), "test");
        this.group = new ReplicaGroup("test", all.members().subList(0, initial));
        this.running = new ChildJvm.Running[n];
    }

    /** Starts the initial members. */
    void startAll() throws Exception {
        for (int id = 1; id <= group.members().size(); id++) {
            start(id);
        }
    }

    /** Starts replica {@code id} (1-based) and waits for its "listening" line. */
    void start(int id) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "-Xmx384m",
                "-XX:+HeapDumpOnOutOfMemoryError",
                "-XX:HeapDumpPath=" + root,
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dorg.slf4j.simpleLogger.showDateTime=true",
                "-XX:TieredStopAtLevel=1",
                "-Dqs.replica.group=test",
                "-Dqs.replica.checkpointEvery=" + checkpointEvery));
        args.addAll(jvmArgs);
        running[id - 1] = LoopbackReplicas.start(
                ChildJvm.main(ReplicaMain.class)
                        .workDir(root)
                        .jvmArgs(args)
                        .args(dirs.get(id - 1).toString(), groupSpec(id), Integer.toString(id))
                        .timeout(Duration.ofSeconds(ChildJvm.longMode() ? 3000 : 600)),
                "listening " + all.clientUri(id));
    }

    /** The {@code --replicas} of member {@code id}: the initial group, or every member for a later one. */
    String groupSpec(int id) {
        StringBuilder b = new StringBuilder();
        for (InetSocketAddress a : (id <= initial ? all.members().subList(0, initial) : all.members())) {
            b.append(b.isEmpty() ? "" : ",")
                    .append(a.getHostString())
                    .append(':')
                    .append(a.getPort());
        }
        return b.toString();
    }

    /** The fixture's number (1-based, in {@link #all}) of a member the current {@link #group} reported. */
    int index(ClusterStatus.Member m) {
        int i = all.clientUris().indexOf(m.uri());
        if (i < 0) {
            fail("member " + m.uri() + " is not one of the fixture's " + all.clientUris());
        }
        return i + 1;
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
                // the same pages everywhere; now each replica's store checked as qs verify checks it
                List<ClusterStatus.Member> checked = ClusterStatus.query(group, "verify", 30_000);
                for (ClusterStatus.Member m : checked) {
                    if (!"OK".equals(m.verify()) || !last.getFirst().digest().equals(m.digest())) {
                        fail("replica " + m.id() + " at applied index " + m.appliedIndex() + ": verify "
                                + m.verify() + ", digest " + m.digest() + " (expected "
                                + last.getFirst().digest()
                                + ")\n" + describe());
                    }
                }
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
