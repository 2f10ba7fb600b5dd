package dev.quickstore.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real child processes: exit codes and streams, the watchdog's kill, and a real SIGKILL. */
class ChildJvmTest {
    @TempDir
    Path dir;

    @Test
    void runReturnsExitCodeAndBothStreams() throws Exception {
        ChildJvm.Result r = ChildJvm.main(EchoChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx64m")
                .args("exit", "3")
                .run();
        assertEquals(3, r.exitCode(), r.describe());
        assertFalse(r.timedOut());
        assertEquals("out 3", r.stdout().strip());
        assertEquals("err 3", r.stderr().strip());
        assertTrue(r.describe().contains("EchoChild exit 3"), r.describe());
    }

    @Test
    void theWatchdogKillsAChildThatRunsTooLong() throws Exception {
        ChildJvm.Result r = ChildJvm.main(EchoChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx64m")
                .args("wait")
                .timeout(Duration.ofSeconds(3))
                .run();
        assertTrue(r.timedOut(), r.describe());
        assertEquals(-1, r.exitCode());
        assertTrue(r.describe().contains("TIMED OUT"), r.describe());
    }

    @Test
    void startReadsLinesAndKillSendsSigkill() throws Exception {
        try (ChildJvm.Running child = ChildJvm.main(EchoChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx64m")
                .args("wait")
                .start()) {
            assertEquals("ready", child.nextLine(Duration.ofSeconds(60)), child::describe);
            assertTrue(child.alive());
            assertNull(child.nextLine(Duration.ofMillis(50)), "nothing more while it waits");
            child.kill();
            assertFalse(child.alive());
            assertEquals(137, child.exitCode(), "128 + SIGKILL");
            assertTrue(child.remainingLines().isEmpty());
            assertTrue(child.ended());
            assertNull(child.nextLine(Duration.ofMillis(1)));
        }
    }
}
