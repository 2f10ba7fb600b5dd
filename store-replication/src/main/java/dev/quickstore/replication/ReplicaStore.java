package dev.quickstore.replication;

import dev.quickstore.core.ServedStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.ServerSecret;
import dev.quickstore.core.remote.TransactionConflictException;
import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.core.volume.VolumeFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.function.Predicate;

/**
 * One replica's own store: the state a Raft group replicates (issue 18; docs/replication.md). A replica's
 * directory {@code DIR} holds the group's <em>seed</em> - a store created once and copied, byte for byte, to
 * every replica before its first start - and {@code DIR/}{@value #WORK_DIR}{@code /live}, the store this replica
 * applies the committed log entries to. The live store is rebuilt at every start: from the latest complete
 * {@link ReplicaSnapshot}, or from the seed when there is none, and the log entries after it are applied again.
 *
 * <p>Determinism. Clients validate by page LSN, and a page's LSN is the LSN its replica's own write-ahead log gave
 * the record that last changed it; after a failover a client validates against another replica's LSNs, and every
 * replica validates every commit on its own. So every replica must append exactly the same log records in the same
 * order: it starts from the same files (the seed, or a snapshot), applies the same entries, and checkpoints only
 * at replicated CHECKPOINT entries - the store's own checkpoints by log volume are turned off ({@link #options()}),
 * because a checkpoint record lists the dirty pages, which depend on what the replica's buffer pool evicted, i.e.
 * on the pages it served. At a CHECKPOINT entry every replica checkpoints (nothing dirty is left, so the record
 * is the same everywhere), copies its files as the snapshot, and checkpoints once more: the record a store opened
 * from that snapshot appends when it opens. A replica restored from the snapshot therefore continues with the same
 * LSNs as one that never stopped. The COMMIT records hold the commit time, which differs between replicas, but it
 * has a fixed size and is never written into a page.
 *
 * <p>Durability. Entries are applied without forcing the local log (the Raft log, forced by the group's majority
 * before a commit is acknowledged, is the durable record): a replica that crashes rebuilds its live store from a
 * snapshot and the Raft log rather than recovering it.
 */
public final class ReplicaStore implements AutoCloseable {
    /** The replica's own files inside its directory: the live store and the Raft storage. */
    public static final String WORK_DIR = "replica";

    private final Path seed;
    private final Path live;
    private volatile Store store;

    /** The replica whose directory (holding the seed) is {@code dir}; nothing is opened yet. */
    public ReplicaStore(Path dir) {
        this.seed = dir;
        this.live = dir.resolve(WORK_DIR).resolve("live");
    }

    /** How a replica opens its live store: no application view, no checkpoints by log volume. */
    public static StoreOptions options() {
        return StoreOptions.builder()
                .frames(FramesMode.EXPLICIT)
                .checkpointLogBytes(Long.MAX_VALUE / 4)
                .build();
    }

    /** The seed's files that are the store's (not the replica's work, lock or secret). */
    private static final Predicate<String> NOT_SEED =
            rel -> rel.startsWith(WORK_DIR + "/") || rel.equals(VolumeFile.LOCK_FILE) || rel.equals(ServerSecret.FILE);

    /**
     * Replaces the live store with a copy of {@code from} (null: the seed) and opens it.
     *
     * @throws IOException naming the snapshot that fails its manifest, or a store that cannot be opened
     */
    public synchronized void restore(ReplicaSnapshot from) throws IOException {
        closeStore();
        ReplicaSnapshot.deleteTree(live);
        Files.createDirectories(live);
        if (from == null) {
            if (!Files.isRegularFile(seed.resolve(VolumeFile.VOLUME_FILE))) {
                throw new IOException("replica directory " + seed + " holds no store (" + VolumeFile.VOLUME_FILE
                        + "): create one and copy it to every replica before their first start");
            }
            for (String rel : ReplicaSnapshot.files(seed, NOT_SEED)) {
                Path to = live.resolve(rel);
                Files.createDirectories(to.getParent());
                Files.copy(seed.resolve(rel), to);
            }
        } else {
            from.verify();
            for (Path f : from.storeFiles()) {
                Path to = live.resolve(from.dir().relativize(f).toString());
                Files.createDirectories(to.getParent());
                Files.copy(f, to);
            }
        }
        store = Store.open(live, options());
    }

    /** The live store (replaced by {@link #restore}). */
    public Store store() {
        Store s = store;
        if (s == null) {
            throw new IllegalStateException("replica " + seed + ": the live store is not open");
        }
        return s;
    }

    /** The live store's directory. */
    public Path liveDir() {
        return live;
    }

    /**
     * Applies a client's commit (validation, then the changed ranges, not forced): a {@link
     * CommitMessages.Applied}, a {@link TransactionConflictException} or the {@link IllegalArgumentException} of
     * a malformed commit. Any other failure of the store is thrown (the replica cannot go on).
     */
    public synchronized Object apply(CommitMessages.Commit c) {
        try {
            return ServedStore.of(store()).commitPageWrites(c.reads(), c.writes(), false);
        } catch (TransactionConflictException | IllegalArgumentException e) {
            return e;
        }
    }

    /**
     * A CHECKPOINT entry: checkpoint, copy the store into a new snapshot in {@code smDir}, checkpoint again (see the
     * class comment), delete older snapshots.
     */
    public synchronized ReplicaSnapshot snapshot(Path smDir, long term, long index) throws IOException {
        Store s = store();
        s.checkpoint();
        Files.createDirectories(smDir);
        ReplicaSnapshot snap = ReplicaSnapshot.write(live, rel -> rel.equals(VolumeFile.LOCK_FILE), smDir, term, index);
        s.checkpoint();
        ReplicaSnapshot.deleteOlder(smDir, snap);
        return snap;
    }

    /**
     * {@code Store.verify()} of the live store (what {@code qs verify} checks) in one word: {@code OK}, or {@code
     * N-problems:} and the first problem with spaces replaced by '_' (the status line is space-separated).
     */
    public synchronized String verify() {
        VerifyReport r = store().verify();
        return r.ok()
                ? "OK"
                : r.problems().size() + "-problems:"
                        + r.problems().getFirst().toString().replace(' ', '_');
    }

    /** SHA-256 over every committed page of the live store, as hex (replicas that agree have equal digests). */
    public synchronized String digest() {
        return digest(store());
    }

    /** SHA-256 over every committed page of {@code s} (page 0 first), as hex. */
    public static String digest(Store s) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        byte[] page = new byte[s.pageSize()];
        long n = s.pageCount();
        ServedStore served = ServedStore.of(s);
        for (long p = 0; p < n; p++) {
            served.readCommittedPage(p, page);
            md.update(page);
        }
        return ReplicaSnapshot.hex(md.digest());
    }

    private void closeStore() throws IOException {
        Store s = store;
        store = null;
        if (s != null) {
            s.close();
        }
    }

    @Override
    public synchronized void close() throws IOException {
        closeStore();
    }
}
