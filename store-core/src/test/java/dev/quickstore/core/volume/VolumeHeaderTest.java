package dev.quickstore.core.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StoreFormatException;
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
                2, 8192, new UUID(0x0102030405060708L, 0x1112131415161718L), 0x5a0000000000L, 42, 1234567L, 16, 7, 9);
        byte[] enc = h.encode();
        assertEquals(8192, enc.length);
        assertEquals(h, VolumeHeader.decode("x", enc));
    }

    @Test
    void thePointerFormatRoundTripsAndAnUnknownOneIsRefusedAtItsOffset() {
        VolumeHeader texas =
                new VolumeHeader(3, 8192, UUID.randomUUID(), 0, 1, 0, 16, 0, 0, VolumeHeader.POINTERS_TEXAS);
        byte[] enc = texas.encode();
        assertEquals(1, enc[VolumeHeader.POINTER_FORMAT_OFFSET]);
        assertEquals(VolumeHeader.POINTERS_TEXAS, VolumeHeader.decode("t", enc).pointerFormat());
        assertEquals(
                VolumeHeader.POINTERS_VIRTUAL,
                VolumeHeader.decode("v", new VolumeHeader(2, 8192, UUID.randomUUID(), 0, 1, 0, 16, 0, 0).encode())
                        .pointerFormat());
        assertEquals(
                VolumeHeader.POINTERS_OID,
                VolumeHeader.decode(
                                "o",
                                new VolumeHeader(
                                                3,
                                                8192,
                                                UUID.randomUUID(),
                                                0,
                                                1,
                                                0,
                                                16,
                                                0,
                                                0,
                                                VolumeHeader.POINTERS_OID)
                                        .encode())
                        .pointerFormat());
        java.lang.foreign.MemorySegment seg = java.lang.foreign.MemorySegment.ofArray(enc);
        seg.set(dev.quickstore.core.page.PageHeader.INT, VolumeHeader.POINTER_FORMAT_OFFSET, 7);
        dev.quickstore.core.page.PageHeader.seal(seg);
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> VolumeHeader.decode("vol", enc));
        assertTrue(e.getMessage().contains("pointer format") && e.getMessage().contains("92"), e.getMessage());
        // a version-2 volume must say "virtual addresses": Texas pointers there would be read as addresses by
        // builds that know only version 2
        byte[] v2 =
                new VolumeHeader(2, 8192, UUID.randomUUID(), 0, 1, 0, 16, 0, 0, VolumeHeader.POINTERS_TEXAS).encode();
        StoreFormatException old = assertThrows(StoreFormatException.class, () -> VolumeHeader.decode("v2", v2));
        assertTrue(old.getMessage().contains("format version 2"), old.getMessage());
        assertEquals(3, VolumeHeader.versionFor(VolumeHeader.POINTERS_TEXAS));
        assertEquals(3, VolumeHeader.versionFor(VolumeHeader.POINTERS_OID));
        assertEquals(2, VolumeHeader.versionFor(VolumeHeader.POINTERS_VIRTUAL));
    }

    @Test
    void everySingleBitFlipIsDetected() {
        byte[] enc = new VolumeHeader(2, 8192, UUID.randomUUID(), 0, 1, 0, 16, 0, 0).encode();
        // every bit of the header fields and page header, and a sample of the rest of the page
        for (int bit = 0; bit < enc.length * 8; bit += bit < VolumeHeader.SIZE * 8 ? 1 : 61) {
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
        all[72] ^= 1; // pageCount
        Files.write(vol, all);
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> VolumeFile.readHeader(dir));
        assertTrue(
                e.getMessage().startsWith(vol + " page 0 offset 0: header page checksum (CRC32C) expected 0x"),
                e.getMessage());
        assertEquals(0, e.offset());
    }

    @Test
    void foreignFileIsNamedAsSuch() throws Exception {
        Files.createDirectories(dir);
        Files.write(VolumeFile.volumePath(dir), new byte[8192]);
        StoreFormatException e = assertThrows(StoreFormatException.class, () -> VolumeFile.readHeader(dir));
        assertTrue(e.getMessage().contains("not a QuickStore/J volume"), e.getMessage());
    }

    @Test
    void goldenImageForTheNativeSideIsStable() {
        // The same bytes are checked by store-native's header reader (docs/formats.md, "test vector").
        byte[] enc = new VolumeHeader(
                        2,
                        8192,
                        new UUID(0x0102030405060708L, 0x1112131415161718L),
                        0x5a0000000000L,
                        16,
                        1000L,
                        16,
                        3,
                        4)
                .encode();
        assertEquals("QSVOLUME", new String(enc, 32, 8, java.nio.charset.StandardCharsets.US_ASCII));
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(enc).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(2, b.getInt(40));
        assertEquals(8192, b.getInt(44));
        assertEquals(0x0102030405060708L, b.getLong(48));
        assertEquals(0x5a0000000000L, b.getLong(64));
        assertEquals(16, b.getLong(72));
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(enc, 4, enc.length - 4);
        assertEquals((int) crc.getValue(), b.getInt(0));
        // store-native/src/test/c/test_volume.c decodes exactly these bytes with qs_volume.h
        assertEquals(0xd4dda9da, b.getInt(0));
        assertEquals(
                "daa9ddd4010100000000000000000000" + "00000000000000000000000000000000"
                        + "5153564f4c554d450200000000200000" + "08070605040302011817161514131211"
                        + "00000000005a00001000000000000000" + "e8030000000000001000000000000000"
                        + "03000000000000000400000000000000" + "00000000000000000000000000000000",
                java.util.HexFormat.of().formatHex(enc, 0, 128));
        for (int i = 128; i < enc.length; i++) {
            assertEquals(0, enc[i], "byte " + i);
        }
    }

    @Test
    void createThenReadHeader() throws Exception {
        VolumeHeader created = VolumeFile.create(dir.resolve("db"), 8192);
        assertEquals(created, VolumeFile.readHeader(dir.resolve("db")));
        assertEquals(8192, Files.size(VolumeFile.volumePath(dir.resolve("db"))));
    }
}
