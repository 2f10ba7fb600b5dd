package dev.quickstore.api.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link Blobs#latin1OrNull}: a text's ISO-8859-1 bytes when every character is at most U+00FF, else null - for a
 * {@code String} (encoded, decoded and compared) and for another {@code CharSequence} (read character by
 * character) alike; a literal '?' is a Latin-1 character, a character beyond U+00FF (which encodes as '?') is not.
 */
class Latin1Test {
    @Test
    void latin1TextsAreTheirBytesOthersNull() {
        String[] latin1 = {"", "plain", "what?", "\u00e9 \u00e0 \u00ff ?", "\u0000\u007f\u0080", "?".repeat(3000)};
        for (String t : latin1) {
            byte[] expected = t.getBytes(StandardCharsets.ISO_8859_1);
            assertArrayEquals(expected, Blobs.latin1OrNull(t), t);
            assertArrayEquals(expected, Blobs.latin1OrNull(new StringBuilder(t)), "builder " + t);
        }
        String[] beyond = {"\u20ac", "a\u20ac?", "?\u0100", "x".repeat(2000) + "\u4e2d", "\ud83d\ude00"};
        for (String t : beyond) {
            assertNull(Blobs.latin1OrNull(t), t);
            assertNull(Blobs.latin1OrNull(new StringBuilder(t)), "builder " + t);
        }
    }
}
