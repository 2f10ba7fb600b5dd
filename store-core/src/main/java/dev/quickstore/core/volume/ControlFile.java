package dev.quickstore.core.volume;

import dev.quickstore.core.error.StoreFormatException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The control file {@code control.qs}: where recovery starts. Replaced atomically (temp file, force,
 * rename) after each checkpoint record is durable. All integers little-endian; 64 bytes:
 *
 * <pre>
 *  0 8 magic "QSCONTRL"
 *  8 4 version 1
 * 12 4 reserved
 * 16 8 checkpointLsn     LSN of the last durable CHECKPOINT record (0 = none yet: scan from the first segment)
 * 24 8 logSegmentBytes   segment size S of the log
 * 32 8 logStartLsn       first LSN still kept in the log (segments below were truncated)
 * 40 20 reserved
 * 60 4 CRC32C of bytes 0..59
 * </pre>
 */
public record ControlFile(long checkpointLsn, long logSegmentBytes, long logStartLsn) {
    static final int SIZE = 64;
    static final byte[] MAGIC = "QSCONTRL".getBytes(StandardCharsets.US_ASCII);

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC)
                .putInt(1)
                .putInt(0)
                .putLong(checkpointLsn)
                .putLong(logSegmentBytes)
                .putLong(logStartLsn);
        CRC32C c = new CRC32C();
        c.update(b.array(), 0, 60);
        b.putInt(60, (int) c.getValue());
        return b.array();
    }

    public void write(FileIO io, Path file) throws IOException {
        io.replace(file, encode());
    }

    /**
     * The control file of the store in {@code dir}; a new store's first opening creates it (checkpoint LSN
     * 0, {@code segmentBytes}) with the log directory. A store whose log directory holds segments but whose
     * control file is missing is refused: the log cannot be read without it.
     */
    public static ControlFile openOrCreate(FileIO io, Path dir, long segmentBytes) throws IOException {
        Path ctlPath = dir.resolve(VolumeFile.CONTROL_FILE);
        Path logDir = dir.resolve(VolumeFile.LOG_DIR);
        if (io.exists(ctlPath)) {
            return read(io, ctlPath);
        }
        if (!io.list(logDir).isEmpty()) {
            throw new StoreFormatException(
                    ctlPath.toString(), -1, 0, "control file", "present (the log directory is not empty)", "missing");
        }
        ControlFile ctl = new ControlFile(0, segmentBytes, 0);
        io.createDirectories(logDir);
        ctl.write(io, ctlPath);
        return ctl;
    }

    public static ControlFile read(FileIO io, Path file) throws IOException {
        byte[] bytes = new byte[SIZE];
        int n;
        try (FileIO.Handle h = io.open(file, false)) {
            n = h.read(ByteBuffer.wrap(bytes), 0);
        }
        String name = file.toString();
        if (n < SIZE) {
            throw new StoreFormatException(name, -1, n, "control file", SIZE + " bytes", n + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[i] != MAGIC[i]) {
                throw new StoreFormatException(
                        name,
                        -1,
                        0,
                        "control file magic",
                        "\"QSCONTRL\"",
                        "\"" + new String(bytes, 0, 8, StandardCharsets.ISO_8859_1) + "\"");
            }
        }
        CRC32C c = new CRC32C();
        c.update(bytes, 0, 60);
        if (b.getInt(60) != (int) c.getValue()) {
            throw new StoreFormatException(
                    name,
                    -1,
                    60,
                    "control file checksum (CRC32C)",
                    VolumeHeader.hex(b.getInt(60)),
                    VolumeHeader.hex((int) c.getValue()));
        }
        if (b.getInt(8) != 1) {
            throw new StoreFormatException(name, -1, 8, "control file version", "1", String.valueOf(b.getInt(8)));
        }
        return new ControlFile(b.getLong(16), b.getLong(24), b.getLong(32));
    }
}
