package dev.quickstore.core.fuzz;

import dev.quickstore.core.volume.FileIO;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Files in memory for the fuzz targets (a decoder reads its bytes through the same {@link FileIO} calls as
 * from disk, thousands of times a second). Reads and writes at a negative position throw {@link
 * IllegalArgumentException} as {@code FileChannel} does, so a decoder that computes a negative file
 * position fails here as it would on a real file.
 */
final class MemoryFileIO implements FileIO {
    private final TreeMap<Path, byte[]> files = new TreeMap<>();

    void put(Path file, byte[] bytes) {
        files.put(file, bytes.clone());
    }

    byte[] get(Path file) {
        return files.get(file);
    }

    void clear() {
        files.clear();
    }

    @Override
    public Handle open(Path file, boolean create) throws IOException {
        if (!files.containsKey(file)) {
            if (!create) {
                throw new FileNotFoundException(file.toString());
            }
            files.put(file, new byte[0]);
        }
        return new MemHandle(file);
    }

    @Override
    public boolean exists(Path file) {
        return files.containsKey(file);
    }

    @Override
    public boolean isRegularFile(Path path) {
        return files.containsKey(path);
    }

    @Override
    public void delete(Path file) {
        files.remove(file);
    }

    @Override
    public void createDirectories(Path dir) {
        // directories are implicit
    }

    @Override
    public List<Path> list(Path dir) {
        return files.keySet().stream().filter(p -> dir.equals(p.getParent())).toList();
    }

    @Override
    public void replace(Path target, byte[] bytes) {
        files.put(target, bytes.clone());
    }

    @Override
    public Closeable lock(Path lockFile) {
        return () -> {};
    }

    private final class MemHandle implements Handle {
        private final Path file;

        MemHandle(Path file) {
            this.file = file;
        }

        @Override
        public int read(ByteBuffer dst, long pos) {
            if (pos < 0) {
                throw new IllegalArgumentException("Negative position");
            }
            byte[] b = files.get(file);
            if (pos >= b.length) {
                return 0;
            }
            int n = (int) Math.min(dst.remaining(), b.length - pos);
            dst.put(b, (int) pos, n);
            return n;
        }

        @Override
        public void write(ByteBuffer src, long pos) throws IOException {
            if (pos < 0) {
                throw new IllegalArgumentException("Negative position");
            }
            long end = pos + src.remaining();
            if (end > 1 << 26) {
                throw new IOException(file + ": in-memory file larger than 64 MiB (write at " + pos + ")");
            }
            byte[] b = files.get(file);
            if (end > b.length) {
                b = Arrays.copyOf(b, (int) end);
                files.put(file, b);
            }
            src.get(b, (int) pos, src.remaining());
        }

        @Override
        public long size() {
            return files.get(file).length;
        }

        @Override
        public void truncate(long size) {
            byte[] b = files.get(file);
            if (size < b.length) {
                files.put(file, Arrays.copyOf(b, (int) size));
            }
        }

        @Override
        public void force() {
            // memory is as durable as it gets here
        }

        @Override
        public String name() {
            return file.toString();
        }

        @Override
        public void close() {
            // nothing held
        }
    }
}
