package dev.quickstore.core.volume;

import dev.quickstore.core.error.StoreLockedException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * Every byte the store reads or writes goes through this interface, so that tests can substitute a
 * file layer that tears page writes, drops or reorders unsynced writes and runs out of space
 * ({@code FaultInjectingFileIO} in the tests). The production implementation is {@link RealFileIO}.
 *
 * <p>Durability contract the store relies on: data written with {@link Handle#write} is durable only
 * after {@link Handle#force}; {@link #replace} (write-temp-then-rename) is atomic and durable when it
 * returns; creating, truncating and deleting files is durable when the call returns.
 */
public interface FileIO {
    Handle open(Path file, boolean create) throws IOException;

    /**
     * The path under which native code can open {@code file} itself (the data plane's page source reads
     * the volume with {@code pread}), or {@code null} if this layer's files do not exist in the operating
     * system's file system (in-memory test layers).
     */
    default Path nativePath(Path file) {
        return null;
    }

    boolean exists(Path file);

    /** Whether {@code path} is a regular file (not a directory); only for error messages. */
    default boolean isRegularFile(Path path) {
        return java.nio.file.Files.isRegularFile(path);
    }

    void delete(Path file) throws IOException;

    void createDirectories(Path dir) throws IOException;

    /** Files directly inside {@code dir}, sorted by name. */
    List<Path> list(Path dir) throws IOException;

    /** Atomically replaces {@code target} by {@code bytes} (temp file, force, rename, directory force). */
    void replace(Path target, byte[] bytes) throws IOException;

    /**
     * Takes an exclusive lock that another process (or another open handle in this process) cannot take.
     *
     * @throws StoreLockedException if the lock is held
     */
    Closeable lock(Path lockFile) throws IOException;

    /** An open file. Positions are absolute; reads past the end return fewer bytes. */
    interface Handle extends Closeable {
        /** Reads into {@code dst} from {@code pos}; returns bytes read (0 at or past EOF). */
        int read(ByteBuffer dst, long pos) throws IOException;

        void write(ByteBuffer src, long pos) throws IOException;

        long size() throws IOException;

        void truncate(long size) throws IOException;

        /** Makes every write so far durable (fdatasync). */
        void force() throws IOException;

        String name();
    }
}
