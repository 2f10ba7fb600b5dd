package dev.quickstore.jmh.store;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.jmh.BenchFiles;
import java.io.IOException;
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
 * Durable commit latency versus its floor, measured in the same run on the same file system:
 * {@link #commitOneUpdate} = begin, update one 8-byte field, commit (diff, REDO + COMMIT, one group
 * commit write + fdatasync); baseline {@link #fsyncBaseline} = append the same number of bytes to a
 * file in the store's log directory and fdatasync it. Goal: commit / baseline &lt;= 1.2. A stricter
 * floor, {@link #fsyncOverwriteBaseline}, rewrites the same bytes in place (already allocated blocks,
 * no file-size change for fdatasync to journal): the cheapest durable write this file system offers.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class DurableCommitBenchmark {
    Path dir;
    Store store;
    long ref;
    long counter;
    FileChannel baseline;
    long baselinePos;
    final ByteBuffer record = ByteBuffer.allocate(
            LogRecord.HEADER + LogRecord.PAGE_HEADER + LogRecord.RANGE_HEADER + 8 + LogRecord.HEADER + 8);

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory(
                Path.of(System.getProperty("qs.bench.dir", System.getProperty("java.io.tmpdir"))), "qs-commit");
        store = Store.create(dir.resolve("db"));
        try (Transaction tx = store.begin()) {
            ref = tx.allocate(64);
            tx.commit();
        }
        baseline = FileChannel.open(
                dir.resolve("db").resolve(VolumeFile.LOG_DIR).resolve("baseline.bin"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        baseline.close();
        store.close();
        BenchFiles.deleteTree(dir);
    }

    @Benchmark
    public void commitOneUpdate() {
        try (Transaction tx = store.begin()) {
            tx.putLong(ref, 0, ++counter);
            tx.commit();
        }
    }

    @Benchmark
    public void fsyncOverwriteBaseline() throws IOException {
        record.clear();
        record.putLong(0, ++counter);
        long pos = 0;
        while (record.hasRemaining()) {
            pos += baseline.write(record, pos);
        }
        baseline.force(false);
    }

    @Benchmark
    public void fsyncBaseline() throws IOException {
        record.clear();
        record.putLong(0, ++counter);
        while (record.hasRemaining()) {
            baselinePos += baseline.write(record, baselinePos);
        }
        baseline.force(false);
    }
}
