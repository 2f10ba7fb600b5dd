package dev.quickstore.jmh.store;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.jmh.BenchFiles;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A store of {@value RemoteFaultBenchmark#PAGES} data pages (one 7,000-byte object each, seeded random bytes) served by a page
 * server that is a real second process ({@code PageServerMain}, started from this fork's class path), for
 * the page-server benchmarks. Stopped with SIGTERM and deleted at the end of the trial.
 */
@State(Scope.Benchmark)
public class PageServerProcess {
    Path dir;
    Process process;
    String uri;
    long pages;
    /** Arena offsets of the objects, one per page. */
    long[] offsets = new long[RemoteFaultBenchmark.PAGES];

    @Setup(Level.Trial)
    public void start() throws IOException {
        dir = Files.createTempDirectory("qs-page-server-");
        Path db = dir.resolve("db");
        Random r = new Random(42);
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            byte[] b = new byte[7000]; // one object per page
            for (int i = 0; i < RemoteFaultBenchmark.PAGES; i++) {
                r.nextBytes(b);
                long ref = tx.allocate(b.length);
                tx.write(ref, 0, b);
                offsets[i] = ref - s.arenaBase();
            }
            tx.commit();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        process = new ProcessBuilder(List.of(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-Xmx512m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        "dev.quickstore.server.PageServerMain",
                        db.toString(),
                        "127.0.0.1:0"))
                .redirectError(dir.resolve("server.log").toFile())
                .start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("listening ")) {
            process.destroyForcibly();
            throw new IllegalStateException(
                    "page server did not start: " + line + "; " + Files.readString(dir.resolve("server.log")));
        }
        uri = line.substring("listening ".length());
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        BenchFiles.deleteTree(dir);
    }
}
