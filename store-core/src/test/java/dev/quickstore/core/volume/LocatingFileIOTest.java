package dev.quickstore.core.volume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.core.error.StorageIOException;
import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regression (issue 14, storage fault sweep): an EIO or ENOSPC reached the user as the kernel's bare "Input/output
 * error", naming neither the file nor the offset. Through {@link LocatingFileIO} every failed operation names
 * both, and the volume adds the page.
 */
class LocatingFileIOTest {
    @TempDir
    Path dir;

    /** The real file layer, except that every read, write and fsync fails as the kernel would say it. */
    private static final class FailingIO implements FileIO {
        @Override
        public Handle open(Path file, boolean create) throws IOException {
            Handle h = RealFileIO.INSTANCE.open(file, create);
            return new Handle() {
                @Override
                public int read(ByteBuffer dst, long pos) throws IOException {
                    throw new IOException("Input/output error");
                }

                @Override
                public void write(ByteBuffer src, long pos) throws IOException {
                    throw new IOException("No space left on device");
                }

                @Override
                public long size() throws IOException {
                    return h.size();
                }

                @Override
                public void truncate(long size) throws IOException {
                    h.truncate(size);
                }

                @Override
                public void force() throws IOException {
                    throw new IOException("Input/output error");
                }

                @Override
                public String name() {
                    return h.name();
                }

                @Override
                public void close() throws IOException {
                    h.close();
                }
            };
        }

        @Override
        public boolean exists(Path file) {
            return RealFileIO.INSTANCE.exists(file);
        }

        @Override
        public void delete(Path file) throws IOException {
            throw new IOException("Input/output error");
        }

        @Override
        public void createDirectories(Path d) throws IOException {
            RealFileIO.INSTANCE.createDirectories(d);
        }

        @Override
        public List<Path> list(Path d) throws IOException {
            return RealFileIO.INSTANCE.list(d);
        }

        @Override
        public void replace(Path target, byte[] bytes) throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public Closeable lock(Path lockFile) throws IOException {
            return RealFileIO.INSTANCE.lock(lockFile);
        }
    }

    @Test
    void everyFailedOperationNamesItsFileAndOffset() throws Exception {
        FileIO io = LocatingFileIO.of(new FailingIO());
        Path f = dir.resolve("log.wal");
        try (FileIO.Handle h = io.open(f, true)) {
            StorageIOException r = assertThrows(StorageIOException.class, () -> h.read(ByteBuffer.allocate(100), 4096));
            assertEquals("read of " + f + " at offset 4096, 100 bytes failed: Input/output error", r.getMessage());
            assertEquals(4096, r.offset());
            StorageIOException w = assertThrows(StorageIOException.class, () -> h.write(ByteBuffer.allocate(7), 9));
            assertEquals("write of " + f + " at offset 9, 7 bytes failed: No space left on device", w.getMessage());
            StorageIOException s = assertThrows(StorageIOException.class, h::force);
            assertEquals("fsync of " + f + " failed: Input/output error", s.getMessage());
        }
        StorageIOException rep = assertThrows(StorageIOException.class, () -> io.replace(f, new byte[64]));
        assertTrue(rep.getMessage().startsWith("atomic replace of " + f), rep.getMessage());
        assertThrows(StorageIOException.class, () -> io.delete(f));
        assertTrue(LocatingFileIO.of(io) == io, "not wrapped twice");
    }

    @Test
    void theVolumeNamesThePage() throws Exception {
        FileIO io = LocatingFileIO.of(new FailingIO());
        Path f = dir.resolve("volume.qs");
        try (Volume v = new Volume(io.open(f, true), 8192)) {
            StorageIOException e =
                    assertThrows(StorageIOException.class, () -> v.read(3, MemorySegment.ofArray(new byte[8192])));
            assertEquals(
                    "read of " + f + " page 3 (offset 24576) failed: Input/output error",
                    e.getMessage(),
                    "file, page and offset");
            assertEquals(3, e.pageId());
            StorageIOException w =
                    assertThrows(StorageIOException.class, () -> v.write(5, MemorySegment.ofArray(new byte[8192])));
            assertEquals(
                    "write of " + f + " page 5 (offset 40960) failed: No space left on device",
                    w.getMessage(),
                    "file, page and offset");
        }
    }
}
