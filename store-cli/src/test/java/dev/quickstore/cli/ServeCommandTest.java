package dev.quickstore.cli;

import static dev.quickstore.cli.QsCommandTest.qs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code qs serve} as a real second process, and {@code qs info qs://...} asking it over a real socket. */
class ServeCommandTest {
    @TempDir
    Path dir;

    @Test
    void serveThenInfoOverTheWire() throws Exception {
        Path db = dir.resolve("db");
        assertEquals(0, qs("create", db.toString()).code());
        try (ChildJvm.Running server = ChildJvm.main(Qs.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args("serve", db.toString(), "--listen", "127.0.0.1:0")
                .timeout(Duration.ofSeconds(240))
                .start()) {
            String line = server.nextLine(Duration.ofSeconds(60));
            if (line == null || !line.startsWith("listening qs://127.0.0.1:")) {
                server.kill();
                fail("qs serve said " + line + "; " + server.describe());
            }
            assertTrue(line.contains("server.secret"), line);
            String uri = line.split(" ")[1];
            String secret = db.resolve("server.secret").toString();

            JsonNode n = StoreCommandsTest.json(qs("info", "--json", uri, "--secret", secret));
            assertEquals(
                    VolumeFile.readHeader(db).creationId().toString(),
                    n.get("creationId").asText());
            assertEquals(8192, n.get("pageSize").asInt());
            assertTrue(n.get("pagesFaultedIn").asLong() >= 1, n.toPrettyString());
            assertTrue(n.get("session").asLong() >= 1, n.toPrettyString());

            JsonNode cl = StoreCommandsTest.json(qs("clients", "--json", uri, "--secret", secret));
            assertEquals(1, cl.get("sessions").size(), cl.toPrettyString()); // this command's own session
            assertTrue(cl.get("pagesServed").asLong() >= 1, cl.toPrettyString());
            QsCommandTest.Run table = qs("clients", uri, "--secret", secret);
            assertEquals(0, table.code(), table.err());
            assertTrue(table.out().contains("session  peer"), table.out());
            assertTrue(
                    table.out()
                            .contains("quickstore-client pid "
                                    + ProcessHandle.current().pid()),
                    table.out());
            StoreCommandsTest.assertOneLineError(qs("info", uri), 2, "needs --secret FILE");
            JsonNode st = StoreCommandsTest.json(qs("stats", "--json", uri, "--secret", secret));
            assertTrue(st.get("pagesServed").asLong() >= 1, st.toPrettyString()); // a live server's counters
            assertTrue(st.get("storeLogEndLsn").isNumber(), st.toPrettyString());
            assertEquals("optimistic", st.get("concurrency").asText());
            StoreCommandsTest.assertOneLineError(qs("stats", uri), 2, "needs --secret FILE");
            JsonNode v = StoreCommandsTest.json(qs("verify", "--json", uri, "--secret", secret));
            assertTrue(v.get("ok").asBoolean(), v.toPrettyString());
            assertTrue(v.get("pagesChecked").asLong() >= 1, v.toPrettyString());
            StoreCommandsTest.assertOneLineError(qs("verify", uri), 2, "needs --secret FILE");
            StoreCommandsTest.assertOneLineError(qs("page", uri, "1"), 2, "is a page server's address");
            Path wrong = dir.resolve("wrong");
            java.nio.file.Files.createDirectories(wrong);
            dev.quickstore.core.remote.ServerSecret.loadOrCreate(wrong);
            StoreCommandsTest.assertOneLineError(
                    qs("info", uri, "--secret", wrong.resolve("server.secret").toString()), 4, "authentication failed");
            StoreCommandsTest.assertOneLineError(
                    qs("info", "qs://127.0.0.1:1", "--secret", secret), 4, "connection refused");

            server.terminate();
            String log = server.stderr();
            assertTrue(log.contains("qs serve: serving " + db), log);
            assertTrue(log.contains("authenticated: session"), log);
            assertTrue(log.contains("wrong proof"), log);
            assertTrue(log.contains("verify: OK"), log);
            assertTrue(log.contains("stopped ("), log);
        }
        assertEquals(0, qs("verify", db.toString()).code(), "the store is closed cleanly and intact");
    }

    @Test
    void serveRejectsABadListenAddressInOneLine() {
        StoreCommandsTest.assertOneLineError(
                qs("serve", dir.toString(), "--listen", "localhost"), 2, "expected HOST:PORT");
    }
}
