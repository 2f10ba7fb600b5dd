package dev.quickstore.core;

import dev.quickstore.core.volume.FileIO;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FileIO} over another (the real one) that numbers every read and fails read number {@code failAt}
 * with the kernel's "Input/output error" (EIO), for the reads of an opening store (recovery) and its first
 * transactions. Everything else passes through, including {@link #nativePath}: reads the data plane makes in C
 * ({@code pread} in the fault path) are not seen here.
 */
final class ReadFaultFileIO implements FileIO {
    private final FileIO delegate;
    private final Path root;
    private final int failAt;
    /** The reads so far: file (relative to the store directory), offset, length. */
    final List<WritePointFileIO.Point> reads = new ArrayList<>();

    /** Whether the read error was injected. */
    boolean injected;

    ReadFaultFileIO(FileIO delegate, Path root, int failAt) {
        this.delegate = delegate;
        this.root = root;
        this.failAt = failAt;
    }

    @Override
    public Handle open(Path file, boolean create) throws IOException {
        Handle h = delegate.open(file, create);
        return new Handle() {
            @Override
            public int read(ByteBuffer dst, long pos) throws IOException {
                synchronized (ReadFaultFileIO.this) {
                    WritePointFileIO.Point p = new WritePointFileIO.Point(
                            reads.size(),
                            WritePointFileIO.Kind.READ,
                            root.relativize(file).toString(),
                            pos,
                            dst.remaining());
                    reads.add(p);
                    if (p.index() == failAt) {
                        injected = true;
                        throw new IOException("Input/output error");
                    }
                }
                return h.read(dst, pos);
            }

            @Override
            public void write(ByteBuffer src, long pos) throws IOException {
                h.write(src, pos);
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
                h.force();
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
    public Path nativePath(Path file) {
        return delegate.nativePath(file);
    }

    @Override
    public boolean exists(Path file) {
        return delegate.exists(file);
    }

    @Override
    public void delete(Path file) throws IOException {
        delegate.delete(file);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        delegate.createDirectories(dir);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        return delegate.list(dir);
    }

    @Override
    public void replace(Path target, byte[] bytes) throws IOException {
        delegate.replace(target, bytes);
    }

    @Override
    public Closeable lock(Path lockFile) throws IOException {
        return delegate.lock(lockFile);
    }
}
