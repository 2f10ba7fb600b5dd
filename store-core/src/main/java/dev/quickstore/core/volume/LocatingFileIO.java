package dev.quickstore.core.volume;

import dev.quickstore.core.error.StorageIOException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.List;

/**
 * A {@link FileIO} over another that turns every failed storage operation into a {@link StorageIOException}
 * naming the operation, the file and the byte offset: the kernel's messages ("Input/output error", "No space
 * left on device") name none, and a store that refuses to go on must say where it failed (issue 14, after
 * SQLite's and H2's error reporting). The store wraps whatever file layer it is given in one of these, so
 * every implementation (the real one, the tests' fault injectors) reports alike. Errors are reported, never
 * retried or hidden: a failed fsync is not repeated (PostgreSQL's "fsyncgate": a retried fsync may succeed
 * over data the kernel already dropped), it poisons the store handle.
 */
public final class LocatingFileIO implements FileIO {
    private final FileIO delegate;

    private LocatingFileIO(FileIO delegate) {
        this.delegate = delegate;
    }

    /** {@code io} reporting located errors (itself if it does already). */
    public static FileIO of(FileIO io) {
        return io instanceof LocatingFileIO ? io : new LocatingFileIO(io);
    }

    private static IOException located(String op, Object file, long offset, long length, IOException e) {
        if (e instanceof StorageIOException || e instanceof FileSystemException) {
            return e; // named already (NoSuchFileException, AccessDeniedException, ... name their file)
        }
        return new StorageIOException(op, String.valueOf(file), offset, length, -1, e);
    }

    @Override
    public Handle open(Path file, boolean create) throws IOException {
        Handle h;
        try {
            h = delegate.open(file, create);
        } catch (IOException e) {
            throw located("open", file, -1, -1, e);
        }
        return new Handle() {
            @Override
            public int read(ByteBuffer dst, long pos) throws IOException {
                int n = dst.remaining();
                try {
                    return h.read(dst, pos);
                } catch (IOException e) {
                    throw located("read", h.name(), pos, n, e);
                }
            }

            @Override
            public void write(ByteBuffer src, long pos) throws IOException {
                int n = src.remaining();
                try {
                    h.write(src, pos);
                } catch (IOException e) {
                    throw located("write", h.name(), pos, n, e);
                }
            }

            @Override
            public long size() throws IOException {
                try {
                    return h.size();
                } catch (IOException e) {
                    throw located("size", h.name(), -1, -1, e);
                }
            }

            @Override
            public void truncate(long size) throws IOException {
                try {
                    h.truncate(size);
                } catch (IOException e) {
                    throw located("truncate", h.name(), size, -1, e);
                }
            }

            @Override
            public void force() throws IOException {
                try {
                    h.force();
                } catch (IOException e) {
                    throw located("fsync", h.name(), -1, -1, e);
                }
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
    public boolean isRegularFile(Path path) {
        return delegate.isRegularFile(path);
    }

    @Override
    public void delete(Path file) throws IOException {
        try {
            delegate.delete(file);
        } catch (IOException e) {
            throw located("delete", file, -1, -1, e);
        }
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        try {
            delegate.createDirectories(dir);
        } catch (IOException e) {
            throw located("mkdir", dir, -1, -1, e);
        }
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        try {
            return delegate.list(dir);
        } catch (IOException e) {
            throw located("list", dir, -1, -1, e);
        }
    }

    @Override
    public void replace(Path target, byte[] bytes) throws IOException {
        try {
            delegate.replace(target, bytes);
        } catch (IOException e) {
            throw located("atomic replace", target, -1, bytes.length, e);
        }
    }

    @Override
    public Closeable lock(Path lockFile) throws IOException {
        return delegate.lock(lockFile);
    }
}
