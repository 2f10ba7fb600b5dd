package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.DuplicateKeyException;
import dev.quickstore.core.error.StoreException;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.error.StoreLockedException;
import dev.quickstore.core.index.KeyType;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.verify.VerifyReport;
import dev.quickstore.core.volume.VolumeFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreTest {
    @TempDir
    Path dir;

    static StoreOptions small() {
        return new StoreOptions(16, 1 << 18, 1 << 19);
    }

    @Test
    void committedDataSurvivesReopenAndAbortedDataDoesNot() throws Exception {
        Path db = dir.resolve("db");
        long a;
        try (Store s = Store.create(db)) {
            try (Transaction tx = s.begin()) {
                a = tx.allocate(100);
                tx.write(a, 0, "hello".getBytes(StandardCharsets.UTF_8));
                tx.setRoot("a", a);
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                tx.write(a, 0, "HELLO".getBytes(StandardCharsets.UTF_8));
                tx.setRoot("b", a);
                tx.abort();
            }
            try (Transaction tx = s.begin()) {
                tx.write(a, 0, "world".getBytes(StandardCharsets.UTF_8));
                // closed without commit: aborted
            }
        }
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            assertEquals(a, tx.root("a"));
            assertEquals(0, tx.root("b"));
            assertEquals("hello", new String(tx.read(a), 0, 5, StandardCharsets.UTF_8));
            assertTrue(s.verify().ok());
        }
    }

    @Test
    void addressesAreArenaBasePlusPageAndOffsetAndNearHintClusters() throws Exception {
        try (Store s = Store.create(dir.resolve("db"));
                Transaction tx = s.begin()) {
            long a = tx.allocate(64);
            long b = tx.allocate(64, a);
            long pa = (a - s.arenaBase()) / s.pageSize();
            assertEquals(pa, (b - s.arenaBase()) / s.pageSize(), "same page as the hint");
            long c = 0;
            for (int i = 0; i < 3; i++) {
                c = tx.allocate(3000, a); // the hint page fills up: then its extent
            }
            long pc = (c - s.arenaBase()) / s.pageSize();
            assertNotEquals(pa, pc);
            assertEquals(pa / 16, pc / 16, "same extent as the hint");
            assertEquals(a, s.arenaBase() + pa * s.pageSize() + s.addresses.offsetOf(a));
            tx.commit();
        }
    }

    /**
     * The allocator remembers that an object size did not fit on a page (so a full extent is not re-read for every
     * object near it), but the memo never hides room: a smaller object still lands on the hint's page, and after a
     * delete the freed space is used again.
     */
    @Test
    void nearHintFindsRoomLeftForSmallerObjectsAndAfterDeletes() throws Exception {
        try (Store s = Store.create(dir.resolve("db"));
                Transaction tx = s.begin()) {
            long a = tx.allocate(64);
            long pa = s.addresses.pageOf(a);
            long b1 = tx.allocate(3000, a);
            long b2 = tx.allocate(3000, a);
            long b3 = tx.allocate(3000, a); // does not fit on a's page any more
            assertEquals(pa, s.addresses.pageOf(b1));
            assertEquals(pa, s.addresses.pageOf(b2));
            assertNotEquals(pa, s.addresses.pageOf(b3));
            assertNotEquals(pa, s.addresses.pageOf(tx.allocate(3000, a)), "3000 bytes still do not fit");
            assertEquals(pa, s.addresses.pageOf(tx.allocate(64, a)), "a smaller object still fits on the hint's page");
            tx.delete(b1);
            assertEquals(pa, s.addresses.pageOf(tx.allocate(3000, a)), "the deleted object's space is used again");
            tx.commit();
        }
    }

    @Test
    void transactionLargerThanTheBufferPoolStealsAndAbortRestores() throws Exception {
        Path db = dir.resolve("db");
        try (Store s = Store.create(db, 8192, small())) {
            long[] refs = new long[200];
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    refs[i] = tx.allocate(3000);
                    tx.putLong(refs[i], 0, i);
                }
                tx.setRoot("r", refs[0]);
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    tx.putLong(refs[i], 0, -i); // 100 pages dirty, 16 frames
                    tx.delete(tx.allocate(10));
                }
                tx.abort();
            }
            assertTrue(s.pool.steals() > 0, "the transaction was larger than the pool");
            try (Transaction tx = s.begin()) {
                for (int i = 0; i < refs.length; i++) {
                    assertEquals(i, tx.getLong(refs[i], 0));
                }
            }
            assertTrue(s.verify().ok(), s.verify().toString());
        }
        try (Store s = Store.open(db, small());
                Transaction tx = s.begin()) {
            long r = tx.root("r");
            assertEquals(0, tx.getLong(r, 0));
        }
    }

    @Test
    void secondOpenIsRefusedWhileTheStoreIsOpen() throws Exception {
        Path db = dir.resolve("db");
        try (Store s = Store.create(db)) {
            StoreLockedException e = assertThrows(StoreLockedException.class, () -> Store.open(db));
            assertTrue(e.getMessage().contains("already open"), e.getMessage());
            s.begin().close(); // the first handle is unaffected
        }
        Store.open(db).close(); // released on close
    }

    @Test
    void oneTransactionAtATime() throws Exception {
        try (Store s = Store.create(dir.resolve("db"));
                Transaction tx = s.begin()) {
            StoreException e = assertThrows(StoreException.class, s::begin);
            assertTrue(e.getMessage().contains("already active"));
            tx.commit();
            s.begin().close();
        }
    }

    @Test
    void largeObjectsGrowShrinkAndRead() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 8192, small());
                Transaction tx = s.begin()) {
            byte[] manual = new byte[1 << 20];
            new java.util.Random(1).nextBytes(manual);
            long m = tx.allocateLarge(manual.length, 0);
            tx.writeLarge(m, 0, manual, 0, manual.length);
            byte[] back = new byte[manual.length];
            tx.readLarge(m, 0, back, 0, back.length);
            assertArrayEquals(manual, back);
            long m2 = tx.resizeLarge(m, 2 << 20);
            assertEquals(2 << 20, tx.largeSize(m2));
            byte[] tail = new byte[100];
            tx.readLarge(m2, (1 << 20) + 5, tail, 0, 100);
            assertArrayEquals(new byte[100], tail);
            long m3 = tx.resizeLarge(m2, 10);
            assertEquals(m2, m3);
            byte[] head = new byte[10];
            tx.readLarge(m3, 0, head, 0, 10);
            assertArrayEquals(java.util.Arrays.copyOf(manual, 10), head);
            tx.commit();
            assertTrue(s.verify().ok(), s.verify().toString());
        }
    }

    @Test
    void indexesUniqueDuplicateAndRange() throws Exception {
        try (Store s = Store.create(dir.resolve("db"), 8192, small())) {
            try (Transaction tx = s.begin()) {
                Index u = tx.createIndex("u", KeyType.STRING, 20, true);
                Index d = tx.createIndex("d", KeyType.INT, 0, false);
                for (int i = 0; i < 5000; i++) {
                    u.insert(String.format("key%08d", i), 1000L + i);
                    d.insert(i % 10, 1000L + i);
                }
                assertThrows(DuplicateKeyException.class, () -> u.insert("key00000007", 5));
                assertArrayEquals(new long[] {1007}, u.lookup("key00000007"));
                assertEquals(500, d.lookup(3).length);
                List<Index.Entry> r = u.scan("key00000100", "key00000199");
                assertEquals(100, r.size());
                assertEquals("key00000100", r.get(0).key());
                tx.commit();
            }
            try (Transaction tx = s.begin()) {
                Index d = tx.index("d");
                for (int i = 0; i < 5000; i += 2) {
                    assertTrue(d.delete(i % 10, 1000L + i));
                }
                assertEquals(0, d.lookup(4).length);
                assertEquals(500, d.lookup(5).length);
                tx.commit();
            }
            VerifyReport v = s.verify();
            assertTrue(v.ok(), v.toString());
            assertEquals(5000 + 2500 + 2, v.indexEntries());
        }
    }

    @Test
    void tornPageIsRepairedFromTheDoubleWriteCopyOrReportedWithFilePageAndOffset() throws Exception {
        Path db = dir.resolve("db");
        long a;
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            a = tx.allocate(100);
            tx.setRoot("a", a);
            tx.commit();
        }
        long page = (a - VolumeFile.DEFAULT_ARENA_BASE) / 8192;
        Path vol = VolumeFile.volumePath(db);
        byte[] all = Files.readAllBytes(vol);
        all[(int) (page * 8192 + 500)] ^= 0x10;
        Files.write(vol, all);
        // a torn page is repaired from its copy in the double-write file ...
        try (Store s = Store.open(db);
                Transaction tx = s.begin()) {
            assertEquals(100, tx.read(a).length);
            assertTrue(s.recoveryStats().tornPagesRestored().contains(page));
        }
        // ... and reported when that copy is gone too (media damage)
        all = Files.readAllBytes(vol);
        all[(int) (page * 8192 + 500)] ^= 0x10;
        Files.write(vol, all);
        Files.write(db.resolve(VolumeFile.DOUBLE_WRITE_FILE), new byte[0]);
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> {
            try (Store s = Store.open(db);
                    Transaction tx = s.begin()) {
                tx.read(a);
            }
        });
        assertEquals(page, e.pageId());
        assertTrue(e.getMessage().contains("page " + page) && e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void damagedCheckpointRecordIsReportedNotIgnored() throws Exception {
        Path db = dir.resolve("db");
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            tx.setRoot("x", tx.allocate(8));
            tx.commit();
        }
        Path seg = Files.list(db.resolve("log")).sorted().findFirst().orElseThrow();
        byte[] log = Files.readAllBytes(seg);
        log[log.length - 30] ^= 1; // inside the last record: the checkpoint named by the control file
        Files.write(seg, log);
        StoreFormatException e =
                assertThrows(StoreFormatException.class, () -> Store.open(db).close());
        assertTrue(e.getMessage().contains(seg.toString()), e.getMessage());
    }
}
