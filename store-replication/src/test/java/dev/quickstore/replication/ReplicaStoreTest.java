package dev.quickstore.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.ServedStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.TransactionConflictException;
import dev.quickstore.testkit.LoopbackReplicas;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The determinism a replicated store rests on (docs/replication.md): replicas that start from the same seed and
 * apply the same commits reach the same verdicts, the same page LSNs and the same page bytes - also when one of
 * them is restored from another's snapshot half-way and continues from there.
 */
class ReplicaStoreTest {
    @TempDir
    Path dir;

    private long[] off;
    private int pageSize;

    private List<Path> replicas(int n) throws Exception {
        Path seed = dir.resolve("seed");
        off = Seeds.build(seed, 4);
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path r = dir.resolve("r" + i);
            LoopbackReplicas.copySeed(seed, r);
            out.add(r);
        }
        return out;
    }

    private long lsnOf(ReplicaStore r, long page) {
        byte[] b = new byte[r.store().pageSize()];
        ServedStore.of(r.store()).readCommittedPage(page, b);
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(PageHeader.LSN);
    }

    /** A commit writing {@code value} into object {@code i}, having read its page at {@code lsn}. */
    private CommitMessages.Commit write(int i, long lsn, long value) {
        long page = off[i] / pageSize;
        int at = (int) (off[i] % pageSize);
        byte[] v = ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(value)
                .array();
        return new CommitMessages.Commit(
                0, List.of(), List.of(new CommitMessages.PageWrite(page, lsn, new int[] {at}, new byte[][] {v})));
    }

    /** Commit k of the script: object k % 4 gets k, validated against the page LSN replica {@code r} has now. */
    private CommitMessages.Commit next(ReplicaStore r, int k) {
        return write(k % 4, lsnOf(r, off[k % 4] / pageSize), k);
    }

    @Test
    void replicasApplyingTheSameEntriesAgreeAlsoAfterARestoreFromASnapshot() throws Exception {
        List<Path> dirs = replicas(3);
        try (ReplicaStore a = new ReplicaStore(dirs.get(0));
                ReplicaStore b = new ReplicaStore(dirs.get(1));
                ReplicaStore c = new ReplicaStore(dirs.get(2))) {
            a.restore(null);
            b.restore(null);
            c.restore(null);
            pageSize = a.store().pageSize();
            assertEquals(a.digest(), b.digest(), "the same seed");
            List<CommitMessages.Commit> log = new ArrayList<>();
            for (int k = 1; k <= 12; k++) {
                CommitMessages.Commit e = next(a, k);
                log.add(e);
                var ra = (CommitMessages.Applied) a.apply(e);
                var rb = (CommitMessages.Applied) b.apply(e);
                assertEquals(ra.commitLsn(), rb.commitLsn(), "commit " + k);
                assertArrayEquals(ra.pageLsns(), rb.pageLsns(), "commit " + k);
                c.apply(e);
            }
            // a commit built on a page version that has since changed conflicts on every replica
            CommitMessages.Commit stale = write(0, 1, 99);
            for (ReplicaStore r : List.of(a, b, c)) {
                assertInstanceOf(TransactionConflictException.class, r.apply(stale));
            }
            Path smA = dir.resolve("smA");
            Path smC = dir.resolve("smC");
            ReplicaSnapshot snap = a.snapshot(smA, 1, 13);
            c.snapshot(smC, 1, 13);
            assertEquals(snap, ReplicaSnapshot.latest(smA));
            // b was "down" at the checkpoint: it is restored from a's snapshot and applies what follows
            b.restore(snap);
            for (int k = 13; k <= 30; k++) {
                CommitMessages.Commit e = next(a, k);
                var ra = (CommitMessages.Applied) a.apply(e);
                var rb = (CommitMessages.Applied) b.apply(e);
                var rc = (CommitMessages.Applied) c.apply(e);
                assertArrayEquals(ra.pageLsns(), rb.pageLsns(), "commit " + k + ", restored replica");
                assertArrayEquals(ra.pageLsns(), rc.pageLsns(), "commit " + k + ", replica that never stopped");
            }
            String d = a.digest();
            assertEquals(d, b.digest(), "restored replica's pages, LSNs included");
            assertEquals(d, c.digest());
            assertNotEquals(d, digestOfSeed(dirs.get(0)), "the commits changed pages");
            assertTrue(a.store().verify().ok());
            assertTrue(b.store().verify().ok());
        }
    }

    private static String digestOfSeed(Path replicaDir) throws IOException {
        Path copy = replicaDir.resolveSibling(replicaDir.getFileName() + "-seedcopy");
        LoopbackReplicas.copySeed(replicaDir, copy);
        ReplicaSnapshot.deleteTree(copy.resolve(ReplicaStore.WORK_DIR));
        try (Store s = Store.open(copy, ReplicaStore.options())) {
            return ReplicaStore.digest(s);
        }
    }

    @Test
    void aDamagedSnapshotIsRefusedByNameAndTheLatestCompleteOneIsUsed() throws Exception {
        List<Path> dirs = replicas(1);
        try (ReplicaStore a = new ReplicaStore(dirs.get(0))) {
            a.restore(null);
            pageSize = a.store().pageSize();
            Path sm = dir.resolve("sm");
            a.apply(next(a, 1));
            ReplicaSnapshot first = a.snapshot(sm, 1, 2);
            a.apply(next(a, 2));
            ReplicaSnapshot second = a.snapshot(sm, 1, 4);
            assertTrue(Files.notExists(first.dir()), "older snapshots are deleted");
            Path vol = second.dir().resolve("volume.qs");
            byte[] bytes = Files.readAllBytes(vol);
            bytes[bytes.length / 2] ^= 1;
            Files.write(vol, bytes);
            IOException e = assertThrows(IOException.class, second::verify);
            assertTrue(e.getMessage().contains("volume.qs") && e.getMessage().contains("CRC32C"), e.getMessage());
            assertEquals(null, ReplicaSnapshot.latest(sm), "no complete snapshot is left");
            assertThrows(IOException.class, () -> a.restore(second));
        }
    }
}
