package dev.quickstore.cli;

import static dev.quickstore.cli.QsCommandTest.qs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.QsCommandTest.Run;
import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qs stats --pid}: a real second JVM ({@link OpenStoreChild}) keeps a store open, and the command - run in
 * this JVM - attaches to it (Attach API, local JMX agent) and prints that process's live counters; the clear
 * errors for a process that is gone, a process that is not a JVM and a JVM with no store open.
 */
class StatsPidTest {
    @TempDir
    Path tmp;

    @Test
    void printsTheCountersOfAStoreOpenInAnotherJvm() throws Exception {
        Path db = tmp.resolve("db");
        try (ChildJvm.Running child = ChildJvm.main(OpenStoreChild.class)
                .workDir(tmp)
                .jvmArgs("-Xmx128m")
                .args(db.toString(), "5")
                .timeout(Duration.ofSeconds(180))
                .start()) {
            String line = child.nextLine(Duration.ofSeconds(90));
            if (!"ready".equals(line)) {
                fail("child said " + line + "; " + child.describe());
            }
            String pid = Long.toString(child.pid());

            JsonNode all = StoreCommandsTest.json(qs("stats", "--json", "--pid", pid));
            assertEquals(1, all.size(), all.toPrettyString());
            JsonNode s = all.get(0);
            assertEquals(
                    db.toAbsolutePath().normalize().toString(), s.get("store").asText());
            assertEquals(5, s.get("commits").asLong(), s.toPrettyString());
            assertEquals(1, s.get("aborts").asLong(), s.toPrettyString());
            assertEquals(8, s.get("nextTxnId").asLong(), "the bootstrap, 5 commits and the abort: " + s);
            assertTrue(s.get("writeFaults").asLong() >= 1, "the view store faulted: " + s);
            assertTrue(s.get("redoBytes").asLong() > 0, s.toPrettyString());
            assertEquals(
                    s.get("bufferPoolPages").asLong(),
                    s.get("poolFramesUsed").asLong() + s.get("poolFramesFree").asLong());

            Run text = qs("stats", "--pid", pid, db.toString()); // the one store asked for, as text
            assertEquals(0, text.code(), text.err());
            assertTrue(text.out().lines().anyMatch(l -> l.matches("commits\\s+5")), text.out());
            assertTrue(text.out().lines().anyMatch(l -> l.startsWith("store ") && l.endsWith(db.toString())));

            StoreCommandsTest.assertOneLineError(
                    qs("stats", "--pid", pid, tmp.resolve("other").toString()),
                    ExitCodes.IO,
                    "no store " + tmp.resolve("other") + " open in process " + pid + " (open there: ");
            child.kill();
            StoreCommandsTest.assertOneLineError(qs("stats", "--pid", pid), ExitCodes.IO, "no process with id " + pid);
        }
    }

    @Test
    void aProcessThatIsNotAJvmOrHasNoStoreIsOneLine() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            StoreCommandsTest.assertOneLineError(
                    qs("stats", "--pid", Long.toString(sleep.pid())),
                    ExitCodes.IO,
                    "process " + sleep.pid() + " is not a Java virtual machine");
        } finally {
            sleep.destroyForcibly();
            sleep.waitFor();
        }
        // this JVM itself (read without attaching: a JVM may not attach to itself) has no store open here
        StoreCommandsTest.assertOneLineError(
                qs("stats", "--pid", Long.toString(ProcessHandle.current().pid())), ExitCodes.IO, "has no store open");
        StoreCommandsTest.assertOneLineError(qs("stats"), ExitCodes.USAGE, "needs DIR, qs://HOST:PORT or --pid PID");
    }
}
