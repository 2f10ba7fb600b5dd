package dev.quickstore.core.index;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code KeyType.encode(key, length, capacity)}, the one-allocation form a lookup's start entry is made with (an
 * ASCII string copied in one pass), gives the bytes of {@code encode(key, length)} followed by zeros, and refuses
 * exactly what it refuses, with the same message: strings of ASCII, Latin-1, other BMP characters and surrogate
 * pairs, with U+0000, at and past the key length; INT and LONG keys; a key of the wrong type.
 */
@ExtendWith(SeedExtension.class)
class KeyTypeEncodeTest {
    private static final char[] ALPHABET = {'a', 'Z', '0', ' ', '~', '\u007f', '\u00e9', '\u20ac', '\ud83d', '\ude00'};

    @Test
    void oneAllocationFormEqualsThePaddedEncodingAndRefusesTheSameKeys(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        int fast = 0;
        for (int round = 0; round < 20_000; round++) {
            int length = 1 + rnd.nextInt(48);
            int capacity = length + (rnd.nextBoolean() ? 0 : 8);
            StringBuilder b = new StringBuilder();
            int n = rnd.nextInt(length + 4);
            boolean ascii = rnd.nextInt(3) > 0;
            for (int i = 0; i < n; i++) {
                b.append(ascii ? ALPHABET[rnd.nextInt(5)] : ALPHABET[rnd.nextInt(ALPHABET.length)]);
            }
            if (rnd.nextInt(40) == 0 && n > 0) {
                b.setCharAt(rnd.nextInt(n), '\0');
            }
            check(KeyType.STRING, b.toString(), length, capacity);
            fast += ascii && n <= length ? 1 : 0;
        }
        assertEquals(true, fast > 5_000, "ASCII keys within the length: " + fast);
        for (int i = 0; i < 1_000; i++) {
            check(KeyType.INT, rnd.nextInt(), 4, 12);
            check(KeyType.LONG, rnd.nextLong(), 8, 16);
        }
        check(KeyType.STRING, 42, 8, 16);
        check(KeyType.INT, "42", 4, 12);
        IllegalArgumentException small =
                assertThrows(IllegalArgumentException.class, () -> KeyType.STRING.encode("abcdef", 8, 4));
        assertEquals("capacity 4 is below the key length 8", small.getMessage());
    }

    private static void check(KeyType type, Object key, int length, int capacity) {
        byte[] expected;
        try {
            expected = Arrays.copyOf(type.encode(key, length), capacity);
        } catch (IllegalArgumentException refused) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> type.encode(key, length, capacity));
            assertEquals(refused.getMessage(), e.getMessage(), "key " + key);
            return;
        }
        assertArrayEquals(expected, type.encode(key, length, capacity), type + " key " + key + " length " + length);
    }
}
