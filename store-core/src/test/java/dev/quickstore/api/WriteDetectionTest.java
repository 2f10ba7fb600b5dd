package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.Store;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.core.stats.CommitStats;
import dev.quickstore.mmu.FaultCounters;
import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Card marking (Hosking and Moss 1993) against page protection: the same seeded object workload commits the
 * same bytes and the same object graph under both; card marking takes no write fault; abort restores;
 * recovery after SIGKILL; and what a store through the view without the barrier does.
 */
@ExtendWith(SeedExtension.class)
class WriteDetectionTest {
    static final StoreOptions PAGES = StoreOptions.defaults().withWriteDetection(WriteDetection.PAGE_PROTECTION);
    static final StoreOptions CARDS = StoreOptions.defaults().withCardMarking(512);

    @TempDir
    Path dir;

    record Run(String digest, FaultCounters faults, CommitStats commit, byte[] volume) {}

    /** Creates a store with {@code o} and runs the seeded workload; returns the graph digest and counters. */
    static Run workload(Path db, StoreOptions o, long seed) throws Exception {
        String digest;
        FaultCounters faults;
        CommitStats cs;
        try (PersistentStore s = PersistentStore.create(db, o, Kinds.class)) {
            assertEquals(o.writeDetection(), s.storageManager().writeDetection());
            Random rnd = new Random(seed);
            try (ObjectTransaction tx = s.begin()) {
                tx.root("all", tx.create(Kinds.class));
                tx.commit();
            }
            List<Long> live = new ArrayList<>();
            for (int t = 0; t < 40; t++) {
                List<Long> before = new ArrayList<>(live);
                boolean abort = rnd.nextInt(5) == 0;
                try (ObjectTransaction tx = s.begin()) {
                    Kinds all = tx.root("all", Kinds.class);
                    for (int op = 0; op < 30; op++) {
                        step(tx, all, live, rnd);
                    }
                    if (abort) {
                        tx.abort();
                        live = before;
                    } else {
                        tx.commit();
                    }
                }
            }
            try (ObjectTransaction tx = s.begin()) {
                digest = digest(tx.root("all", Kinds.class));
            }
            faults = s.storageManager().faultCounters();
            cs = s.storageManager().commitStats();
            assertTrue(s.storageManager().verify().ok());
        }
        return new Run(digest, faults, cs, Files.readAllBytes(db.resolve("volume.qs")));
    }

    private static void step(ObjectTransaction tx, Kinds all, List<Long> live, Random rnd) {
        int what = live.isEmpty() || rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(8);
        Kinds k = live.isEmpty() ? null : tx.get(live.get(rnd.nextInt(live.size())), Kinds.class);
        switch (what) {
            case 0 -> {
                Kinds n = tx.create(Kinds.class, k);
                n.i(rnd.nextInt());
                n.type("t" + rnd.nextInt(1000));
                all.children().add(n);
                live.add(tx.addressOf(n));
            }
            case 1 -> k.l(rnd.nextLong());
            case 2 -> {
                k.d(rnd.nextDouble());
                k.z(rnd.nextBoolean());
                k.b((byte) rnd.nextInt());
            }
            case 3 -> k.name(rnd.nextBoolean() ? null : "name-" + rnd.nextInt() + "x".repeat(rnd.nextInt(300)));
            case 4 -> k.type(rnd.nextBoolean() ? "" : "t" + rnd.nextInt(1_000_000));
            case 5 -> {
                Kinds o = tx.get(live.get(rnd.nextInt(live.size())), Kinds.class);
                k.other(rnd.nextInt(4) == 0 ? null : o);
            }
            case 6 -> {
                Kinds o = tx.get(live.get(rnd.nextInt(live.size())), Kinds.class);
                if (k.children().size() < 20) {
                    k.children().add(rnd.nextInt(k.children().size() + 1), o);
                } else {
                    k.children().remove(rnd.nextInt(k.children().size()));
                }
            }
            case 7 -> k.data(rnd.nextInt(3) == 0 ? new byte[9000 + rnd.nextInt(100)] : new byte[rnd.nextInt(50)]);
            default -> {
                // delete: unlink it everywhere first (the list of all, others' refs and children)
                long a = tx.addressOf(k);
                live.remove(Long.valueOf(a));
                for (long b : live) {
                    Kinds o = tx.get(b, Kinds.class);
                    if (o.other() != null && tx.addressOf(o.other()) == a) {
                        o.other(null);
                    }
                    o.children().removeIf(c -> tx.addressOf(c) == a);
                }
                all.children().removeIf(c -> tx.addressOf(c) == a);
                tx.delete(k);
            }
        }
    }

    static String digest(Kinds all) {
        StringBuilder sb = new StringBuilder();
        for (Kinds k : all.children()) {
            sb.append(k.i())
                    .append(',')
                    .append(k.l())
                    .append(',')
                    .append(k.d())
                    .append(',')
                    .append(k.z());
            sb.append(',')
                    .append(k.b())
                    .append(',')
                    .append(k.type())
                    .append(',')
                    .append(k.name());
            sb.append(',').append(k.other() == null ? 0 : k.other().i());
            byte[] d = k.data();
            sb.append(',').append(d == null ? -1 : d.length).append('[');
            for (Kinds c : k.children()) {
                sb.append(c.i()).append(' ');
            }
            sb.append("]\n");
        }
        return sb.toString();
    }

    @Test
    @FixedSeed(42)
    void bothModesCommitTheSameBytesAndGraphAndCardsTakeNoWriteFault(Seed seed) throws Exception {
        Run pages = workload(dir.resolve("pages"), PAGES, seed.value());
        Run cards = workload(dir.resolve("cards"), CARDS, seed.value());
        assertEquals(pages.digest(), cards.digest(), "object graph digest");
        assertTrue(
                pages.digest().lines().count() > 50,
                "the workload kept objects: " + pages.digest().length());
        assertTrue(pages.faults().writeFaults() > 0, "page protection detects writes by faults: " + pages.faults());
        assertEquals(0, cards.faults().writeFaults(), "card marking never write-faults: " + cards.faults());
        assertTrue(cards.commit().cardPages() > 0, "commit diffed pages by their cards: " + cards.commit());
        assertEquals(0, pages.commit().cardPages());
        assertEquals(pages.volume().length, cards.volume().length, "volume size");
        int ps = 8192;
        int differing = 0;
        for (int p = 0; p < pages.volume().length / ps; p++) {
            byte[] a = java.util.Arrays.copyOfRange(pages.volume(), p * ps, (p + 1) * ps);
            byte[] b = java.util.Arrays.copyOfRange(cards.volume(), p * ps, (p + 1) * ps);
            // header fields that depend on log positions: checksum [0, 4) and page LSN [16, 24)
            java.util.Arrays.fill(a, 0, 4, (byte) 0);
            java.util.Arrays.fill(b, 0, 4, (byte) 0);
            java.util.Arrays.fill(a, 16, 24, (byte) 0);
            java.util.Arrays.fill(b, 16, 24, (byte) 0);
            if (!java.util.Arrays.equals(a, b)) {
                differing++;
                if (p > 0) {
                    assertArrayEquals(a, b, "page " + p);
                }
            }
        }
        assertTrue(differing <= 1, differing + " pages differ");
    }

    @Test
    void abortRestoresAndTheNextTransactionIsDetectedAgain() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), CARDS, ListNode.class)) {
            long a;
            try (ObjectTransaction tx = s.begin()) {
                ListNode n = tx.create(ListNode.class);
                n.value(7);
                tx.root("n", n);
                tx.commit();
                a = tx.addressOf(n);
            }
            long marks = s.storageManager().cardMarks();
            try (ObjectTransaction tx = s.begin()) {
                tx.get(a, ListNode.class).value(8);
                assertEquals(8, tx.get(a, ListNode.class).value());
                tx.abort();
            }
            assertTrue(s.storageManager().cardMarks() > marks, "the barrier took its slow path");
            assertEquals(
                    0,
                    s.storageManager()
                            .cardTable()
                            .get(ValueLayout.JAVA_BYTE, (a - s.storageManager().arenaBase()) >>> 9),
                    "abort cleared the card");
            try (ObjectTransaction tx = s.begin()) {
                assertEquals(7, tx.root("n", ListNode.class).value(), "abort restored the value");
                tx.root("n", ListNode.class).value(9);
                tx.commit();
            }
            assertEquals(0, s.storageManager().faultCounters().writeFaults());
        }
        try (PersistentStore s = PersistentStore.open(dir.resolve("db"), CARDS, ListNode.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(9, tx.root("n", ListNode.class).value(), "the update after the abort was detected");
        }
    }

    /**
     * Documented behaviour: under card marking a store through {@code Store.view()} that bypasses the barrier
     * is not detected. Nothing faults, nothing is captured, so the commit logs nothing for it and after a
     * reopen the page shows its committed bytes again (had the page been dirtied through the barrier or by
     * the store in the same transaction, the whole card or page diff would pick the stray bytes up).
     */
    @Test
    void aStoreWithoutTheBarrierIsNotDetectedUnderCardMarking() throws Exception {
        long a;
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), CARDS, ListNode.class)) {
            try (ObjectTransaction tx = s.begin()) {
                ListNode n = tx.create(ListNode.class);
                n.value(1);
                tx.root("n", n);
                tx.commit();
                a = tx.addressOf(n);
            }
            s.storageManager().checkpoint();
            long redo = s.storageManager().commitStats().redoBytes();
            try (ObjectTransaction tx = s.begin()) {
                tx.root("n", ListNode.class); // page resident
                Store st = s.storageManager();
                // the value field is the first after the 8-byte object header (tag + padding)
                long off = a - st.arenaBase();
                int at = -1;
                for (int k = 0; k < 64; k += 4) {
                    if (st.view().get(ValueLayout.JAVA_INT, off + k) == 1) {
                        at = k;
                        break;
                    }
                }
                assertTrue(at > 0, "found the value field");
                st.view().set(ValueLayout.JAVA_INT, off + at, 555); // no barrier, no fault
                assertEquals(555, tx.root("n", ListNode.class).value(), "the store landed in memory");
                tx.commit();
            }
            assertEquals(0, s.storageManager().faultCounters().writeFaults());
            assertEquals(redo, s.storageManager().commitStats().redoBytes(), "nothing was logged");
        }
        try (PersistentStore s = PersistentStore.open(dir.resolve("db"), CARDS, ListNode.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(1, tx.root("n", ListNode.class).value(), "the undetected store was lost");
        }
    }

    /** Child JVM: commits values under card marking, prints "committed", stores uncommitted ones, waits. */
    public static final class CrashChild {
        public static void main(String[] args) throws Exception {
            PersistentStore s = PersistentStore.create(Path.of(args[0]), CARDS, ListNode.class);
            try (ObjectTransaction tx = s.begin()) {
                ListNode head = null;
                for (int i = 0; i < 2000; i++) {
                    ListNode n = tx.create(ListNode.class, head);
                    n.value(i);
                    n.next(head);
                    head = n;
                }
                tx.root("head", head);
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                for (ListNode n = tx.root("head", ListNode.class); n != null; n = n.next()) {
                    n.value(n.value() * 3 + 1); // every object: one card per object group
                }
                tx.commit();
            }
            System.out.println("committed writeFaults="
                    + s.storageManager().faultCounters().writeFaults());
            System.out.flush();
            ObjectTransaction tx = s.begin();
            for (ListNode n = tx.root("head", ListNode.class); n != null; n = n.next()) {
                n.value(-1);
            }
            System.out.println("uncommitted");
            System.out.flush();
            while (true) {
                java.util.concurrent.locks.LockSupport.park(); // until SIGKILL
            }
        }
    }

    @Test
    void recoveryAfterSigkillUnderCardMarking() throws Exception {
        Path db = dir.resolve("db");
        try (ChildJvm.Running child = ChildJvm.main(CrashChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args(db.toString())
                .start()) {
            String l1 = child.nextLine(Duration.ofSeconds(120)); // watchdog
            String l2 = l1 == null ? null : child.nextLine(Duration.ofSeconds(120));
            if (!"committed writeFaults=0".equals(l1) || !"uncommitted".equals(l2)) {
                fail("child said " + l1 + " / " + l2 + "; " + child.describe());
            }
            child.kill(); // SIGKILL
            assertEquals(137, child.exitCode(), "killed by SIGKILL (128 + 9)");
        }
        try (PersistentStore s = PersistentStore.open(db, CARDS, ListNode.class);
                ObjectTransaction tx = s.begin()) {
            int count = 0;
            for (ListNode n = tx.root("head", ListNode.class); n != null; n = n.next()) {
                int i = 1999 - count;
                assertEquals(i * 3 + 1, n.value(), "object " + i);
                count++;
            }
            assertEquals(2000, count);
            assertTrue(s.storageManager().verify().ok());
        }
    }
}
