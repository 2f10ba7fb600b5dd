package dev.quickstore.core.buffer;

import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.options.Relocation;
import dev.quickstore.core.volume.FileIO;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The persisted placement of a store relocated with QS-OR ({@link Relocation#ONE_TIME}): White and
 * DeWitt 1994, section 5.5 ("commits the changed mapping to the database") and section 3.4 (mapping
 * objects). File {@code placement.qs}, replaced atomically (temp file, force, rename) <em>before</em> any
 * page can be faulted in under the new placement, so no page or log record in the new address space can
 * be durable without it. All integers little-endian:
 *
 * <pre>
 *  0 8 magic "QSPLACE1"
 *  8 4 version 1
 * 12 4 pageSize
 * 16 8 arenaBase      the runtime base the placement is valid at (the next open maps the arena there)
 * 24 8 relocatedRegion frames at and above it hold relocated pages; disk pages lie below it
 * 32 4 runs R         relocated runs (pages placed away from frame = page id)
 * 36 4 ranges N       legacy translation ranges
 * 40 24*R             runs: firstPage, pages, firstFrame (8 bytes each)
 *    24*N             ranges: lo, hi, delta (8 bytes each): a stored pointer v in [lo, hi) of an older
 *                     address space means v + delta in the current one
 *  ... 4 CRC32C of every byte before it
 * </pre>
 *
 * <p>Invariant (recovery needs no translation): every pointer word in the volume and in the log is either
 * in the current address space ({@code arenaBase + frame(page) * pageSize + offset}) or in a legacy range;
 * legacy ranges never overlap a live current address with a non-zero delta, so translating a page is
 * idempotent and a page may mix both forms word by word. Pages are converted lazily (QS-OR commits the
 * pages a transaction faulted in); the legacy ranges stay until the file is rewritten.
 */
public record PlacementFile(
        int pageSize, long arenaBase, long relocatedRegion, List<MappingManager.Descriptor> runs, long[][] ranges) {
    public static final String NAME = "placement.qs";
    static final byte[] MAGIC = "QSPLACE1".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;

    public static Path path(Path dir) {
        return dir.resolve(NAME);
    }

    public byte[] encode() {
        int n = ranges[0].length;
        int size = 40 + 24 * runs.size() + 24 * n + 4;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC)
                .putInt(VERSION)
                .putInt(pageSize)
                .putLong(arenaBase)
                .putLong(relocatedRegion)
                .putInt(runs.size())
                .putInt(n);
        for (MappingManager.Descriptor d : runs) {
            b.putLong(d.firstPage()).putLong(d.pages()).putLong(d.firstFrame());
        }
        for (int i = 0; i < n; i++) {
            b.putLong(ranges[0][i]).putLong(ranges[1][i]).putLong(ranges[2][i]);
        }
        CRC32C c = new CRC32C();
        c.update(b.array(), 0, size - 4);
        b.putInt((int) c.getValue());
        return b.array();
    }

    public void write(FileIO io, Path dir) throws IOException {
        io.replace(path(dir), encode());
    }

    /** The placement of the store in {@code dir}, or null if it has none. */
    public static PlacementFile read(FileIO io, Path dir) throws IOException {
        Path file = path(dir);
        if (!io.exists(file)) {
            return null;
        }
        byte[] bytes;
        try (FileIO.Handle h = io.open(file, false)) {
            long size = h.size();
            if (size > Integer.MAX_VALUE) {
                throw new StoreFormatException(file.toString(), -1, 0, "placement file size", "< 2 GiB", size + "");
            }
            bytes = new byte[(int) size];
            int n = h.read(ByteBuffer.wrap(bytes), 0);
            if (n != size) {
                throw new StoreFormatException(file.toString(), -1, n, "placement file", size + " bytes", n + " bytes");
            }
        }
        return decode(file.toString(), bytes);
    }

    public static PlacementFile decode(String name, byte[] bytes) {
        if (bytes.length < 44) {
            throw new StoreFormatException(name, -1, 0, "placement file", ">= 44 bytes", bytes.length + " bytes");
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (bytes[i] != MAGIC[i]) {
                throw new StoreFormatException(
                        name,
                        -1,
                        0,
                        "placement file magic",
                        "\"QSPLACE1\"",
                        "\"" + new String(bytes, 0, 8, StandardCharsets.ISO_8859_1) + "\"");
            }
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        CRC32C c = new CRC32C();
        c.update(bytes, 0, bytes.length - 4);
        int stored = b.getInt(bytes.length - 4);
        if (stored != (int) c.getValue()) {
            throw new StoreFormatException(
                    name,
                    -1,
                    bytes.length - 4,
                    "placement file checksum (CRC32C)",
                    VolumeHeader.hex(stored),
                    VolumeHeader.hex((int) c.getValue()));
        }
        if (b.getInt(8) != VERSION) {
            throw new StoreFormatException(
                    name, -1, 8, "placement file version", "" + VERSION, String.valueOf(b.getInt(8)));
        }
        int pageSize = b.getInt(12);
        long base = b.getLong(16);
        long region = b.getLong(24);
        int r = b.getInt(32);
        int n = b.getInt(36);
        long expected = 40L + 24L * r + 24L * n + 4;
        if (r < 0 || n < 0 || expected != bytes.length) {
            throw new StoreFormatException(
                    name, -1, 32, "placement file length", expected + " bytes", bytes.length + " bytes");
        }
        b.position(40);
        List<MappingManager.Descriptor> runs = new ArrayList<>(r);
        for (int i = 0; i < r; i++) {
            runs.add(new MappingManager.Descriptor(b.getLong(), b.getLong(), b.getLong()));
        }
        long[][] ranges = new long[3][n];
        for (int i = 0; i < n; i++) {
            ranges[0][i] = b.getLong();
            ranges[1][i] = b.getLong();
            ranges[2][i] = b.getLong();
        }
        return new PlacementFile(pageSize, base, region, runs, ranges);
    }
}
