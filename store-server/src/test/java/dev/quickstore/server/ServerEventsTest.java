package dev.quickstore.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.testkit.ChildJvm;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page server's {@code dev.quickstore.ServerRequest} events, recorded by the server process itself
 * ({@code -XX:StartFlightRecording}, as an operator would run it) while this JVM is its client: one event per
 * page read the client's fault path asked for, and one per commit, with the server store's own Commit event.
 */
class ServerEventsTest {
    @TempDir
    Path dir;

    @Test
    void pageReadsAndCommitsAreRecordedByTheServer() throws Exception {
        Path db = dir.resolve("db");
        long ref;
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            ref = tx.allocate(64) - s.arenaBase();
            tx.commit();
        }
        Path jfr = dir.resolve("server.jfr");
        long readFaults;
        try (ChildJvm.Running server = ChildJvm.main(PageServerMain.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m", "-XX:StartFlightRecording=filename=" + jfr + ",dumponexit=true")
                .args(db.toString(), "127.0.0.1:0")
                .timeout(Duration.ofSeconds(240))
                .start()) {
            String line = server.nextLine(Duration.ofSeconds(60));
            while (line != null && !line.startsWith("listening ")) {
                line = server.nextLine(Duration.ofSeconds(60)); // JFR's own start message comes first
            }
            if (line == null) {
                fail("server did not start; " + server.describe());
            }
            String uri = line.substring("listening ".length());
            readFaults = assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
                try (RemotePages client = RemotePages.connect(uri, db.resolve(ServerSecret.FILE), 3000)) {
                    try (RemoteTransaction t = client.begin()) {
                        MemorySegment v = t.view();
                        long old = v.get(ValueLayout.JAVA_LONG_UNALIGNED, ref); // a read fault, then a write fault
                        v.set(ValueLayout.JAVA_LONG_UNALIGNED, ref, old + 41L);
                        t.commit();
                    }
                    return client.counters().readFaults();
                }
            });
            server.terminate(); // SIGTERM: the recording is dumped at exit
            assertEquals(143, server.exitCode(), server.describe());
        }
        List<RecordedEvent> all = RecordingFile.readAllEvents(jfr);
        List<RecordedEvent> requests = all.stream()
                .filter(e -> e.getEventType().getName().equals("dev.quickstore.ServerRequest"))
                .toList();
        List<RecordedEvent> reads = requests.stream()
                .filter(e -> e.getString("kind").equals("page read"))
                .toList();
        assertTrue(readFaults > 0, "the client faulted pages in: " + readFaults + ", " + reads.size() + " events");
        assertEquals(readFaults, reads.size(), "one event per page read of the client's fault path");
        for (RecordedEvent e : reads) {
            assertEquals("ok", e.getString("outcome"), e.toString());
            assertEquals(8192, e.getLong("bytes"), e.toString());
            assertTrue(e.getLong("page") >= 0);
            assertEquals(db.toString(), e.getString("store"));
        }
        List<RecordedEvent> commits = requests.stream()
                .filter(e -> e.getString("kind").equals("commit"))
                .toList();
        assertEquals(1, commits.size(), String.valueOf(commits));
        assertEquals("committed", commits.get(0).getString("outcome"));
        assertTrue(commits.get(0).getLong("pagesWritten") >= 1);
        assertTrue(commits.get(0).getLong("bytes") >= 1, "the changed byte(s): " + commits.get(0));
        List<RecordedEvent> storeCommits = all.stream()
                .filter(e -> e.getEventType().getName().equals("dev.quickstore.Commit"))
                .filter(e -> e.getLong("pages") > 0)
                .toList();
        assertEquals(1, storeCommits.size(), "the server's store logged the client's transaction once");
        assertFalse(storeCommits.get(0).getBoolean("forced"), "a group commit forces after applying");
    }
}
