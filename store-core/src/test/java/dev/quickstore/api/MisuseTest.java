package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreException;
import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Misuse gives a clear exception, never a crash (checks at creation, lookup, writes and boundaries). */
class MisuseTest {
    @TempDir
    Path dir;

    @Test
    void writingAfterCommitOrAbortThrowsNamingTheTransactionsEnd() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"))) {
            Kinds k;
            try (ObjectTransaction tx = s.begin()) {
                k = tx.create(Kinds.class);
                k.i(1);
                tx.root("k", k);
                tx.commit();
            }
            StoreException e = assertThrows(StoreException.class, () -> k.i(2));
            assertTrue(e.getMessage().contains("has committed"), e.getMessage());
            assertThrows(StoreException.class, () -> k.name("x"));
            assertThrows(StoreException.class, () -> k.children().add(null));
            Kinds k2;
            try (ObjectTransaction tx = s.begin()) {
                k2 = tx.root("k", Kinds.class);
                tx.abort();
                assertThrows(StoreException.class, tx::commit);
            }
            e = assertThrows(StoreException.class, () -> k2.type("t"));
            assertTrue(e.getMessage().contains("aborted"), e.getMessage());
            try (ObjectTransaction tx = s.begin()) {
                assertEquals(1, tx.root("k", Kinds.class).i(), "nothing leaked into the store");
            }
        }
    }

    @Test
    void objectsOfAnotherTransactionOrTypeAreRefusedAsArguments() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"))) {
            Kinds old;
            try (ObjectTransaction tx = s.begin()) {
                old = tx.create(Kinds.class);
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                Kinds b = tx.create(Kinds.class);
                StoreException e = assertThrows(StoreException.class, () -> b.other(old));
                assertTrue(e.getMessage().contains("belongs to transaction"), e.getMessage());
                assertThrows(StoreException.class, () -> tx.root("r", old));
                assertThrows(StoreException.class, () -> b.children().add(old));
                assertThrows(StoreException.class, () -> tx.create(Kinds.class, old));
                ListNode n = tx.create(ListNode.class);
                @SuppressWarnings("unchecked")
                List<Object> raw = (List<Object>) (List<?>) b.children();
                assertThrows(IllegalArgumentException.class, () -> raw.add(n));
                assertThrows(IllegalArgumentException.class, () -> tx.root("r", "not persistent"));
                assertThrows(IllegalArgumentException.class, () -> tx.create(String.class));
                assertThrows(IllegalArgumentException.class, () -> tx.create(Runnable.class));
            }
        }
    }

    /**
     * The transaction remembers the descriptors of the last two classes asked for: three types asked in turn (so
     * every third request misses the memo) still get objects of their own type, and a lookup under a remembered
     * type that the object does not have is refused as before.
     */
    @Test
    void threeTypesInTurnEachGetTheirOwnDescriptor() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"));
                ObjectTransaction tx = s.begin()) {
            List<Object> made = new ArrayList<>();
            Class<?>[] types = {ListNode.class, Kinds.class, Leaf.class};
            for (int i = 0; i < 9; i++) {
                Object o = tx.create(types[i % 3]);
                assertTrue(types[i % 3].isInstance(o), i + ": " + o.getClass());
                made.add(o);
            }
            for (int i = 8; i >= 0; i--) { // the other order: each lookup's type differs from the last two
                long a = tx.addressOf(made.get(i));
                assertEquals(made.get(i), tx.get(a, types[i % 3]));
                assertEquals(made.get(i), tx.follow(a, types[i % 3]));
                Class<?> wrong = types[(i + 1) % 3];
                assertThrows(ClassCastException.class, () -> tx.get(a, wrong), i + " as " + wrong);
            }
        }
    }

    @Test
    void wrongTypeAndWildAddressesAreRefusedAtLookup() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"));
                ObjectTransaction tx = s.begin()) {
            ListNode n = tx.create(ListNode.class);
            tx.root("n", n);
            ClassCastException e = assertThrows(ClassCastException.class, () -> tx.root("n", Kinds.class));
            assertTrue(
                    e.getMessage().contains("dev.quickstore.api.ListNode")
                            && e.getMessage().contains("not a dev.quickstore.api.Kinds"),
                    e.getMessage());
            long a = tx.addressOf(n);
            assertEquals(n, tx.get(a, ListNode.class));
            IllegalArgumentException wild =
                    assertThrows(IllegalArgumentException.class, () -> tx.get(a + 8, ListNode.class));
            assertTrue(
                    wild.getMessage().startsWith(String.format("address 0x%x is not a live persistent object", a + 8)),
                    wild.getMessage());
            ClassCastException other = assertThrows(ClassCastException.class, () -> tx.get(a, Kinds.class));
            assertTrue(
                    other.getMessage().startsWith(String.format("address 0x%x at 0x%x is a ", a, a))
                            && other.getMessage().contains("not a dev.quickstore.api.Kinds"),
                    other.getMessage());
            assertThrows(IllegalArgumentException.class, () -> tx.get(a + (1L << 30), ListNode.class));
            assertThrows(IllegalArgumentException.class, () -> tx.get(12345, ListNode.class));
            tx.delete(n);
            assertThrows(IllegalArgumentException.class, () -> tx.get(a, ListNode.class));
        }
    }

    @Test
    void afterCloseReadsFailCleanlyAndWritesThrow() throws Exception {
        Kinds k;
        ObjectTransaction open;
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"))) {
            open = s.begin();
            k = open.create(Kinds.class);
            k.i(3);
        }
        assertThrows(IndexOutOfBoundsException.class, k::i, "the view is unbound: no foreign memory is read");
        StoreException e = assertThrows(StoreException.class, () -> k.i(4));
        assertTrue(e.getMessage().contains("store was closed"), e.getMessage());
        assertThrows(StoreException.class, open::commit);
        open.close(); // harmless
        try (PersistentStore s = PersistentStore.open(dir.resolve("db"));
                ObjectTransaction tx = s.begin()) {
            assertEquals(null, tx.root("k", Kinds.class), "the open transaction was aborted by close");
        }
    }

    @Test
    void onePersistentStorePerProcess() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("a"))) {
            // refused by the mapped storage manager (arena base taken) or, in EXPLICIT mode, by the object API
            RuntimeException e = assertThrows(RuntimeException.class, () -> PersistentStore.create(dir.resolve("b")));
            assertTrue(
                    e.getMessage().contains("already in use in this process")
                            || e.getMessage().contains("one application view per process"),
                    e.getMessage());
            try (ObjectTransaction tx = s.begin()) {
                tx.create(Kinds.class).i(1);
                tx.commit();
            }
        }
        try (PersistentStore c = PersistentStore.create(dir.resolve("c"))) {
            assertTrue(c.schema().isEmpty(), "the refusal left nothing bound");
        }
    }

    @Test
    void strictModeChecksEveryRead() throws Exception {
        ChildJvm.Result r = ChildJvm.main(StrictChild.class)
                .workDir(dir)
                .jvmArgs("-Xmx1g", "-Dqs.api.strict=true")
                .args(dir.resolve("db").toString())
                .run();
        assertEquals(0, r.exitCode(), r.describe());
        assertTrue(r.stdout().contains("read refused: transaction"), r.stdout());
        assertTrue(r.stdout().contains("list refused: transaction"), r.stdout());
    }

    /** Child JVM with -Dqs.api.strict=true. */
    public static final class StrictChild {
        public static void main(String[] args) throws Exception {
            try (PersistentStore s = PersistentStore.create(Path.of(args[0]))) {
                Kinds k;
                try (ObjectTransaction tx = s.begin()) {
                    k = tx.create(Kinds.class);
                    tx.commit();
                }
                try {
                    System.out.println("read not refused: " + k.i());
                } catch (StoreException e) {
                    System.out.println("read refused: " + e.getMessage());
                }
                try {
                    System.out.println("list not refused: " + k.children().size());
                } catch (StoreException e) {
                    System.out.println("list refused: " + e.getMessage());
                }
            }
        }
    }
}
