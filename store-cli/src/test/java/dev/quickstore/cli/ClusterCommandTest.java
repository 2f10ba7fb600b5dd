package dev.quickstore.cli;

import static dev.quickstore.cli.QsCommandTest.qs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.LoopbackReplicas;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qs serve --replicas} as three real processes, {@code qs cluster status} asking them, and {@code qs cluster
 * add}/{@code remove} adding a fourth {@code qs serve} and removing it again.
 */
class ClusterCommandTest {
    @TempDir
    Path dir;

    @Test
    void threeReplicasElectALeaderThatClusterStatusShowsAndAFourthIsAddedAndRemoved() throws Exception {
        Path db = dir.resolve("db");
        assertEquals(0, qs("create", db.toString()).code());
        ServerSecret.loadOrCreate(db); // the seed's secret: every replica gets the same copy
        List<Integer> ports = LoopbackReplicas.freePortPairs(4);
        String replicas = LoopbackReplicas.replicasSpec(ports.subList(0, 3));
        List<ChildJvm.Running> rs = new ArrayList<>();
        try {
            for (int id = 1; id <= 3; id++) {
                rs.add(serve(db, replicas, id, ports));
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

            // a fourth replica: started with the list of four, then added; removed again
            String fourth = "127.0.0.1:" + ports.get(3);
            assertRefused(
                    qs("cluster", "add", "--replicas", replicas, "--group", "g", "--new", fourth), "does not answer");
            rs.add(serve(db, LoopbackReplicas.replicasSpec(ports), 4, ports));
            QsCommandTest.Run add =
                    qs("cluster", "add", "--replicas", replicas, "--group", "g", "--new", fourth, "--json");
            assertEquals(0, add.code(), add.err());
            assertEquals(4, Json.MAPPER.readTree(add.out()).size(), add.out());
            assertTrue(add.err().contains("members are now " + LoopbackReplicas.replicasSpec(ports)), add.err());
            QsCommandTest.Run remove =
                    qs("cluster", "remove", "--replicas", replicas, "--group", "g", "--member", fourth);
            assertEquals(0, remove.code(), remove.err());
            assertTrue(remove.out().startsWith("id  address"), remove.out());
            assertEquals(4, remove.out().strip().lines().count(), remove.out());
            assertRefused(
                    qs("cluster", "remove", "--replicas", replicas, "--group", "g", "--member", fourth),
                    "unknown member " + fourth);
            for (ChildJvm.Running s : rs) {
                s.kill();
            }
            QsCommandTest.Run down =
                    qs("cluster", "status", "--replicas", replicas, "--group", "g", "--timeout", "500", "--json");
            assertEquals(1, down.code(), "no leader: exit 1; " + down.err());
            for (JsonNode m : Json.MAPPER.readTree(down.out())) {
                assertEquals("DOWN", m.get("role").asText(), m.toPrettyString());
            }
            assertRefused(
                    qs(
                            "cluster",
                            "remove",
                            "--replicas",
                            replicas,
                            "--group",
                            "g",
                            "--member",
                            fourth,
                            "--timeout",
                            "500"),
                    "no leader");
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
        StoreCommandsTest.assertOneLineError(
                qs("cluster", "add", "--replicas", "127.0.0.1:7420", "--new", "127.0.0.1:7430,127.0.0.1:7440"),
                2,
                "--new: one replica, HOST:PORT, not 2");
        StoreCommandsTest.assertOneLineError(
                qs("cluster", "remove", "--replicas", "127.0.0.1:7420", "--member", "7430"), 2, "expected HOST:PORT");
    }

    /** Exit 1, the progress line, then one error line naming the reason; nothing on stdout, no stack trace. */
    private static void assertRefused(QsCommandTest.Run r, String fragment) {
        assertEquals(1, r.code(), r.out() + r.err());
        List<String> lines = r.err().lines().toList();
        assertEquals(2, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("qs cluster: "), r.err());
        assertTrue(lines.get(1).startsWith("qs: error: ") && lines.get(1).contains(fragment), r.err());
        assertEquals("", r.out());
    }

    /** Starts {@code qs serve} replica {@code id} of {@code replicas} in its own copy of the seed {@code db}. */
    private ChildJvm.Running serve(Path db, String replicas, int id, List<Integer> ports) throws Exception {
        Path r = dir.resolve("r" + id);
        LoopbackReplicas.copySeed(db, r);
        ChildJvm.Running s = LoopbackReplicas.start(
                ChildJvm.main(Qs.class)
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
                        .timeout(Duration.ofSeconds(300)),
                "listening qs://127.0.0.1:" + ports.get(id - 1));
        return s;
    }
}
