package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.testkit.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectApiTest {
    @TempDir
    Path dir;

    @Test
    void everyFieldKindRoundTripsThroughCommitCloseReopenAndAFreshJvm() throws Exception {
        Path db = dir.resolve("db");
        String expected;
        try (PersistentStore s = PersistentStore.create(db, Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                KindsFixture.fill(tx, k);
                tx.root("kinds", k);
                expected = KindsFixture.describe(k);
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                assertEquals(expected, KindsFixture.describe(tx.root("kinds", Kinds.class)), "same store handle");
            }
            assertTrue(s.storageManager().verify().ok());
        }
        assertTrue(expected.contains("-5 -1234 8364 12345678 -9223372036854775766 3.25 -3.141592653589793 true"));
        assertTrue(expected.contains("[type007] [short name] " + KindsFixture.LONG_TEXT.length() + ":"));
        assertTrue(expected.contains("children=4:1,2->"));
        try (PersistentStore s = PersistentStore.open(db, Kinds.class);
                ObjectTransaction tx = s.begin()) {
            Kinds k = tx.root("kinds", Kinds.class);
            assertEquals(expected, KindsFixture.describe(k), "reopened");
            assertEquals(KindsFixture.LONG_TEXT, k.text().toString());
            assertArrayEquals(KindsFixture.BIG, k.data());
            assertEquals(
                    k,
                    k.children().get(0).other() == null
                            ? k
                            : k.children().get(1).other());
        }
        ChildJvm.Result r = ChildJvm.main(KindsFixture.class)
                .workDir(dir)
                .jvmArgs("-Xmx1g")
                .args(db.toString())
                .run();
        assertEquals(0, r.exitCode(), r.describe());
        assertEquals(expected, r.stdout().strip(), "fresh JVM");
    }

    @Test
    void defaultsAreZeroFalseNullAndEmpty() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"));
                ObjectTransaction tx = s.begin()) {
            Kinds k = tx.create(Kinds.class);
            assertEquals(0, k.i());
            assertEquals(0L, k.l());
            assertFalse(k.z());
            assertEquals("", k.type());
            assertNull(k.name());
            assertNull(k.data());
            assertNull(k.other());
            assertTrue(k.children().isEmpty());
        }
    }

    @Test
    void settersReplaceOutOfLineValuesAndAbortRestoresEverything() throws Exception {
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                k.i(7);
                k.name("before");
                k.data(new byte[] {1, 2, 3});
                tx.root("k", k);
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.root("k", Kinds.class);
                k.i(8);
                k.name("after, and much longer than before");
                k.data(null);
                k.children().add(tx.create(Kinds.class, k));
                assertEquals("after, and much longer than before", k.name());
                tx.abort();
            }
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.root("k", Kinds.class);
                assertEquals(7, k.i());
                assertEquals("before", k.name());
                assertArrayEquals(new byte[] {1, 2, 3}, k.data());
                assertEquals(0, k.children().size());
                for (int i = 0; i < 50; i++) {
                    k.name("version " + i); // each set frees the previous blob
                }
                k.text("x".repeat(20_000)); // large object
                k.text("small again");
                tx.commit();
            }
            assertTrue(s.storageManager().verify().ok());
        }
        try (PersistentStore s = PersistentStore.open(db);
                ObjectTransaction tx = s.begin()) {
            Kinds k = tx.root("k", Kinds.class);
            assertEquals("version 49", k.name());
            assertEquals("small again", k.text().toString());
        }
    }

    @Test
    void referenceListsGrowShrinkAndKeepIdentity() throws Exception {
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds owner = tx.create(Kinds.class);
                for (int i = 0; i < 500; i++) {
                    Kinds c = tx.create(Kinds.class, owner);
                    c.i(i);
                    owner.children().add(c);
                }
                owner.children().remove(0);
                owner.children().add(0, owner);
                owner.children().set(1, null);
                tx.root("owner", owner);
                tx.commit();
            }
        }
        try (PersistentStore s = PersistentStore.open(db);
                ObjectTransaction tx = s.begin()) {
            Kinds owner = tx.root("owner", Kinds.class);
            List<Kinds> ch = owner.children();
            assertEquals(500, ch.size());
            assertEquals(owner, ch.get(0));
            assertEquals(owner.hashCode(), ch.get(0).hashCode());
            assertNull(ch.get(1));
            long sum = 0;
            for (int i = 2; i < ch.size(); i++) {
                sum += ch.get(i).i();
            }
            assertEquals((499L * 500 / 2) - 1, sum); // 2..499
            assertNotEquals(tx.addressOf(ch.get(2)), tx.addressOf(ch.get(3)));
            tx.delete(ch.get(499));
            ch.remove(499);
            tx.commit();
        }
    }
}
