package dev.quickstore.core.volume;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.UUID;

/**
 * The file layout of a store directory and the creation / header reading of its volume.
 *
 * <p>A store is a directory holding {@value #VOLUME_FILE} (page 0 is the {@link VolumeHeader}), the
 * write-ahead log in {@value #LOG_DIR}/, the double-write file {@value #DOUBLE_WRITE_FILE}, the
 * control file {@value #CONTROL_FILE} (last checkpoint) and the lock file {@value #LOCK_FILE}. The log,
 * control and double-write files are created by the first {@code Store.open}.
 */
public final class VolumeFile {
    /** Name of the volume file inside a store directory. */
    public static final String VOLUME_FILE = "volume.qs";

    public static final String LOG_DIR = "log";
    public static final String DOUBLE_WRITE_FILE = "doublewrite.qs";
    public static final String CONTROL_FILE = "control.qs";
    public static final String LOCK_FILE = "lock";

    /** Default page size: QuickStore's 8 KiB. */
    public static final int DEFAULT_PAGE_SIZE = 8192;

    /** Default preferred arena base address: high in the user address space, 1 TiB aligned. */
    public static final long DEFAULT_ARENA_BASE = 0x5a00_0000_0000L;

    private VolumeFile() {}

    /**
     * Takes the exclusive lock of the store in {@code dir} (the one {@code Store.open} takes, through
     * {@code io}); close the result to release it. Tools that replace a store's files without opening it
     * (restore) hold it meanwhile.
     *
     * @throws dev.quickstore.core.error.StoreLockedException the store is open elsewhere
     */
    public static Closeable lock(FileIO io, Path dir) throws IOException {
        return io.lock(dir.resolve(LOCK_FILE));
    }

    /** {@link #lock(FileIO, Path)} on the real file system. */
    public static Closeable lock(Path dir) throws IOException {
        return lock(RealFileIO.INSTANCE, dir);
    }

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
        return create(RealFileIO.INSTANCE, dir, pageSize);
    }

    public static VolumeHeader create(FileIO io, Path dir, int pageSize) throws IOException {
        return create(io, dir, pageSize, VolumeHeader.POINTERS_VIRTUAL);
    }

    /** As {@link #create(FileIO, Path, int)} with the pointer format of the volume's slotted pages. */
    public static VolumeHeader create(FileIO io, Path dir, int pageSize, int pointerFormat) throws IOException {
        io.createDirectories(dir);
        Path vol = volumePath(dir);
        if (io.exists(vol)) {
            throw new FileAlreadyExistsException(vol.toString(), null, "a QuickStore/J volume already exists there");
        }
        VolumeHeader header = new VolumeHeader(
                VolumeHeader.versionFor(pointerFormat),
                pageSize,
                UUID.randomUUID(),
                DEFAULT_ARENA_BASE,
                1,
                System.currentTimeMillis(),
                VolumeHeader.DEFAULT_EXTENT_PAGES,
                0,
                0,
                pointerFormat);
        try (FileIO.Handle h = io.open(vol, true)) {
            h.write(ByteBuffer.wrap(header.encode()), 0);
            h.force();
        }
        return header;
    }

    /** Reads and validates the header of the store in {@code dir}. */
    public static VolumeHeader readHeader(Path dir) throws IOException {
        return readHeader(RealFileIO.INSTANCE, dir);
    }

    public static VolumeHeader readHeader(FileIO io, Path dir) throws IOException {
        Path vol = volumePath(dir);
        if (!io.exists(vol) && io.isRegularFile(dir)) {
            throw new NoSuchFileException(
                    dir.toString(),
                    null,
                    VOLUME_FILE.equals(String.valueOf(dir.getFileName()))
                            ? "the volume file of a store; name the store's directory instead: " + dir.getParent()
                            : "a file, not a store directory (a store is a directory holding " + VOLUME_FILE + ")");
        }
        if (!io.exists(vol)) {
            throw new NoSuchFileException(
                    vol.toString(),
                    null,
                    io.exists(dir) ? "no QuickStore/J volume in this directory" : "no such store directory");
        }
        try (FileIO.Handle h = io.open(vol, false)) {
            byte[] prefix = new byte[VolumeHeader.SIZE];
            int n = h.read(ByteBuffer.wrap(prefix), 0);
            if (n < VolumeHeader.SIZE) {
                return VolumeHeader.decode(vol.toString(), java.util.Arrays.copyOf(prefix, n));
            }
            int pageSize = VolumeHeader.peekPageSize(prefix, n);
            if (Integer.bitCount(pageSize) != 1 || pageSize < 4096 || pageSize > 65536) {
                return VolumeHeader.decode(vol.toString(), prefix); // names the bad field
            }
            byte[] page = new byte[pageSize];
            int m = h.read(ByteBuffer.wrap(page), 0);
            return VolumeHeader.decode(vol.toString(), m == pageSize ? page : java.util.Arrays.copyOf(page, m));
        }
    }
}
