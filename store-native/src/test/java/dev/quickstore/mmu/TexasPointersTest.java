package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The Texas persistent pointer format, version 1 (docs/formats.md): the bits the C side decodes. */
class TexasPointersTest {
    @Test
    void encodesTagVersionPageAndOffset() {
        long w = TexasPointers.encode(3, 64, 8192);
        assertEquals(0x9000_0000_0000_6040L, w, "tag 0x9 (bit 63 + version 1), then 3 * 8192 + 64");
        assertTrue(TexasPointers.isPersistent(w));
        assertEquals(3, TexasPointers.pageOf(w, 8192));
        assertEquals(64, TexasPointers.offsetOf(w, 8192));
        long big = TexasPointers.encode((1L << 47) - 1, 8191, 8192); // the largest page a 60-bit field holds
        assertEquals((1L << 47) - 1, TexasPointers.pageOf(big, 8192));
    }

    @Test
    void virtualAddressesNullAndForeignTagsAreNotPersistentPointers() {
        assertFalse(TexasPointers.isPersistent(0));
        assertFalse(TexasPointers.isPersistent(0x5a00_0000_0000L + 64), "a user-space address");
        assertFalse(TexasPointers.isPersistent(0xA000_0000_0000_0040L), "another format version");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> TexasPointers.pageOf(0x5a00_0000_0000L, 8192));
        assertTrue(e.getMessage().contains("not a Texas persistent pointer"), e.getMessage());
    }

    @Test
    void refusesOffsetsOutsideThePageAndPagesBeyondSixtyBits() {
        assertThrows(IllegalArgumentException.class, () -> TexasPointers.encode(1, 8192, 8192));
        assertThrows(IllegalArgumentException.class, () -> TexasPointers.encode(1, -1, 8192));
        assertThrows(IllegalArgumentException.class, () -> TexasPointers.encode(1L << 47, 0, 8192));
    }
}
