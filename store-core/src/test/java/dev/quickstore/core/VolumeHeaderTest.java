package dev.quickstore.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VolumeHeaderTest {
    @TempDir
    Path dir;

    @Test
    void roundTripsEveryField() {
        VolumeHeader h = new VolumeHeader(
                1, 8192, new UUID(0x0102030405060708L, 0x1112131415161718L), 0x5a0000000000L, 42, 1234567L);
        byte[] enc = h.encode();
        assertEquals(VolumeHeader.SIZE, enc.length);
        assertEquals(h, VolumeHeader.decode("x", enc));
    }

    @Test
    void everySingleBitFlipIsDetected() {
        byte[] enc = new VolumeHeader(1, 8192, UUID.randomUUID(), 0, 1, 0).encode();
        for (int bit = 0; bit < VolumeHeader.SIZE * 8; bit++) {
            byte[] bad = enc.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThrows(StoreFormatException.class, () -> VolumeHeader.decode("v", bad), "bit " + bit);
        }
    }

    @Test
    void damagedChecksumNamesFilePageOffsetExpectedAndActual() throws Exception {
        VolumeFile.create(dir, 8192);
        Path vol = VolumeFile.volumePath(dir);
        byte[] all = Files.readAllBytes(vol);
        all[40] ^= 1; // pageCount
        Files.write(vol, all);
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> VolumeFile.readHeader(dir));
        assertTrue(
                e.getMessage().startsWith(vol + " page 0 offset 124: header checksum (CRC32C) expected 0x"),
                e.getMessage());
        assertEquals(124, e.offset());
    }

    @Test
    void foreignFileIsNamedAsSuch() throws Exception {
        Files.createDirectories(dir);
        Files.write(VolumeFile.volumePath(dir), new byte[8192]);
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> VolumeFile.readHeader(dir));
        assertTrue(e.getMessage().contains("not a QuickStore/J volume"), e.getMessage());
    }

    @Test
    void createThenReadHeader() throws Exception {
        VolumeHeader created = VolumeFile.create(dir.resolve("db"), 8192);
        assertEquals(created, VolumeFile.readHeader(dir.resolve("db")));
        assertEquals(8192, Files.size(VolumeFile.volumePath(dir.resolve("db"))));
    }
}
