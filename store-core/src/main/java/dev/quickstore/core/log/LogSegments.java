package dev.quickstore.core.log;

import dev.quickstore.core.volume.FileIO;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Layout of the log as a sequence of segment files in the store's {@code log/} directory. The log is
 * one byte stream addressed by LSN; segment k holds LSNs [k*S, (k+1)*S) in the file named
 * {@code %016x.wal} of k*S, where S is the segment size fixed at store creation (in the control file).
 * A record never spans segments. Each segment starts with a 16-byte header:
 *
 * <pre>
 *  0 8 magic "QSWALSEG"
 *  8 4 version 1
 * 12 4 CRC32C of bytes 0..11
 * </pre>
 *
 * so the first record of segment k has LSN k*S + 16, and LSN 0 never names a record.
 */
public final class LogSegments {
    static final int HEADER = 16;
    static final byte[] MAGIC = "QSWALSEG".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    public LogSegments() {}

    public static Path path(Path logDir, long segment, long segmentBytes) {
        return logDir.resolve(String.format("%016x.wal", segment * segmentBytes));
    }

    static byte[] header() {
        ByteBuffer b = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(1);
        CRC32C c = new CRC32C();
        c.update(b.array(), 0, 12);
        b.putInt((int) c.getValue());
        return b.array();
    }

    static boolean headerValid(FileIO.Handle h) throws IOException {
        byte[] got = new byte[HEADER];
        return h.read(ByteBuffer.wrap(got), 0) == HEADER && java.util.Arrays.equals(got, header());
    }

    /** Segment numbers present in the directory, ascending. */
    public static long[] list(FileIO io, Path logDir, long segmentBytes) throws IOException {
        return io.list(logDir).stream()
                .map(p -> p.getFileName().toString())
                .filter(n -> n.endsWith(".wal"))
                .mapToLong(n -> Long.parseUnsignedLong(n.substring(0, n.length() - 4), 16) / segmentBytes)
                .sorted()
                .toArray();
    }
}
