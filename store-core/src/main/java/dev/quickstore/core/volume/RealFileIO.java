package dev.quickstore.core.volume;

import dev.quickstore.core.error.StoreLockedException;
import dev.quickstore.core.error.StoreNotWritableException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** {@link FileIO} over {@link FileChannel}: positional I/O, {@code force(false)} = fdatasync, flock. */
public final class RealFileIO implements FileIO {
    public static final RealFileIO INSTANCE = new RealFileIO();

    public RealFileIO() {}

    @Override
    public Path nativePath(Path file) {
        return file;
    }

    @Override
    public Handle open(Path file, boolean create) throws IOException {
        FileChannel ch = create
                ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new ChannelHandle(file, ch);
    }

    @Override
    public boolean exists(Path file) {
        return Files.exists(file);
    }

    @Override
    public void delete(Path file) throws IOException {
        Files.deleteIfExists(file);
    }

    @Override
    public void createDirectories(Path dir) throws IOException {
        Files.createDirectories(dir);
    }

    @Override
    public List<Path> list(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> out = new ArrayList<>(s.toList());
            out.sort(null);
            return out;
        }
    }

    @Override
    public void replace(Path target, byte[] bytes) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(
                tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        forceDirectory(target.toAbsolutePath().getParent());
    }

    static void forceDirectory(Path dir) throws IOException {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        }
    }

    @Override
    public Closeable lock(Path lockFile) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (FileSystemException e) {
            Path dir = lockFile.toAbsolutePath().getParent();
            if (e instanceof AccessDeniedException || (Files.isDirectory(dir) && !Files.isWritable(dir))) {
                throw new StoreNotWritableException(
                        dir,
                        lockFile,
                        e.getReason() != null ? e.getReason() : e.getClass().getSimpleName(),
                        e);
            }
            throw e;
        }
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            ch.close();
            throw new StoreLockedException(
                    "store " + lockFile.getParent() + " is already open in this process (" + lockFile + ")");
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            ch.close();
            throw new StoreLockedException("store " + lockFile.getParent() + " is open in another process (lock file "
                    + lockFile + " is held); close that process first");
        }
        return () -> {
            try (ch) {
                lock.release();
            }
        };
    }

    /** One channel operation, retried on a fresh channel if an interrupt closed the old one. */
    private interface ChannelOp<T> {
        T run(FileChannel ch) throws IOException;
    }

    /**
     * A file through a {@link FileChannel}, robust to thread interrupts: an interrupt of a thread in (or
     * entering) a channel operation closes the channel for every thread ({@link
     * java.nio.channels.ClosedByInterruptException}), which would poison the store. The handle then opens the
     * file again and repeats the operation (positional, so idempotent), and the thread's interrupt status is set
     * again afterwards for the code that asked for the interrupt. Only {@link #close} ends the handle. The one
     * exception is an fsync the interrupt cut short while it ran ({@link #force(boolean)}): it is not repeated.
     */
    private static final class ChannelHandle implements Handle {
        private static final int RETRIES = 16;
        private final Path path;
        private volatile FileChannel ch;
        private volatile boolean closed;

        ChannelHandle(Path path, FileChannel ch) {
            this.path = path;
            this.ch = ch;
        }

        private <T> T io(ChannelOp<T> op, ByteBuffer buf) throws IOException {
            boolean interrupted = false;
            int mark = buf != null ? buf.position() : 0;
            try {
                for (int attempt = 0; ; attempt++) {
                    FileChannel c = ch;
                    try {
                        return op.run(c);
                    } catch (java.nio.channels.ClosedChannelException e) {
                        // an interrupt (of this thread or another) closed the channel; close() is the only other way
                        interrupted |= Thread.interrupted();
                        if (closed || attempt == RETRIES) {
                            throw e;
                        }
                        if (buf != null) {
                            buf.position(mark);
                        }
                        reopen(c);
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        private synchronized void reopen(FileChannel failed) throws IOException {
            if (ch == failed && !closed) {
                ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            }
        }

        @Override
        public int read(ByteBuffer dst, long pos) throws IOException {
            int total = 0;
            while (dst.hasRemaining()) {
                long at = pos + total;
                int n = io(c -> c.read(dst, at), dst);
                if (n < 0) {
                    break;
                }
                total += n;
            }
            return total;
        }

        @Override
        public void write(ByteBuffer src, long pos) throws IOException {
            long p = pos;
            while (src.hasRemaining()) {
                long at = p;
                p += io(c -> c.write(src, at), src);
            }
        }

        @Override
        public long size() throws IOException {
            return io(FileChannel::size, null);
        }

        @Override
        public void truncate(long size) throws IOException {
            io(c -> c.truncate(size), null);
            force(true);
        }

        @Override
        public void force() throws IOException {
            force(false);
        }

        /**
         * fsync (fdatasync unless {@code metadata}), repeated on a reopened channel only if it cannot have run.
         * An interrupt that closes the channel while {@code force} is in the kernel replaces its result by
         * {@link java.nio.channels.ClosedByInterruptException} (or {@code AsynchronousCloseException}), hiding an
         * EIO; an fsync repeated on a new descriptor then succeeds although the kernel has dropped the unwritten
         * pages (PostgreSQL's "fsyncgate"). So the force is repeated only when the channel was closed already or
         * this thread was interrupted before it began (the JDK then closes the channel without calling fsync);
         * otherwise its outcome is unknown and it fails, which poisons the store handle (fail-stop).
         */
        private void force(boolean metadata) throws IOException {
            boolean interrupted = false;
            try {
                for (int attempt = 0; ; attempt++) {
                    FileChannel c = ch;
                    boolean mayRun = c.isOpen() && !Thread.currentThread().isInterrupted();
                    try {
                        c.force(metadata);
                        return;
                    } catch (java.nio.channels.ClosedChannelException e) {
                        interrupted |= Thread.interrupted();
                        if (closed || attempt == RETRIES) {
                            throw e;
                        }
                        if (mayRun) {
                            throw new IOException(
                                    "fsync of " + path + " was cut short by an interrupt that closed its channel: its"
                                            + " outcome is unknown (an I/O error may be hidden), so it is not"
                                            + " repeated",
                                    e);
                        }
                        reopen(c);
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public String name() {
            return path.toString();
        }

        @Override
        public synchronized void close() throws IOException {
            closed = true;
            ch.close();
        }
    }
}
