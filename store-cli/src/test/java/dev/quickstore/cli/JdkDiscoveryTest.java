package dev.quickstore.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/lib/jdk.sh: how the README commands find a JDK 25+ on a machine whose default java is older. */
class JdkDiscoveryTest {
    static final Path SCRIPT = Path.of("../bin/lib/jdk.sh").toAbsolutePath().normalize();

    @TempDir
    Path jvms;

    record Result(int code, String out, String err) {}

    Path fakeJdk(String name, String version) throws IOException {
        Path home = Files.createDirectories(jvms.resolve(name));
        Files.createDirectories(home.resolve("bin"));
        Path java = home.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"" + version + "\"' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + "\"\n");
        return home;
    }

    Result source(String javaHome) throws Exception {
        ProcessBuilder pb =
                new ProcessBuilder(List.of("bash", "-c", ". \"$1\" && echo \"$JAVA_HOME\"", "x", SCRIPT.toString()));
        pb.environment().remove("JAVA_HOME");
        if (javaHome != null) {
            pb.environment().put("JAVA_HOME", javaHome);
        }
        pb.environment().put("QS_JVM_DIR", jvms.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "jdk.sh hung");
        return new Result(p.exitValue(), out.strip(), err.strip());
    }

    @Test
    void jdk17OnlyGetsTheOneLineInstallMessage() throws Exception {
        Path j17 = fakeJdk("java-17-openjdk-amd64", "17.0.15");
        Result r = source(j17.toString());
        assertEquals(3, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("error: QuickStore/J needs JDK 25+; none found"), r.err());
        assertTrue(r.err().contains("install one"), r.err());
    }

    @Test
    void findsTheNewestJdk25PlusInTheJvmDirectory() throws Exception {
        fakeJdk("java-17-openjdk-amd64", "17.0.15");
        fakeJdk("temurin-25-jdk-amd64", "25.0.3");
        Path j26 = fakeJdk("jdk-26", "26");
        Result r = source(null);
        assertEquals(0, r.code(), r.err());
        assertEquals(j26.toString(), r.out());
    }

    @Test
    void honoursJavaHomeWhenItIs25OrNewer() throws Exception {
        fakeJdk("jdk-26", "26");
        Path mine = fakeJdk("my-25", "25.0.1");
        Result r = source(mine.toString());
        assertEquals(mine.toString(), r.out());
    }

    @Test
    void ignoresAnOldJavaHomeAndFallsBackToTheDirectory() throws Exception {
        Path j17 = fakeJdk("old", "1.8.0_402");
        Path j25 = fakeJdk("temurin-25-jdk-amd64", "25.0.3");
        Result r = source(j17.toString());
        assertEquals(j25.toString(), r.out());
    }
}
