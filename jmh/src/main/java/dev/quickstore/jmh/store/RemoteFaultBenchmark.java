package dev.quickstore.jmh.store;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.mmu.MappedArena;
import dev.quickstore.mmu.PageServerSocket;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A page fault served by the page server over loopback against the same fault served from the local volume
 * file, in one run (issue 12: goal remote/local &lt;= 3). The server is a real second process ({@code
 * PageServerMain}, started from this fork's class path) over a store of {@value #PAGES} data pages; both
 * sides evict every page before each invocation (memory kept, as the buffer pool recycles it), then touch
 * one word of each page: one read fault per operation, which each state checks against the arena's
 * counters at the end of the trial (a benchmark that stops faulting fails instead of reporting a number).
 *
 * <ul>
 *   <li>{@link #localFault}: the file source - pread of an 8 KiB page from the OS page cache + CRC32C +
 *       mprotect;
 *   <li>{@link #remoteFault}: the page-server source - a 32-byte request and a 32-byte + 8 KiB answer over
 *       a loopback TCP connection (qs_socket.c), the server reading the page from its buffer pool (Netty
 *       I/O thread, store latch), then the same CRC32C + mprotect;
 *   <li>{@link #loopbackRoundTrip}: the baseline a served fault cannot beat - the same request and answer
 *       sizes between this process and a {@link LoopbackEcho} process that does nothing else.
 * </ul>
 *
 * Ratios to report: remoteFault / localFault (the goal), and remoteFault / (localFault +
 * loopbackRoundTrip), what the server and the client's fault path add to the I/O they need. On a virtual
 * machine whose idle vCPUs wake slowly the round trip alone is many local faults (docs/results.md).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class RemoteFaultBenchmark {
    static final int PAGES = 256;

    /** A client of the server: its cache is dropped before each invocation. */
    @State(Scope.Thread)
    public static class Remote {
        RemotePages client;
        MemorySegment view;
        FaultCounters start;
        long ops;
        int pageSize;
        long pages;

        @Setup(Level.Trial)
        public void connect(PageServerProcess server) throws IOException {
            client = RemotePages.connect(server.uri, server.dir.resolve("db").resolve(ServerSecret.FILE), 5000);
            view = client.view();
            pageSize = client.pageSize();
            pages = client.pageCount();
            start = client.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            client.dropCache();
            ops += PAGES;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = client.counters();
            client.close();
            LocalFile.expect("remote readFaults", ops, c.readFaults() - start.readFaults());
            LocalFile.expect("remote refusals", 0, c.refusals() - start.refusals());
        }
    }

    /** A connection to a {@link LoopbackEcho} process: the bare round trip. */
    @State(Scope.Thread)
    public static class Echo {
        Process process;
        PageServerSocket socket;
        byte[] request = new byte[32];
        int answer;

        @Setup(Level.Trial)
        public void start() throws IOException {
            int pageSize = 8192;
            answer = 32 + pageSize;
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            process = new ProcessBuilder(List.of(
                            java,
                            "-Xmx64m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            LoopbackEcho.class.getName(),
                            Integer.toString(pageSize)))
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String line = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            if (line == null || !line.startsWith("listening ")) {
                process.destroyForcibly();
                throw new IllegalStateException("echo process did not start: " + line);
            }
            socket = PageServerSocket.dial(
                    new java.net.InetSocketAddress("127.0.0.1", Integer.parseInt(line.substring(10))), 5000);
        }

        @TearDown(Level.Trial)
        public void stop() throws InterruptedException {
            socket.close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** The same volume file as a local file source. */
    @State(Scope.Thread)
    public static class LocalFile {
        MappedArena arena;
        MemorySegment view;
        FaultCounters start;
        long ops;
        int pageSize;
        long pages;

        @Setup(Level.Trial)
        public void open(PageServerProcess server) {
            try (RemotePages probe =
                    RemotePages.connect(server.uri, server.dir.resolve("db").resolve(ServerSecret.FILE), 5000)) {
                pageSize = probe.pageSize();
                pages = probe.pageCount();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            arena = MappedArena.open(pages * pageSize, pageSize, 0);
            arena.reserve(
                    0,
                    pages,
                    arena.sources().addFileSource(server.dir.resolve("db").resolve("volume.qs"), 0),
                    0);
            arena.transaction(true);
            view = arena.view();
            start = arena.counters();
        }

        @Setup(Level.Invocation)
        public void arm() {
            arena.evict(0, pages, false, true);
            ops += PAGES;
        }

        @TearDown(Level.Trial)
        public void check() {
            FaultCounters c = arena.counters();
            arena.close();
            expect("local readFaults", ops, c.readFaults() - start.readFaults());
            expect("local refusals", 0, c.refusals() - start.refusals());
        }

        static void expect(String what, long expected, long actual) {
            if (expected != actual) {
                throw new IllegalStateException("RemoteFaultBenchmark is invalid: " + what + " = " + actual
                        + ", expected " + expected + " (one fault per measured operation)");
            }
        }
    }

    /** One word of each of the first {@value #PAGES} pages (the store has a few more: space maps, roots). */
    private static long touch(MemorySegment view, long pages, int pageSize) {
        if (pages < PAGES) {
            throw new IllegalStateException("the store has " + pages + " pages, fewer than " + PAGES);
        }
        long s = 0;
        for (long p = 0; p < PAGES; p++) {
            s += view.get(JAVA_LONG, p * pageSize + 8);
        }
        return s;
    }

    /** One 32-byte request and a 32-byte + one-page answer between two processes, nothing else. */
    @Benchmark
    public int loopbackRoundTrip(Echo e) throws IOException {
        e.socket.send(e.request, 5000);
        return e.socket.receive(e.answer, 5000).length;
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public long localFault(LocalFile f) {
        return touch(f.view, f.pages, f.pageSize);
    }

    @Benchmark
    @OperationsPerInvocation(PAGES)
    public long remoteFault(Remote r) {
        return r.client.read(() -> touch(r.view, r.pages, r.pageSize));
    }
}
