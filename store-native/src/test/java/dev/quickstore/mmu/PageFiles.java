package dev.quickstore.mmu;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Writes page files in the contract shared with store-core: little-endian CRC32C of bytes
 * 4..pageSize-1 in bytes 0..3 (computed with java.util.zip.CRC32C, verified by the C fault path).
 * Word k >= 1 of page p holds {@link #word(long, int)}.
 */
final class PageFiles {
    private PageFiles() {}

    static long word(long page, int k) {
        return page * 1_000_003L + k;
    }

    static ByteBuffer page(long p, int pageSize) {
        ByteBuffer b = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 1; k < pageSize / 8; k++) {
            b.putLong(8 * k, word(p, k));
        }
        seal(b);
        return b;
    }

    /** Sets the checksum header of a page buffer. */
    static void seal(ByteBuffer b) {
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 4, b.capacity() - 4);
        b.putInt(0, (int) crc.getValue());
    }

    static Path write(Path file, long pages, int pageSize) throws IOException {
        try (FileChannel ch = FileChannel.open(
                file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            for (long p = 0; p < pages; p++) {
                ch.write(page(p, pageSize), p * pageSize);
            }
        }
        return file;
    }

    /** Flips one byte of a page in the file (so its checksum no longer matches). */
    static void corrupt(Path file, long page, int pageSize) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(new byte[] {(byte) 0x5a}), page * pageSize + 1000);
        }
    }
}
