package dev.quickstore.core;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.zip.CRC32C;

/**
 * The header of a volume file: page 0, first {@value #SIZE} bytes. All integers little-endian.
 *
 * <pre>
 * offset size field
 *      0    8 magic                 "QSVOLUME" (ASCII)
 *      8    4 formatVersion         {@value #FORMAT_VERSION}
 *     12    4 pageSize              bytes per page, a power of two, 4096..65536
 *     16   16 creationId            UUID (most significant 8 bytes first), fixed at creation
 *     32    8 preferredArenaBase    virtual address the store asks to be mapped at (0 = anywhere)
 *     40    8 pageCount             pages in the file, header page included
 *     48    8 createdMillis         creation time, ms since the epoch
 *     56   68 reserved              zero
 *    124    4 checksum              CRC32C of bytes 0..123
 * </pre>
 *
 * <p>Invariants: the magic and version match, pageSize is a power of two in range, the checksum
 * matches. {@link #decode} checks them all and names the failing field, offset, expected and actual
 * value in a {@link StoreFormatException}.
 */
public record VolumeHeader(
        int formatVersion, int pageSize, UUID creationId, long preferredArenaBase, long pageCount, long createdMillis) {

    public static final int SIZE = 128;
    public static final int FORMAT_VERSION = 1;
    public static final byte[] MAGIC = "QSVOLUME".getBytes(StandardCharsets.US_ASCII);
    static final int CHECKSUM_OFFSET = 124;

    public VolumeHeader {
        if (Integer.bitCount(pageSize) != 1 || pageSize < 4096 || pageSize > 65536) {
            throw new IllegalArgumentException("page size " + pageSize + " is not a power of two in 4096..65536");
        }
    }

    /** Encodes into a new {@value #SIZE}-byte array, checksum included. */
    public byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC)
                .putInt(formatVersion)
                .putInt(pageSize)
                .putLong(creationId.getMostSignificantBits())
                .putLong(creationId.getLeastSignificantBits())
                .putLong(preferredArenaBase)
                .putLong(pageCount)
                .putLong(createdMillis);
        b.putInt(CHECKSUM_OFFSET, checksum(b.array()));
        return b.array();
    }

    static int checksum(byte[] header) {
        CRC32C crc = new CRC32C();
        crc.update(header, 0, CHECKSUM_OFFSET);
        return (int) crc.getValue();
    }

    /**
     * Decodes and validates a header.
     *
     * @param file the file name used in error messages
     * @throws StoreFormatException naming the field, offset, expected and actual values
     */
    public static VolumeHeader decode(String file, byte[] header) {
        if (header.length < SIZE) {
            throw new StoreFormatException(file, 0, 0, "volume header", SIZE + " bytes", header.length + " bytes");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (header[i] != MAGIC[i]) {
                throw new StoreFormatException(
                        file,
                        0,
                        0,
                        "magic",
                        "\"QSVOLUME\"",
                        "\"" + new String(header, 0, MAGIC.length, StandardCharsets.ISO_8859_1)
                                + "\" (not a QuickStore/J volume)");
            }
        }
        ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        int stored = b.getInt(CHECKSUM_OFFSET);
        int actual = checksum(header);
        if (stored != actual) {
            throw new StoreFormatException(
                    file,
                    0,
                    CHECKSUM_OFFSET,
                    "header checksum (CRC32C)",
                    hex(stored),
                    hex(actual) + " computed over bytes 0.." + (CHECKSUM_OFFSET - 1));
        }
        int version = b.getInt(8);
        if (version != FORMAT_VERSION) {
            throw new StoreFormatException(
                    file, 0, 8, "format version", String.valueOf(FORMAT_VERSION), String.valueOf(version));
        }
        int pageSize = b.getInt(12);
        if (Integer.bitCount(pageSize) != 1 || pageSize < 4096 || pageSize > 65536) {
            throw new StoreFormatException(
                    file, 0, 12, "page size", "a power of two in 4096..65536", String.valueOf(pageSize));
        }
        UUID id = new UUID(b.getLong(16), b.getLong(24));
        return new VolumeHeader(version, pageSize, id, b.getLong(32), b.getLong(40), b.getLong(48));
    }

    static String hex(int v) {
        return String.format("0x%08x", v);
    }
}
