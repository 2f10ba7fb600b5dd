package dev.quickstore.core.volume;

import dev.quickstore.core.inspect.StoreInspector;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * {@link FileIO} that opens files for reading only and refuses every change: what
 * {@link StoreInspector} reads a store through, so inspecting never writes (and works on read-only
 * copies).
 */
public final class ReadOnlyFileIO implements FileIO {
    public static final ReadOnlyFileIO INSTANCE = new ReadOnlyFileIO();

    public ReadOnlyFileIO() {}

    private static IOException refused(String what, Path file) {
        return new IOException("read-only inspection refuses to " + what + " " + file);
    }

    @Override
    public Handle open(Path file, boolean create) throws IOException {
        if (create && !Files.exists(file)) {
            throw refused("create", file);
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
        return new Handle() {
            @Override
            public int read(ByteBuffer dst, long pos) throws IOException {
                int total = 0;
                while (dst.hasRemaining()) {
                    int n = ch.read(dst, pos + total);
                    if (n < 0) {
                        break;
                    }
                    total += n;
                }
                return total;
            }

            @Override
            public void write(ByteBuffer src, long pos) throws IOException {
                throw refused("write", file);
            }

            @Override
            public long size() throws IOException {
                return ch.size();
            }

            @Override
            public void truncate(long size) throws IOException {
                throw refused("truncate", file);
            }

            @Override
            public void force() {
                // nothing written
            }

            @Override
            public String name() {
                return file.toString();
            }

            @Override
            public void close() throws IOException {
                ch.close();
            }
        };
    }

    @Override
    public boolean exists(Path file) {
        return RealFileIO.INSTANCE.exists(file);
    }

    @Override
    public void delete(Path file) throws IOException {
        throw refused("delete", file);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        throw refused("create", dir);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        return RealFileIO.INSTANCE.list(dir);
    }

    @Override
    public void replace(Path target, byte[] bytes) throws IOException {
        throw refused("replace", target);
    }

    @Override
    public Closeable lock(Path lockFile) throws IOException {
        throw refused("lock", lockFile);
    }
}
