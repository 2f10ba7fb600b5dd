package dev.quickstore.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading stored text through the {@code CharSequence} a getter returns ({@code BlobText}, issue 13): {@code
 * charAt} in order and at random, {@code subSequence}, {@code getChars}, {@code StringBuilder.append} of a range,
 * {@code toString} and the bounds checks, against the {@code String} that was stored: Latin-1 and UTF-16, a small
 * blob and large objects over several pages (so ranges cross page runs), in the writing transaction and after a
 * reopen (read faults), under page protection, card marking and the copying view.
 */
@ExtendWith(SeedExtension.class)
class BlobTextTest {
    @TempDir
    Path dir;

    private static StoreOptions options(String detection) {
        return switch (detection) {
            case "cards" -> StoreOptions.defaults().withCardMarking(512);
            case "explicit" -> StoreOptions.defaults().withFrames(FramesMode.EXPLICIT);
            default -> StoreOptions.defaults().withWriteDetection(WriteDetection.PAGE_PROTECTION);
        };
    }

    private static String text(SplittableRandom rnd, int n, boolean utf16) {
        StringBuilder sb = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            int pick = rnd.nextInt(30);
            sb.append(
                    utf16 && pick == 0
                            ? (char) (0x100 + rnd.nextInt(0xd000 - 0x100)) // beyond Latin-1, no surrogates
                            : pick == 1 ? (char) (0x80 + rnd.nextInt(0x80)) : (char) ('a' + rnd.nextInt(26)));
        }
        if (utf16) {
            sb.setCharAt(n / 2, '\u20ac'); // at least one character beyond Latin-1
        }
        return sb.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"pages", "cards", "explicit"})
    void readsWhatWasStoredCharByCharAndInBulk(String detection, Seed seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed.value());
        List<String> texts = List.of(
                "",
                text(rnd, 2_000, false), // an OO7 document
                text(rnd, 700, true),
                text(rnd, 30_000, false), // a large object over four 8 KiB pages
                text(rnd, 21_000, true)); // 42,000 bytes: six pages
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, options(detection), Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                for (int i = 0; i < texts.size(); i++) {
                    Kinds k = tx.create(Kinds.class);
                    k.text(texts.get(i));
                    tx.root("t" + i, k);
                    check(texts.get(i), k::text, rnd);
                }
                tx.commit();
            }
        }
        try (PersistentStore s = PersistentStore.open(db, options(detection), Kinds.class);
                ObjectTransaction tx = s.begin()) {
            for (int i = 0; i < texts.size(); i++) {
                Kinds k = tx.root("t" + i, Kinds.class);
                check(texts.get(i), k::text, rnd);
            }
        }
    }

    /** @param text a new view of the stored text per call (each starts without a current run) */
    private static void check(String expect, Supplier<CharSequence> text, SplittableRandom rnd) {
        CharSequence got = text.get();
        int n = expect.length();
        assertEquals(n, got.length());
        CharSequence random = text.get();
        for (int j = 0; j < 500 && n > 0; j++) { // random order first: a run found from any position
            int i = rnd.nextInt(n);
            assertEquals(expect.charAt(i), random.charAt(i), "charAt " + i + " (random order)");
        }
        for (int i = 0; i < n; i++) {
            if (expect.charAt(i) != got.charAt(i)) {
                assertEquals(expect.charAt(i), got.charAt(i), "charAt " + i + " of " + n);
            }
        }
        assertEquals(expect, got.toString());
        assertEquals(expect, got.subSequence(0, n).toString());
        for (int j = 0; j < 40; j++) {
            int a = n == 0 ? 0 : rnd.nextInt(n + 1);
            int b = a + (n == a ? 0 : rnd.nextInt(n - a + 1));
            assertEquals(expect.substring(a, b), got.subSequence(a, b).toString(), "subSequence " + a + ", " + b);
            assertEquals(
                    expect.substring(a, b),
                    new StringBuilder().append(text.get(), a, b).toString(),
                    "StringBuilder.append " + a + ", " + b);
            char[] dst = new char[b - a + 3];
            text.get().getChars(a, b, dst, 2);
            char[] want = new char[b - a + 3];
            expect.getChars(a, b, want, 2);
            assertArrayEquals(want, dst, "getChars " + a + ", " + b);
        }
        assertThrows(IndexOutOfBoundsException.class, () -> got.charAt(n));
        assertThrows(IndexOutOfBoundsException.class, () -> got.charAt(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> got.subSequence(0, n + 1));
        if (n > 0) {
            assertThrows(IndexOutOfBoundsException.class, () -> got.getChars(0, n, new char[n - 1], 0));
        }
    }
}
