package dev.quickstore.api;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.api.internal.View;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Splice}: the view against {@link StringBuilder#replace} as a model, and a text field set to a splice of
 * its own stored text, edited in place in the blob ({@code Blobs.spliceInPlace}) when the result fits the slot:
 * random edits against the model, in-place-ness (the field keeps its blob address), commit, abort and reopen,
 * under page protection, card marking and the copying view.
 */
class TextSpliceTest {
    @TempDir
    Path dir;

    private static final String BASE = "I am a document of a modest length, written once by a build";

    private static long blob(Kinds k) {
        return View.segment().get(JAVA_LONG, PersistentObject.addressOf(k) + Kinds$Impl.OFF_TEXT - View.base());
    }

    private static StoreOptions options(String detection) {
        return switch (detection) {
            case "cards" -> StoreOptions.defaults().withCardMarking(512);
            case "explicit" -> StoreOptions.defaults().withFrames(FramesMode.EXPLICIT);
            default -> StoreOptions.defaults().withWriteDetection(WriteDetection.PAGE_PROTECTION);
        };
    }

    private static String replacement(Random r) {
        int n = r.nextInt(4);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(r.nextInt(60) == 0 ? '\u20ac' : (char) ('a' + r.nextInt(26)));
        }
        return b.toString();
    }

    /**
     * Whether the splice fits the blob as stored now: its encoding holds the replacement, its slot (a large blob:
     * its large object's size, at most its run) the result.
     */
    private static boolean fitsInPlace(ObjectTransaction tx, long blob, Splice sp) {
        boolean utf16 = View.segment().get(JAVA_BYTE, blob + 4 - View.base()) == 3;
        boolean large = (View.segment().get(JAVA_BYTE, blob + 5 - View.base()) & 1) != 0; // its run holds more
        boolean encodable = utf16 || sp.replacement().chars().allMatch(c -> c <= 0xff);
        return encodable
                && 8 + ((long) sp.length() << (utf16 ? 1 : 0))
                        <= (large
                                ? tx.storeTransaction().largeSize(blob)
                                : tx.storeTransaction().sizeOf(blob));
    }

    @Test
    void viewAgreesWithStringBuilderReplace() {
        Random r = new Random(7);
        for (int round = 0; round < 500; round++) {
            CharSequence text = round % 2 == 0 ? BASE : new StringBuilder(BASE);
            int start = r.nextInt(BASE.length() + 1);
            int end = start + r.nextInt(BASE.length() - start + 1);
            String with = replacement(r);
            String expected = new StringBuilder(BASE).replace(start, end, with).toString();
            Splice s = Splice.replace(text, start, end, with);
            assertEquals(expected.length(), s.length());
            assertEquals(expected, s.toString());
            for (int i = 0; i < expected.length(); i++) {
                assertEquals(expected.charAt(i), s.charAt(i), "charAt " + i);
            }
            int from = r.nextInt(expected.length() + 1);
            int to = from + r.nextInt(expected.length() - from + 1);
            char[] got = new char[to - from + 2];
            s.getChars(from, to, got, 1);
            assertEquals(expected.substring(from, to), new String(got, 1, to - from), "getChars");
            assertEquals(expected.substring(from, to), s.subSequence(from, to).toString());
        }
        assertThrows(IndexOutOfBoundsException.class, () -> Splice.replace(BASE, 3, 2, "x"));
        assertThrows(IndexOutOfBoundsException.class, () -> Splice.replace(BASE, 0, BASE.length() + 1, "x"));
        assertThrows(
                IndexOutOfBoundsException.class,
                () -> Splice.replace(BASE, 0, 1, "x").charAt(BASE.length()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pages", "cards", "explicit"})
    void splicesOfTheStoredTextAreEditedInPlaceAndAgreeWithTheModel(String detection) throws Exception {
        spliceModel(detection, BASE, true);
    }

    /**
     * The same for a text longer than a small object (a large blob over three pages, as OO7 medium's documents):
     * edits that fit the blob's run are applied in place there, moving bytes across the pages' headers (mapped
     * frames; the copying view of EXPLICIT frames holds no run header, so there a large text is rewritten).
     */
    @ParameterizedTest
    @ValueSource(strings = {"pages", "cards", "explicit"})
    void largeTextsAreSplicedInPlaceToo(String detection) throws Exception {
        spliceModel(detection, BASE.repeat(330), !detection.equals("explicit")); // 19,800 characters
    }

    private void spliceModel(String detection, String base, boolean inPlaceWhenFits) throws Exception {
        Path db = dir.resolve("db");
        StringBuilder model = new StringBuilder(base);
        Random r = new Random(42);
        int inPlace = 0;
        try (PersistentStore s = PersistentStore.create(db, options(detection), Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                k.text(base);
                tx.root("k", k);
                k.text(base + "!"); // a replacing text: now with room to grow
                model.append('!');
                tx.commit();
            }
            for (int t = 0; t < 6; t++) {
                try (ObjectTransaction tx = s.begin()) {
                    Kinds k = tx.root("k", Kinds.class);
                    StringBuilder before = new StringBuilder(model);
                    for (int i = 0; i < 40; i++) {
                        CharSequence text = k.text();
                        int start = r.nextInt(text.length() + 1);
                        int end = Math.min(text.length(), start + r.nextInt(4));
                        String with = replacement(r);
                        long blob = blob(k);
                        Splice sp = Splice.replace(text, start, end, with);
                        boolean fits = fitsInPlace(tx, blob, sp);
                        k.text(sp);
                        model.replace(start, end, with);
                        assertEquals(model.toString(), k.text().toString(), "edit " + i + " of transaction " + t);
                        if (fits && inPlaceWhenFits) {
                            assertEquals(blob, blob(k), "a splice that fits is applied in place");
                            inPlace++;
                        }
                    }
                    if (t % 3 == 2) {
                        tx.abort();
                        model = before;
                    } else {
                        tx.commit();
                    }
                }
                try (ObjectTransaction tx = s.begin()) {
                    assertEquals(
                            model.toString(), tx.root("k", Kinds.class).text().toString(), "after " + t);
                }
            }
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.root("k", Kinds.class);
                k.text(Splice.replace(base, 0, 4, "This is")); // a splice of another text: an ordinary text
                model = new StringBuilder("This is" + base.substring(4));
                tx.commit();
            }
        }
        assertEquals(inPlaceWhenFits, inPlace > 100, "most edits stay in place: " + inPlace);
        try (PersistentStore s = PersistentStore.open(db, options(detection), Kinds.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(model.toString(), tx.root("k", Kinds.class).text().toString(), "after reopening");
        }
    }

    /**
     * An edit far from the blob's header (another 512-byte card): the changed length in the header is marked
     * and logged too.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pages", "cards", "explicit"})
    void anEditFarFromTheHeaderCommitsTheNewLength(String detection) throws Exception {
        Path db = dir.resolve("db");
        String text = "I am " + "x".repeat(1500);
        String expected;
        try (PersistentStore s = PersistentStore.create(db, options(detection), Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                k.text(text);
                k.text(text + "!"); // room to grow
                tx.root("k", k);
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.root("k", Kinds.class);
                long blob = blob(k);
                k.text(Splice.replace(k.text(), 1400, 1401, "grown"));
                assertEquals(blob, blob(k), "in place");
                expected = k.text().toString();
                assertEquals(text.length() + 1 + 4, expected.length());
                tx.commit();
            }
        }
        try (PersistentStore s = PersistentStore.open(db, options(detection), Kinds.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(expected, tx.root("k", Kinds.class).text().toString(), "after reopening");
        }
    }

    /**
     * Under page protection a large splice announces its pages ({@code View.announceWrites}): the clean resident
     * pages of the run it writes are made writable together before the first store, so the splice takes no write
     * fault; their pre-images are taken all the same (an abort restores the text, a commit logs it, a reopen reads
     * it). Without the announcement the first two pages written fault (write-ahead starts at the second).
     */
    @Test
    void aLargeSpliceTakesNoWriteFaultUnderPageProtection() throws Exception {
        Path db = dir.resolve("db");
        StringBuilder b = new StringBuilder();
        for (int i = 0; b.length() < 30_000; i++) {
            b.append("line ").append(i).append(" of a long document; ");
        }
        String text = b.toString();
        try (PersistentStore s = PersistentStore.create(db, options("pages"), Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                k.text(text);
                tx.root("k", k);
                tx.commit();
            }
            for (boolean commit : new boolean[] {false, true}) {
                try (ObjectTransaction tx = s.begin()) {
                    Kinds k = tx.root("k", Kinds.class);
                    long blob = blob(k);
                    assertEquals(text, k.text().toString()); // every page of the run resident and clean
                    var before = s.storageManager().faultCounters();
                    k.text(Splice.replace(k.text(), 100, 110, "an edit near the start moves the rest"));
                    var after = s.storageManager().faultCounters();
                    assertEquals(blob, blob(k), "in place");
                    assertEquals(0, after.writeFaults() - before.writeFaults(), "write faults of the splice");
                    assertTrue(
                            after.writeAheadFrames() - before.writeAheadFrames() >= 4,
                            "the run's pages announced: " + (after.writeAheadFrames() - before.writeAheadFrames()));
                    String expected = k.text().toString();
                    assertEquals(text.length() - 10 + 37, expected.length());
                    if (commit) {
                        tx.commit();
                        text = expected;
                    } else {
                        tx.abort();
                    }
                }
                try (ObjectTransaction tx = s.begin()) {
                    assertEquals(text, tx.root("k", Kinds.class).text().toString(), commit ? "committed" : "aborted");
                }
            }
        }
        try (PersistentStore s = PersistentStore.open(db, options("pages"), Kinds.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals(text, tx.root("k", Kinds.class).text().toString(), "after reopening");
        }
    }

    @Test
    void aSpliceOfAnOlderViewIsNotAppliedToTheNewerText() throws Exception {
        try (PersistentStore s = PersistentStore.create(dir.resolve("db"), options("pages"), Kinds.class);
                ObjectTransaction tx = s.begin()) {
            Kinds k = tx.create(Kinds.class);
            k.text(BASE);
            k.text(BASE + "!");
            CharSequence old = k.text();
            k.text(Splice.replace(k.text(), 0, 4, "This is"));
            // the old view is stale now (its length is the old one): the splice is not applied to the stored
            // bytes as an edit but stored as the text it reads as
            Splice stale = Splice.replace(old, 0, 1, "X");
            String reads = stale.toString();
            k.text(stale);
            assertEquals(reads, k.text().toString());
            assertEquals(BASE.length() + 1, k.text().length());
        }
    }
}
