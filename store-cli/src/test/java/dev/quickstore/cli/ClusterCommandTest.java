package dev.quickstore.cli;

import static dev.quickstore.cli.QsCommandTest.qs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.testkit.ChildJvm;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qs serve --replicas} as three real processes, and {@code qs cluster status} asking them. */
class ClusterCommandTest {
    @TempDir
    Path dir;

    @Test
    void threeReplicasElectALeaderThatClusterStatusShows() throws Exception {
        Path db = dir.resolve("db");
        assertEquals(0, qs("create", db.toString()).code());
        ServerSecret.loadOrCreate(db); // the seed's secret: every replica gets the same copy
        List<Integer> ports = freePortPairs(3);
        String replicas = "127.0.0.1:" + ports.get(0) + ",127.0.0.1:" + ports.get(1) + ",127.0.0.1:" + ports.get(2);
        List<ChildJvm.Running> rs = new ArrayList<>();
        try {
            for (int id = 1; id <= 3; id++) {
                Path r = dir.resolve("r" + id);
                copy(db, r);
                ChildJvm.Running s = ChildJvm.main(Qs.class)
                        .workDir(dir)
                        .jvmArgs("-Xmx256m")
                        .args(
                                "serve",
                                r.toString(),
                                "--replicas",
                                replicas,
                                "--id",
                                Integer.toString(id),
                                "--group",
                                "g")
                        .timeout(Duration.ofSeconds(300))
                        .start();
                rs.add(s);
                String line = s.nextLine(Duration.ofSeconds(120));
                if (line == null || !line.startsWith("listening qs://127.0.0.1:" + ports.get(id - 1))) {
                    fail("qs serve --replicas said " + line + "; " + s.describe());
                }
                assertTrue(line.contains("replica " + id + " of group g"), line);
            }
            JsonNode members = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (System.nanoTime() < deadline) {
                QsCommandTest.Run st =
                        qs("cluster", "status", "--replicas", replicas, "--group", "g", "--digest", "--json");
                members = Json.MAPPER.readTree(st.out());
                Set<String> digests = new HashSet<>();
                Set<Long> applied = new HashSet<>();
                int leaders = 0;
                for (JsonNode m : members) {
                    leaders += m.get("role").asText().equals("LEADER") ? 1 : 0;
                    digests.add(m.get("digest").asText());
                    applied.add(m.get("applied").asLong());
                }
                if (st.code() == 0 && leaders == 1 && digests.size() == 1 && applied.size() == 1) {
                    break;
                }
                members = null;
                Thread.sleep(300);
            }
            assertTrue(members != null, "no single leader with agreeing replicas within 90 s");
            assertEquals(3, members.size(), members.toPrettyString());
            QsCommandTest.Run table = qs("cluster", "status", "--replicas", replicas, "--group", "g");
            assertEquals(0, table.code(), table.err());
            assertTrue(table.out().startsWith("id  address"), table.out());
            assertTrue(table.out().contains("LEADER") && table.out().contains("FOLLOWER"), table.out());
            assertTrue(table.err().contains("asking 3 replicas"), table.err());
            QsCommandTest.Run csv = qs("cluster", "status", "--replicas", replicas, "--group", "g", "--csv");
            assertEquals(4, csv.out().strip().lines().count(), csv.out());
            assertTrue(csv.out().startsWith("id,address,role,term,leader,commit,applied,lag"), csv.out());
            for (ChildJvm.Running s : rs) {
                s.kill();
            }
            QsCommandTest.Run down =
                    qs("cluster", "status", "--replicas", replicas, "--group", "g", "--timeout", "500", "--json");
            assertEquals(1, down.code(), "no leader: exit 1; " + down.err());
            for (JsonNode m : Json.MAPPER.readTree(down.out())) {
                assertEquals("DOWN", m.get("role").asText(), m.toPrettyString());
            }
        } finally {
            for (ChildJvm.Running s : rs) {
                s.close();
            }
        }
    }

    @Test
    void badReplicaListsAreRefusedInOneLine() {
        StoreCommandsTest.assertOneLineError(
                qs("cluster", "status", "--replicas", "127.0.0.1"), 2, "expected HOST:PORT");
        StoreCommandsTest.assertOneLineError(
                qs("serve", dir.toString(), "--replicas", "127.0.0.1:7420,127.0.0.1:7430", "--id", "3"),
                2,
                "replica id 3 outside 1..2");
        StoreCommandsTest.assertOneLineError(qs("serve", dir.toString(), "--id", "1"), 2, "--id needs --replicas");
    }

    private static void copy(Path from, Path to) throws IOException {
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
}
