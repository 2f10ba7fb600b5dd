package dev.quickstore.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * The file layout of a store directory and the creation / header reading of its volume.
 *
 * <p>A store is a directory holding {@value #VOLUME_FILE} (page 0 is the {@link VolumeHeader}).
 */
public final class VolumeFile {
    /** Name of the volume file inside a store directory. */
    public static final String VOLUME_FILE = "volume.qs";

    /** Default page size: QuickStore's 8 KiB. */
    public static final int DEFAULT_PAGE_SIZE = 8192;

    /** Default preferred arena base address: high in the user address space, 1 TiB aligned. */
    public static final long DEFAULT_ARENA_BASE = 0x5a00_0000_0000L;

    private VolumeFile() {}

    /** Path of the volume file of the store in {@code dir}. */
    public static Path volumePath(Path dir) {
        return dir.resolve(VOLUME_FILE);
    }

    /**
     * Creates a new, empty store in {@code dir} (created if absent; must not already hold a volume).
     *
     * @return the header written
     */
    public static VolumeHeader create(Path dir, int pageSize) throws IOException {
        Files.createDirectories(dir);
        Path vol = volumePath(dir);
        if (Files.exists(vol)) {
            throw new FileAlreadyExistsException(vol.toString(), null, "a QuickStore/J volume already exists there");
        }
        VolumeHeader header = new VolumeHeader(
                VolumeHeader.FORMAT_VERSION,
                pageSize,
                UUID.randomUUID(),
                DEFAULT_ARENA_BASE,
                1,
                System.currentTimeMillis());
        ByteBuffer page = ByteBuffer.allocate(pageSize);
        page.put(header.encode()).clear(); // whole page: header then zeros
        try (FileChannel ch = FileChannel.open(vol, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            while (page.hasRemaining()) {
                ch.write(page);
            }
            ch.force(true);
        }
        return header;
    }

    /** Reads and validates the header of the store in {@code dir}. */
    public static VolumeHeader readHeader(Path dir) throws IOException {
        Path vol = volumePath(dir);
        if (!Files.isRegularFile(vol)) {
            throw new NoSuchFileException(
                    vol.toString(),
                    null,
                    Files.isDirectory(dir) ? "no QuickStore/J volume in this directory" : "no such store directory");
        }
        byte[] bytes = new byte[VolumeHeader.SIZE];
        try (FileChannel ch = FileChannel.open(vol, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // keep reading until the header is complete or EOF
            }
            if (b.hasRemaining()) {
                throw new StoreFormatException(
                        vol.toString(),
                        0,
                        b.position(),
                        "volume header",
                        VolumeHeader.SIZE + " bytes",
                        b.position() + " bytes (file truncated)");
            }
        }
        return VolumeHeader.decode(vol.toString(), bytes);
    }
}
