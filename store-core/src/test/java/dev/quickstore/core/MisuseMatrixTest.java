package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.core.volume.VolumeHeader;
import dev.quickstore.testkit.ChildJvm;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rows of the misuse matrix (docs/misuse.md) that had no test of their own: each misuse gets a typed exception
 * or a documented behaviour, never a JVM crash or wrong data.
 */
class MisuseMatrixTest {
    @TempDir
    Path dir;

    @Test
    void aStoreFromANewerFormatVersionIsRefusedNamingFileFieldAndVersions() throws Exception {
        Path db = dir.resolve("db");
        try (Store s = Store.create(db)) {
            s.checkpoint();
        }
        Path volume = VolumeFile.volumePath(db);
        try (FileChannel ch = FileChannel.open(volume, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer page = ByteBuffer.allocate(8192);
            ch.read(page, 0);
            MemorySegment seg = MemorySegment.ofArray(page.array());
            seg.set(PageHeader.INT, VolumeHeader.FORMAT_VERSION_OFFSET, VolumeHeader.POINTER_FORMAT_VERSION + 1);
            PageHeader.seal(seg); // a well-formed page of a later format, not a damaged one
            ch.write(ByteBuffer.wrap(page.array()), 0);
        }
        StoreFormatException e =
                assertThrows(StoreFormatException.class, () -> Store.open(db).close());
        String m = e.getMessage();
        assertTrue(m.contains(volume.getFileName().toString()), m);
        assertTrue(m.contains("format version"), m);
        assertTrue(m.contains(String.valueOf(VolumeHeader.POINTER_FORMAT_VERSION + 1)), m);
        assertTrue(m.contains("newer"), m);
    }

    @Test
    void severalThreadsInOneTransactionAreSerializedByTheStoreLatch() throws Exception {
        // the rule (Store, Transaction javadoc): a transaction may be used from several threads; every
        // operation takes the store latch, so their operations interleave whole and all of them commit
        Path db = dir.resolve("db");
        int threads = 4;
        int perThread = 500;
        List<Long> refs = new ArrayList<>();
        try (Store s = Store.create(db)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads); // not the common pool: one thread here
            try (Transaction tx = s.begin()) {
                List<Future<List<Long>>> fs = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int id = t;
                    fs.add(pool.submit(() -> {
                        List<Long> mine = new ArrayList<>();
                        for (int i = 0; i < perThread; i++) {
                            long a = tx.allocate(16);
                            tx.putLong(a, 0, id * 1_000_000L + i);
                            mine.add(a);
                        }
                        return mine;
                    }));
                }
                for (Future<List<Long>> f : fs) {
                    refs.addAll(f.get(60, TimeUnit.SECONDS));
                }
                tx.commit();
            } finally {
                pool.shutdownNow();
            }
        }
        assertEquals(threads * perThread, refs.stream().distinct().count(), "every allocation has its own address");
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            long[] seen = new long[threads];
            for (long a : refs) {
                long v = tx.getLong(a, 0);
                seen[(int) (v / 1_000_000L)]++;
            }
            long[] expected = new long[threads];
            java.util.Arrays.fill(expected, perThread);
            assertArrayEquals(expected, seen);
        }
    }

    @Test
    void anInterruptedThreadFaultsPagesInAndCommitsAndKeepsItsInterruptStatus() throws Exception {
        // the fault path never looks at Java's interrupt status (it never calls Java): an interrupted thread's
        // loads are served; the store's file channels, which an interrupt closes, are reopened and the
        // operation repeated (RealFileIO); the status is still set for the code that asked for the interrupt
        Path db = dir.resolve("db");
        long a;
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            a = tx.allocate(64);
            tx.putLong(a, 8, 0x1234_5678_9abcL);
            tx.commit();
        }
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            MemorySegment view = s.view();
            Thread.currentThread().interrupt();
            try {
                long v = view.get(ValueLayout.JAVA_LONG_UNALIGNED, a - s.arenaBase() + 8); // a cold fault
                assertEquals(0x1234_5678_9abcL, v);
                assertEquals(0x1234_5678_9abcL, tx.getLong(a, 8), "store operations under the latch too");
                tx.putLong(a, 16, 77L);
                // commit writes and forces the log on channels an interrupt would close: they are reopened
                tx.commit();
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
            } finally {
                Thread.interrupted();
            }
            s.checkpoint(); // page write-back and the control file, not interrupted
        }
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            assertEquals(77L, tx.getLong(a, 16), "the interrupted thread's commit is durable");
        }
    }

    @Test
    void objectsLargerThanAPageNeedALargeObjectAndLargerThanAnExtentWork() throws Exception {
        Path db = dir.resolve("db");
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tx.allocate(8192));
            assertTrue(e.getMessage().contains("allocateLarge"), e.getMessage());
            long size = 40L * 8192 + 123; // more than two 16-page extents
            long big = tx.allocateLarge(size, 0);
            byte[] tail = "the end of a large object".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            tx.writeLarge(big, size - tail.length, tail, 0, tail.length);
            tx.commit();
            try (Transaction t2 = s.begin()) {
                byte[] back = new byte[tail.length];
                t2.readLarge(big, size - tail.length, back, 0, back.length);
                assertArrayEquals(tail, back);
                assertEquals(size, t2.largeSize(big));
            }
        }
    }

    @Test
    void aReadOnlyStoreDirectoryIsRefusedForUpdatesByNameAndStillInspected() throws Exception {
        Path db = dir.resolve("db");
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            long a = tx.allocate(64);
            tx.putLong(a, 16, 42L);
            tx.setRoot("answer", a);
            tx.commit();
        }
        // CI runs as root, for whom permissions do not apply: a read-only bind mount in a private mount namespace
        // (unshare -m) makes the directory really read-only (EROFS) for the child JVM alone.
        Process probe = new ProcessBuilder("unshare", "-m", "true")
                .redirectErrorStream(true)
                .start();
        assumeTrue(
                probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0,
                "needs unshare -m (root or CAP_SYS_ADMIN) for a read-only bind mount");
        ChildJvm.Result r = ChildJvm.main(ReadOnlyDirectoryChild.class)
                .wrapper("unshare", "-m", "sh", "-c", "mount --bind -o ro \"$0\" \"$0\" && exec \"$@\"", db.toString())
                .args(db.toString())
                .timeout(Duration.ofSeconds(120))
                .run();
        assertEquals(0, r.exitCode(), r::describe);
        String out = r.stdout();
        assertTrue(out.contains("writable false"), r.describe());
        assertTrue(
                out.contains(
                        "refused store directory " + db.toAbsolutePath() + " is not writable (" + db.resolve("lock")),
                r.describe());
        assertTrue(out.contains("Read-only file system"), r.describe());
        assertTrue(out.contains("files 0 problems, roots {answer="), r.describe());
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            assertEquals(42L, tx.getLong(tx.root("answer"), 16), "nothing changed, and it opens writable again");
        }
    }
}
