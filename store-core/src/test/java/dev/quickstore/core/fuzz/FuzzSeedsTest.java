package dev.quickstore.core.fuzz;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.api.Kinds;
import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Index;
import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.core.buffer.MappingManager;
import dev.quickstore.core.buffer.PlacementFile;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.log.LogReader;
import dev.quickstore.core.log.LogRecord;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.page.PageHeader;
import dev.quickstore.core.remote.Challenge;
import dev.quickstore.core.remote.CommitMessages;
import dev.quickstore.core.remote.Hello;
import dev.quickstore.core.remote.ServerStatus;
import dev.quickstore.core.remote.SessionFrame;
import dev.quickstore.core.remote.VerifyMessages;
import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.core.volume.RealFileIO;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed corpus of the store-core fuzz targets: real structures from a real store (4 KiB pages: objects,
 * named roots, an index of 300 keys that splits its leaf, three commits and a checkpoint), real catalog
 * blobs from the object API, and session frames of every type from their encoders. With
 * {@code -Dqs.fuzz.writeSeeds=true} it (re)writes them under {@code src/test/resources} (run from the module
 * directory); otherwise it checks that every target has seeds checked in.
 */
class FuzzSeedsTest {
    static final Path RESOURCES = Path.of("src/test/resources/dev/quickstore");
    static final Path FILES = RESOURCES.resolve("core/fuzz/StoreFilesFuzzTestInputs");
    static final Path CATALOG = RESOURCES.resolve("api/internal/CatalogFuzzTestInputs/schemaCatalog");
    static final Path FRAMES = RESOURCES.resolve("core/remote/SessionFramesFuzzTestInputs/sessionFrame");

    @TempDir
    Path dir;

    @Test
    void everyTargetHasCheckedInSeeds() throws IOException {
        if (Boolean.getBoolean("qs.fuzz.writeSeeds")) {
            write();
        }
        for (String t : BriefFuzzingTest.FILE_TARGETS) {
            assertTrue(count(FILES.resolve(t)) > 0, "no seeds for " + t);
        }
        assertTrue(count(CATALOG) > 0, "no catalog seeds");
        assertTrue(count(FRAMES) >= 15, "a seed per session frame type");
        assertTrue(count(FILES.resolve("everyDecoder")) >= 30, "the combined target's seeds");
    }

    private static long count(Path d) throws IOException {
        if (!Files.isDirectory(d)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(d)) {
            return s.count();
        }
    }

    private static void seed(Path targetDir, String name, byte[] bytes) throws IOException {
        Files.createDirectories(targetDir);
        Files.write(targetDir.resolve(name), bytes);
    }

    private void write() throws IOException {
        int ps = StoreFilesFuzzTest.PS;
        Path db = dir.resolve("db");
        long ref;
        try (Store s = Store.create(db, ps, StoreOptions.defaults())) {
            try (Transaction tx = s.begin()) {
                long prev = 0;
                for (int i = 0; i < 6; i++) {
                    long r = tx.allocate(40, prev, 8);
                    tx.write(r, 0, ("object " + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    tx.putLong(r, 8, prev);
                    tx.setRoot("obj" + i, r);
                    prev = r;
                }
                Index idx = tx.createIndex("byId", KeyType.LONG, 8, true);
                for (long k = 0; k < 300; k++) {
                    idx.insert(k * 7, prev);
                }
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                ref = tx.root("obj3");
                tx.write(ref, 16, new byte[] {1, 2, 3, 4});
                tx.commit();
            }
            s.checkpoint();
            try (Transaction tx = s.begin()) {
                tx.write(ref, 20, new byte[] {5, 6, 7, 8});
                tx.commit();
            }
        }
        byte[] volume = Files.readAllBytes(db.resolve("volume.qs"));
        VolumeHeader h = VolumeHeader.decode("volume.qs", Arrays.copyOf(volume, ps));
        seed(FILES.resolve("volumeHeader"), "page0", Arrays.copyOf(volume, ps));
        seed(FILES.resolve("spaceMap"), "pages0-1", Arrays.copyOf(volume, 2 * ps));
        seed(FILES.resolve("spaceMap"), "pages0-3", Arrays.copyOf(volume, Math.min(volume.length, 4 * ps)));
        seed(FILES.resolve("bplusTree"), "pages0-7", Arrays.copyOf(volume, Math.min(volume.length, 8 * ps)));
        assertTrue(h.rootsMetaPage() > 0 && h.rootsMetaPage() < 8, "roots tree in the first 8 pages");
        int slotted = 0;
        for (int p = 0; p < volume.length / ps; p++) {
            MemorySegment page = MemorySegment.ofArray(Arrays.copyOfRange(volume, p * ps, (p + 1) * ps));
            int type = PageHeader.type(page);
            if (type == PageHeader.SLOTTED && slotted++ < 3) {
                seed(FILES.resolve("slottedPage"), "page" + p, page.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            }
            if ((type == PageHeader.BTREE_LEAF || type == PageHeader.BTREE_INNER || type == PageHeader.BTREE_META)
                    && p >= 8) {
                // a tree elsewhere: the header's roots meta page pointed at it gives the target a bigger tree
                byte[] v = Arrays.copyOf(volume, 8 * ps);
                System.arraycopy(volume, p * ps, v, 7 * ps, ps);
                seed(FILES.resolve("bplusTree"), "with-page" + p + "-as-7", v);
            }
        }
        assertTrue(slotted > 0, "slotted pages in the store");
        seed(FILES.resolve("controlFile"), "control.qs", Files.readAllBytes(db.resolve("control.qs")));
        byte[] dwb = Files.readAllBytes(db.resolve("doublewrite.qs"));
        seed(FILES.resolve("doubleWriteBuffer"), "doublewrite.qs", Arrays.copyOf(dwb, Math.min(dwb.length, 8 * ps)));
        writeLogSeeds(db);
        PlacementFile pf = new PlacementFile(
                ps,
                0x5b0000000000L,
                1024,
                List.of(new MappingManager.Descriptor(2, 3, 1024), new MappingManager.Descriptor(9, 1, 1030)),
                new long[][] {{0x5a0000000000L}, {0x5a0000000000L + 64L * ps}, {0x10000000000L}});
        seed(FILES.resolve("placementFile"), "placement.qs", pf.encode());
        seed(
                FILES.resolve("placementFile"),
                "empty.qs",
                new PlacementFile(ps, 0x5a0000000000L, 0, List.of(), new long[3][0]).encode());
        writeCatalogSeeds();
        writeFrameSeeds();
        writeCombinedSeeds();
    }

    /** The seeds of {@code everyDecoder}: every target's seeds behind the byte that selects the target. */
    private static void writeCombinedSeeds() throws IOException {
        List<String> targets = StoreFilesFuzzTest.TARGETS;
        for (int i = 0; i < targets.size(); i++) {
            String t = targets.get(i);
            Path d = t.equals("schemaCatalog") ? CATALOG : t.equals("sessionFrame") ? FRAMES : FILES.resolve(t);
            try (Stream<Path> s = Files.list(d)) {
                for (Path f : s.sorted().toList()) {
                    byte[] b = Files.readAllBytes(f);
                    byte[] c = new byte[b.length + 1];
                    c[0] = (byte) i;
                    System.arraycopy(b, 0, c, 1, b.length);
                    seed(FILES.resolve("everyDecoder"), t + "-" + f.getFileName(), c);
                }
            }
        }
    }

    private void writeLogSeeds(Path db) throws IOException {
        Path logDir = db.resolve("log");
        Path seg;
        try (Stream<Path> s = Files.list(logDir)) {
            seg = s.filter(p -> p.toString().endsWith(".wal"))
                    .sorted()
                    .findFirst()
                    .orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(seg);
        long segmentBytes = StoreOptions.defaults().logSegmentBytes();
        Map<Integer, byte[]> byType = new HashMap<>();
        long end = 16;
        try (LogReader r = new LogReader(RealFileIO.INSTANCE, logDir, segmentBytes)) {
            LogReader.Scan scan = r.scan(16, 0);
            long at = 16;
            for (LogRecord rec = scan.next(); rec != null; rec = scan.next()) {
                byte[] raw = Arrays.copyOfRange(bytes, (int) at, (int) scan.position());
                if (!byType.containsKey((int) rec.type) || (rec.type == LogRecord.UPDATE && raw.length < 200)) {
                    ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
                    b.putLong(16, 16); // the targets read the record at LSN 16
                    b.putInt(0, StoreFilesFuzzTest.crc(raw, 4, raw.length));
                    byType.put((int) rec.type, raw);
                }
                at = scan.position();
                if (at <= 24 * 1024) {
                    end = at;
                }
            }
        }
        assertTrue(byType.size() >= 3, "record types in the log: " + byType.keySet());
        for (var e : byType.entrySet()) {
            seed(FILES.resolve("logRecord"), LogRecord.typeName(e.getKey()), e.getValue());
        }
        seed(FILES.resolve("logSegment"), "segment-prefix", Arrays.copyOf(bytes, (int) end));
    }

    private void writeCatalogSeeds() throws IOException {
        Path db = dir.resolve("objects");
        try (PersistentStore s = PersistentStore.create(db, Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                tx.root("kinds", tx.create(Kinds.class));
                tx.commit();
            }
        }
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            long blob = tx.root("qs.schema");
            assertTrue(blob != 0, "catalog root");
            byte[] head = new byte[8];
            tx.read(blob, 0, head, 0, 8);
            int len = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            byte[] all = new byte[8 + len];
            tx.read(blob, 0, all, 0, all.length);
            seed(CATALOG, "kinds", all);
        }
    }

    private static void frame(String name, int type, long session, byte[] payload) throws IOException {
        seed(FRAMES, name, new SessionFrame(type, session, payload).encode());
    }

    private static void writeFrameSeeds() throws IOException {
        frame("hello", SessionFrame.HELLO, 0, new Hello(4242, Hello.CONTROL, 0, "qs info").encode());
        frame("hello-data", SessionFrame.HELLO, 0, new Hello(4242, Hello.DATA, 7, "client").encode());
        frame(
                "challenge",
                SessionFrame.CHALLENGE,
                0,
                new Challenge(new byte[32], 8192, 688, 0x5a0000000000L, new UUID(1, 2)).encode());
        frame("proof", SessionFrame.PROOF, 0, new byte[32]);
        frame("welcome", SessionFrame.WELCOME, 7, new byte[] {(byte) 0x98, 0x3a, 0, 0, 1});
        frame("refused", SessionFrame.REFUSED, 0, "no such store".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        frame(
                "commit",
                SessionFrame.COMMIT,
                7,
                CommitMessages.encodeCommit(new CommitMessages.Commit(
                        3,
                        List.of(new CommitMessages.PageVersion(5, 100)),
                        List.of(new CommitMessages.PageWrite(
                                6, 120, new int[] {40, 64}, new byte[][] {{1, 2, 3, 4}, {9}})))));
        frame(
                "committed",
                SessionFrame.COMMITTED,
                7,
                CommitMessages.encodeCommitted(3, new CommitMessages.Applied(400, new long[] {401, 402})));
        frame(
                "conflict",
                SessionFrame.CONFLICT,
                7,
                CommitMessages.encodeConflict(3, List.of(new CommitMessages.Conflict(6, 120, 130))));
        frame("invalidate", SessionFrame.INVALIDATE, 7, CommitMessages.encodeInvalidate(new long[] {6, 9}));
        frame("heartbeat", SessionFrame.HEARTBEAT, 7, new byte[0]);
        Map<String, String> server = new LinkedHashMap<>();
        server.put("store", "/tmp/db");
        server.put("pages", "688");
        Map<String, String> session = new LinkedHashMap<>();
        session.put("session", "7");
        session.put("name", "qs info");
        frame("status", SessionFrame.STATUS, 7, new ServerStatus(server, List.of(session)).encode());
        frame("status-request", SessionFrame.STATUS, 7, new byte[0]);
        frame("abort", SessionFrame.ABORT, 7, ByteBuffer.allocate(8).putLong(3).array());
        frame(
                "aborted",
                SessionFrame.ABORTED,
                7,
                ByteBuffer.allocate(8).putLong(3).array());
        frame("verify", SessionFrame.VERIFY, 7, new byte[0]);
        VerifyReport r = new VerifyReport();
        r.pageChecked();
        r.objects(12);
        r.problem(5, "page checksum (CRC32C) expected 0x1, found 0x2");
        frame("verified", SessionFrame.VERIFIED, 7, VerifyMessages.encode(r));
        assertNotNull(r.toString());
    }
}
