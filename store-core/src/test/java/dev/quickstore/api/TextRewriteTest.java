package dev.quickstore.api;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.quickstore.api.internal.View;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.options.WriteDetection;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Text fields set again are rewritten in place when the new text fits the old blob's slot, else moved to a new
 * blob with room to grow (issue 13, OO7 T5; {@code Blobs.rewriteText}): values, in-place-ness (the field keeps
 * its blob address), zeroed leftovers, durability and abort, under page protection, card marking and the
 * copying view (FramesMode.EXPLICIT).
 */
class TextRewriteTest {
    @TempDir
    Path dir;

    private static final String LONG_TEXT = "I am a document of a modest length, written once by a build";

    /** The blob address a Kinds object's text field holds. */
    private static long blob(Kinds k) {
        return View.segment().get(JAVA_LONG, PersistentObject.addressOf(k) + Kinds$Impl.OFF_TEXT - View.base());
    }

    private static int byteAt(long blob, long offset) {
        return View.segment().get(JAVA_BYTE, blob + offset - View.base());
    }

    private static StoreOptions options(String detection) {
        return switch (detection) {
            case "cards" -> StoreOptions.defaults().withCardMarking(512);
            case "explicit" -> StoreOptions.defaults().withFrames(FramesMode.EXPLICIT); // the copying view
            default -> StoreOptions.defaults().withWriteDetection(WriteDetection.PAGE_PROTECTION);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"pages", "cards", "explicit"})
    void rewritesInPlaceWhenItFitsAndMovesWithRoomWhenNot(String detection) throws Exception {
        Path db = dir.resolve("db");
        try (PersistentStore s = PersistentStore.create(db, options(detection), Kinds.class)) {
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.create(Kinds.class);
                k.text(LONG_TEXT);
                tx.root("k", k);
                long first = blob(k);

                k.text("I am shorter");
                assertEquals(first, blob(k), "a shorter text is rewritten in place");
                assertEquals("I am shorter", k.text().toString());
                for (int i = "I am shorter".length(); i < LONG_TEXT.length(); i++) {
                    assertEquals(0, byteAt(first, 8 + i), "byte " + i + " the text no longer uses is zeroed");
                }

                String longer = LONG_TEXT + ", and then made longer than its slot";
                k.text(longer);
                long second = blob(k);
                assertNotEquals(first, second, "a text that does not fit moves to a new blob");
                assertEquals(longer, k.text().toString());

                k.text(longer + " by 3!"); // within the room a replacing text gets
                assertEquals(second, blob(k), "a small growth stays in place");
                assertEquals(longer + " by 3!", k.text().toString());

                k.text("caf\u00e9 \u20ac 1"); // UTF-16 now, fits
                assertEquals(second, blob(k));
                assertEquals("caf\u00e9 \u20ac 1", k.text().toString());

                k.text(k.text()); // a view over the very blob being replaced: copied first
                assertEquals("caf\u00e9 \u20ac 1", k.text().toString());
                tx.commit();
            }
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.root("k", Kinds.class);
                assertEquals("caf\u00e9 \u20ac 1", k.text().toString(), "committed");
                long b = blob(k);
                k.text("gone on abort");
                assertEquals(b, blob(k));
                assertEquals("gone on abort", k.text().toString());
                tx.abort();
            }
            try (ObjectTransaction tx = s.begin()) {
                Kinds k = tx.root("k", Kinds.class);
                assertEquals("caf\u00e9 \u20ac 1", k.text().toString(), "the abort restored the rewritten bytes");
                k.text(null);
                assertNull(k.text());
                k.text("back");
                tx.commit();
            }
        }
        try (PersistentStore s = PersistentStore.open(db, options(detection), Kinds.class);
                ObjectTransaction tx = s.begin()) {
            assertEquals("back", tx.root("k", Kinds.class).text().toString(), "after reopening");
        }
    }
}
