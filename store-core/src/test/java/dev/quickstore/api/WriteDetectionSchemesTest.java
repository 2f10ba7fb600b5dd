package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.quickstore.core.Store;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.testkit.ChildJvm;
import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The three write-detection schemes of Hosking and Moss added beside page protection and card marking (object
 * marking, remembered sets, scanning), and kernel write tracking (a sixth, where the kernel allows it): each commits the same object graph and the same volume bytes as page
 * protection on {@link WriteDetectionTest}'s seeded workload, each agrees with a heap model of seeded random
 * updates (with aborts and a reopen), what each does with a store that bypasses the barrier, and recovery after
 * SIGKILL.
 */
@ExtendWith(SeedExtension.class)
class WriteDetectionSchemesTest {
    @TempDir
    Path dir;

    static StoreOptions options(WriteDetection d) {
        return StoreOptions.defaults().withWriteDetection(d);
    }

    /** Kernel write tracking needs Linux 6.7+ and userfaultfd allowed; elsewhere its cases are skipped, saying why. */
    static void assumeAvailable(WriteDetection d) {
        if (d == WriteDetection.KERNEL_TRACKING) {
            String why = dev.quickstore.mmu.KernelTracking.unavailableReason();
            Assumptions.assumeTrue(why == null, () -> "kernel write tracking: " + why);
        }
    }

    /** A scheme with a software barrier: never a write fault. */
    private static boolean barrier(WriteDetection d) {
        return d == WriteDetection.OBJECT_MARKING || d == WriteDetection.REMEMBERED_SETS;
    }

    @ParameterizedTest
    @EnumSource(
            value = WriteDetection.class,
            names = {"OBJECT_MARKING", "REMEMBERED_SETS", "SCANNING", "KERNEL_TRACKING"})
    @FixedSeed(42)
    void commitsTheSameGraphAndBytesAsPageProtection(WriteDetection d, Seed seed) throws Exception {
        assumeAvailable(d);
        WriteDetectionTest.Run pages =
                WriteDetectionTest.workload(dir.resolve("pages"), WriteDetectionTest.PAGES, seed.value());
        WriteDetectionTest.Run other = WriteDetectionTest.workload(dir.resolve("other"), options(d), seed.value());
        assertEquals(pages.digest(), other.digest(), "object graph digest");
        assertTrue(pages.digest().lines().count() > 50, "the workload kept objects");
        assertTrue(pages.faults().writeFaults() > 0, "page protection detects writes by faults: " + pages.faults());
        if (barrier(d)) {
            assertEquals(0, other.faults().writeFaults(), d + " never write-faults: " + other.faults());
        } else {
            // scanning pre-images resident and loaded pages; kernel tracking faults only before a page's first commit
            assertTrue(
                    other.faults().writeFaults() < pages.faults().writeFaults(),
                    d + " takes fewer write faults: " + other.faults() + " vs " + pages.faults());
        }
        assertEquals(pages.volume().length, other.volume().length, "volume size");
        int ps = 8192;
        int differing = 0;
        for (int p = 0; p < pages.volume().length / ps; p++) {
            byte[] a = Arrays.copyOfRange(pages.volume(), p * ps, (p + 1) * ps);
            byte[] b = Arrays.copyOfRange(other.volume(), p * ps, (p + 1) * ps);
            // header fields that depend on log positions: checksum [0, 4) and page LSN [16, 24)
            Arrays.fill(a, 0, 4, (byte) 0);
            Arrays.fill(b, 0, 4, (byte) 0);
            Arrays.fill(a, 16, 24, (byte) 0);
            Arrays.fill(b, 16, 24, (byte) 0);
            if (!Arrays.equals(a, b)) {
                differing++;
                if (p > 0) {
                    assertArrayEquals(a, b, "page " + p);
                }
            }
        }
        assertTrue(differing <= 1, differing + " pages differ");
    }

    /**
     * Seeded random updates of int fields and links of 3,000 list nodes (about 40 pages) against an int array:
     * some transactions abort; the store must show the model after each transaction and after a reopen.
     */
    @ParameterizedTest
    @EnumSource(
            value = WriteDetection.class,
            names = {"OBJECT_MARKING", "REMEMBERED_SETS", "SCANNING", "KERNEL_TRACKING"})
    @FixedSeed(7)
    void agreesWithTheHeapModel(WriteDetection d, Seed seed) throws Exception {
        assumeAvailable(d);
        int n = 3000;
        int[] value = new int[n];
        int[] next = new int[n]; // index of the next node, -1 for null
        Arrays.fill(next, -1);
        long[] addr = new long[n];
        Random rnd = new Random(seed.value());
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, options(d), ListNode.class)) {
            assertEquals(d, s.storageManager().writeDetection());
            try (ObjectTransaction tx = s.begin()) {
                ListNode head = null;
                for (int i = 0; i < n; i++) {
                    ListNode x = tx.create(ListNode.class, head);
                    x.value(i);
                    value[i] = i;
                    addr[i] = tx.addressOf(x);
                    head = x;
                }
                tx.root("first", tx.get(addr[0], ListNode.class));
                tx.commit();
            }
            for (int t = 0; t < 30; t++) {
                int[] v0 = value.clone();
                int[] n0 = next.clone();
                boolean abort = rnd.nextInt(4) == 0;
                int updates = 1 + rnd.nextInt(t % 3 == 0 ? 2000 : 40); // sparse and dense transactions
                try (ObjectTransaction tx = s.begin()) {
                    for (int u = 0; u < updates; u++) {
                        int i = rnd.nextInt(n);
                        ListNode x = tx.get(addr[i], ListNode.class);
                        if (rnd.nextInt(5) == 0) {
                            int j = rnd.nextInt(n + 1) - 1;
                            x.next(j < 0 ? null : tx.get(addr[j], ListNode.class));
                            next[i] = j;
                        } else {
                            int v = rnd.nextInt();
                            x.value(v);
                            x.value(v + 1); // a repeated store to the same word
                            value[i] = v + 1;
                        }
                    }
                    if (abort) {
                        tx.abort();
                        value = v0;
                        next = n0;
                    } else {
                        tx.commit();
                    }
                }
                check(s, addr, value, next, "after transaction " + t + (abort ? " (aborted)" : ""));
            }
            if (barrier(d)) {
                assertEquals(0, s.storageManager().faultCounters().writeFaults(), "write faults under " + d);
            }
        }
        try (PersistentStore s = PersistentStore.open(db, options(d), ListNode.class)) {
            check(s, addr, value, next, "after reopening");
            assertTrue(s.storageManager().verify().ok());
        }
    }

    private static void check(PersistentStore s, long[] addr, int[] value, int[] next, String when) {
        try (ObjectTransaction tx = s.begin()) {
            for (int i = 0; i < addr.length; i++) {
                ListNode x = tx.get(addr[i], ListNode.class);
                assertEquals(value[i], x.value(), "value of node " + i + " " + when);
                long nx = x.next() == null ? 0 : tx.addressOf(x.next());
                assertEquals(next[i] < 0 ? 0 : addr[next[i]], nx, "next of node " + i + " " + when);
            }
        }
    }

    /**
     * A store through {@code Store.view()} that bypasses the barrier, to a second object on a page the barrier
     * did mark: object marking and remembered sets compare only what was marked, so it is not logged (the commit
     * logs as many bytes as a transaction without it); scanning compares every resident page and kernel tracking
     * every written one, so it is. (The
     * stray bytes may still reach the volume when the page is written back: durability needs the log.)
     */
    @ParameterizedTest
    @EnumSource(
            value = WriteDetection.class,
            names = {"OBJECT_MARKING", "REMEMBERED_SETS", "SCANNING", "KERNEL_TRACKING"})
    void aStoreBypassingTheBarrierIsLoggedOnlyWithoutABarrier(WriteDetection d) throws Exception {
        assumeAvailable(d);
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), options(d), ListNode.class)) {
            Store st = s.storageManager();
            long a;
            long b;
            try (ObjectTransaction tx = s.begin()) {
                ListNode x = tx.create(ListNode.class);
                x.value(1);
                ListNode y = tx.create(ListNode.class, x);
                y.value(2);
                tx.root("x", x);
                tx.root("y", y);
                tx.commit();
                a = tx.addressOf(x);
                b = tx.addressOf(y);
            }
            assertEquals((a - st.arenaBase()) / 8192, (b - st.arenaBase()) / 8192, "both on one page");
            long r0 = st.commitStats().redoBytes();
            try (ObjectTransaction tx = s.begin()) {
                tx.get(a, ListNode.class).value(10); // through the barrier: one byte changes
                tx.commit();
            }
            long r1 = st.commitStats().redoBytes();
            try (ObjectTransaction tx = s.begin()) {
                tx.get(a, ListNode.class).value(11); // through the barrier: one byte changes
                long off = b - st.arenaBase();
                int at = -1;
                for (int k = 4; k < 16; k += 4) {
                    if (st.view().get(ValueLayout.JAVA_INT, off + k) == 2) {
                        at = k;
                        break;
                    }
                }
                assertTrue(at > 0, "found y's value field");
                st.view().set(ValueLayout.JAVA_INT, off + at, 555); // no barrier
                tx.commit();
            }
            long r2 = st.commitStats().redoBytes();
            assertTrue(r1 > r0, "the barrier's store was logged");
            if (!barrier(d)) {
                assertTrue(r2 - r1 > r1 - r0, d + " logged the stray store too: " + (r2 - r1) + " vs " + (r1 - r0));
            } else {
                assertEquals(r1 - r0, r2 - r1, d + " logged only the marked store");
            }
        }
    }

    /** Child JVM: commits values under args[1], prints "committed", stores uncommitted ones, waits for SIGKILL. */
    public static final class CrashChild {
        public static void main(String[] args) throws Exception {
            StoreOptions o = options(WriteDetection.valueOf(args[1]));
            PersistentStore s = PersistentStore.create(Path.of(args[0]), o, ListNode.class);
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
                    n.value(n.value() * 3 + 1);
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

    @ParameterizedTest
    @EnumSource(
            value = WriteDetection.class,
            names = {"OBJECT_MARKING", "REMEMBERED_SETS", "SCANNING", "KERNEL_TRACKING"})
    void recoveryAfterSigkill(WriteDetection d) throws Exception {
        assumeAvailable(d);
        Path db = dir.resolve("db");
        try (ChildJvm.Running child = ChildJvm.main(CrashChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx256m")
                .args(db.toString(), d.name())
                .start()) {
            String l1 = child.nextLine(Duration.ofSeconds(120)); // watchdog
            String l2 = l1 == null ? null : child.nextLine(Duration.ofSeconds(120));
            // scanning takes a write fault on a page the storage manager installed (a new object's page), the
            // barrier schemes none; kernel tracking faults only before a page's first commit
            boolean committed = !barrier(d)
                    ? l1 != null && l1.startsWith("committed writeFaults=")
                    : "committed writeFaults=0".equals(l1);
            if (!committed || !"uncommitted".equals(l2)) {
                fail("child said " + l1 + " / " + l2 + "; " + child.describe());
            }
            child.kill(); // SIGKILL
            assertEquals(137, child.exitCode(), "killed by SIGKILL (128 + 9)");
        }
        try (PersistentStore s = PersistentStore.open(db, options(d), ListNode.class);
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
