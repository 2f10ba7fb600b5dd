package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The native build script fails loudly: the compiler's own message, and a clear line for a missing compiler. */
class NativeBuildTest {
    static final Path SOURCES = Path.of("src/main/c").toAbsolutePath();

    @TempDir
    Path tmp;

    record Result(int code, String output) {}

    Path copyOfSources() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("c"));
        try (Stream<Path> files = Files.list(SOURCES)) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    static Result run(Path script, Path out, String... env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of("bash", script.toString(), "lib", out.toString()));
        pb.redirectErrorStream(true);
        for (int i = 0; i < env.length; i += 2) {
            pb.environment().put(env[i], env[i + 1]);
        }
        Process p = pb.start();
        byte[] bytes = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("build.sh did not finish in 120 s");
        }
        return new Result(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
    }

    @Test
    void cleanSourcesBuildTheLibrary() throws Exception {
        Path dir = copyOfSources();
        Result r = run(dir.resolve("build.sh"), tmp.resolve("out"));
        assertEquals(0, r.code(), r.output());
        assertTrue(Files.isRegularFile(tmp.resolve("out/libquickstore.so")), r.output());
    }

    @Test
    void syntaxErrorFailsWithTheCompilersMessage() throws Exception {
        Path dir = copyOfSources();
        Files.writeString(dir.resolve("broken.c"), "int broken(void) { return 1 }\n");
        Result r = run(dir.resolve("build.sh"), tmp.resolve("out"));
        assertNotEquals(0, r.code());
        assertTrue(r.output().contains("broken.c:1:") && r.output().contains("error:"), r.output());
        assertTrue(!Files.exists(tmp.resolve("out/libquickstore.so")), "no library from a failed build");
    }

    @Test
    void warningsAreErrors() throws Exception {
        Path dir = copyOfSources();
        Files.writeString(dir.resolve("warns.c"), "int warns(int unused_parameter) { int unused; return 0; }\n");
        Result r = run(dir.resolve("build.sh"), tmp.resolve("out"));
        assertNotEquals(0, r.code());
        assertTrue(r.output().contains("[-Werror=unused-"), r.output());
    }

    @Test
    void missingCompilerIsOneClearLine() throws Exception {
        Path dir = copyOfSources();
        Result r = run(dir.resolve("build.sh"), tmp.resolve("out"), "CC", "no-such-cc-qs");
        assertEquals(2, r.code(), r.output());
        assertEquals(
                "error: no C compiler 'no-such-cc-qs' on PATH; QuickStore/J builds its native library with gcc"
                        + " - install it (e.g. 'apt-get install gcc') or set CC.",
                r.output().strip());
    }
}
