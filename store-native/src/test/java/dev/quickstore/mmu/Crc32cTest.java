package dev.quickstore.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.testkit.FixedSeed;
import dev.quickstore.testkit.Seed;
import dev.quickstore.testkit.SeedExtension;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The C CRC32C (used by the fault path to verify pages) agrees with java.util.zip.CRC32C. */
@ExtendWith(SeedExtension.class)
@FixedSeed(1L)
class Crc32cTest {
    private static int java(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    @Test
    void agreesWithJavaOnHeapAndNativeSegmentsOfEveryLengthAndAlignment(Seed seed) {
        SplittableRandom rnd = seed.splittable();
        byte[] data = new byte[9000];
        rnd.nextBytes(data);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(data.length);
            MemorySegment.copy(data, 0, nat, ValueLayout.JAVA_BYTE, 0, data.length);
            for (int off = 0; off < 8; off++) {
                for (int len = 0; off + len <= data.length; len += 1 + len / 3) {
                    int expected = java(data, off, len);
                    assertEquals(
                            expected,
                            MappedArena.crc32c(MemorySegment.ofArray(data).asSlice(off, len)),
                            "heap " + off + "+" + len);
                    assertEquals(expected, MappedArena.crc32c(nat.asSlice(off, len)), "native " + off + "+" + len);
                }
            }
        }
    }

    @Test
    void knownVector() {
        assertEquals(
                0xE3069283,
                MappedArena.crc32c(
                        MemorySegment.ofArray("123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII))));
    }
}
