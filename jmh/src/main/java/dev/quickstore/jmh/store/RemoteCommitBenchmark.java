package dev.quickstore.jmh.store;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.RemoteTransaction;
import dev.quickstore.core.remote.ServerSecret;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A page-server client's commit against one log fsync at the server, in one run (issue 12: goal commit /
 * fsync &lt;= 1.3). {@link #remoteCommit}: begin, increment one counter (a write fault on a cached page),
 * commit - the diff and the read set travel to the server (a separate process, {@link PageServerProcess}),
 * which validates, applies through its buffer pool, logs and forces the log, answers, and the client drops
 * the written page. {@link #logFsync}: append 64 bytes to a file in the server's directory and {@code
 * FileChannel.force(false)} (fdatasync), what the server's log write costs at least. {@link #loopbackRoundTrip}
 * of {@link RemoteFaultBenchmark} measures the network share; run both for the full picture.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx1g"})
public class RemoteCommitBenchmark {

    /** A connected client. */
    @State(Scope.Thread)
    public static class Client {
        RemotePages client;
        long at;

        @Setup(Level.Trial)
        public void connect(PageServerProcess server) throws IOException {
            client = RemotePages.connect(server.uri, server.dir.resolve("db").resolve(ServerSecret.FILE), 5000);
            at = server.offsets[0];
        }

        @TearDown(Level.Trial)
        public void close() {
            long[] c = client.transactionCounters();
            client.close();
            if (c[1] != 0) {
                throw new IllegalStateException("RemoteCommitBenchmark is invalid: " + c[1] + " conflicts");
            }
        }
    }

    /** A file in the server's directory, appended to and forced. */
    @State(Scope.Thread)
    public static class LogFile {
        FileChannel ch;
        ByteBuffer record = ByteBuffer.allocateDirect(64);
        long position;
        Path file;

        @Setup(Level.Trial)
        public void open(PageServerProcess server) throws IOException {
            file = server.dir.resolve("fsync-baseline.log");
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            ch.close();
            Files.deleteIfExists(file);
        }
    }

    @Benchmark
    public long remoteCommit(Client c) {
        try (RemoteTransaction t = c.client.begin()) {
            MemorySegment v = t.view();
            v.set(JAVA_LONG_UNALIGNED, c.at, v.get(JAVA_LONG_UNALIGNED, c.at) + 1);
            return t.commit();
        }
    }

    @Benchmark
    public long logFsync(LogFile f) throws IOException {
        f.record.clear();
        f.ch.write(f.record, f.position);
        f.position += 64;
        f.ch.force(false);
        return f.position;
    }
}
