package dev.quickstore.core;

import dev.quickstore.core.error.StoreLockedException;
import dev.quickstore.core.volume.FileIO;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * An in-memory {@link FileIO} that models a disk with a volatile write cache, for fault injection:
 * <ul>
 *   <li>writes reach the "page cache" at once but the disk only at {@link Handle#force};</li>
 *   <li>{@link #crash} builds the disk after a power cut: each unsynced write is dropped, applied, or torn
 *       (a random subset of its 512-byte sectors), in random order (so unsynced writes are reordered);</li>
 *   <li>{@link #failAfter} simulates the power cut from the store's side: after n more writes/forces
 *       every write and force throws;</li>
 *   <li>{@link #spaceLimit} makes writes that would grow the total beyond the limit fail with
 *       "No space left on device" (ENOSPC).</li>
 * </ul>
 * Metadata operations (create, delete, truncate, rename) are durable at once.
 */
final class FaultInjectingFileIO implements FileIO {
    private static final class Write {
        final long pos;
        final byte[] bytes;

        Write(long pos, byte[] bytes) {
            this.pos = pos;
            this.bytes = bytes;
        }
    }

    private static final class FileState {
        byte[] current = new byte[0];
        int length;
        byte[] durable = new byte[0];
        final List<Write> pending = new ArrayList<>();
    }

    private final Map<Path, FileState> files = new HashMap<>();
    private final Set<Path> locks = new HashSet<>();
    private int generation;
    private long failAfter = -1;
    private boolean failed;
    private long spaceLimit = Long.MAX_VALUE;
    long tornWrites;
    long droppedWrites;

    synchronized void failAfter(long ops) {
        failAfter = ops;
    }

    synchronized void spaceLimit(long bytes) {
        spaceLimit = bytes;
    }

    synchronized long totalBytes() {
        long t = 0;
        for (FileState f : files.values()) {
            t += f.length;
        }
        return t;
    }

    /** Power cut: forget the page cache, keep what the disk got; old handles and locks die. */
    synchronized void crash(SplittableRandom rnd) {
        for (FileState f : files.values()) {
            byte[] disk = f.durable.clone();
            int len = disk.length;
            List<Write> ws = new ArrayList<>(f.pending);
            java.util.Collections.shuffle(ws, new java.util.Random(rnd.nextLong()));
            for (Write w : ws) {
                int kind = rnd.nextInt(4); // 0 drop, 1 tear, 2-3 apply
                if (kind == 0) {
                    droppedWrites++;
                    continue;
                }
                int end = (int) (w.pos + w.bytes.length);
                if (end > disk.length) {
                    disk = java.util.Arrays.copyOf(disk, end);
                }
                if (kind == 1) {
                    tornWrites++;
                    for (int s = 0; s < w.bytes.length; s += 512) {
                        if (rnd.nextBoolean()) {
                            System.arraycopy(w.bytes, s, disk, (int) w.pos + s, Math.min(512, w.bytes.length - s));
                            len = Math.max(len, (int) w.pos + Math.min(s + 512, w.bytes.length));
                        }
                    }
                } else {
                    System.arraycopy(w.bytes, 0, disk, (int) w.pos, w.bytes.length);
                    len = Math.max(len, end);
                }
            }
            f.durable = java.util.Arrays.copyOf(disk, len);
            f.current = f.durable.clone();
            f.length = len;
            f.pending.clear();
        }
        locks.clear();
        generation++;
        failAfter = -1;
        failed = false;
        spaceLimit = Long.MAX_VALUE;
    }

    /** Lifts the injected failure without a power cut (the process lived on, e.g. after ENOSPC). */
    synchronized void recoverWithoutCrash() {
        locks.clear();
        generation++;
        failAfter = -1;
        failed = false;
        spaceLimit = Long.MAX_VALUE;
    }

    private void countOp() throws IOException {
        if (failed) {
            throw new IOException("simulated power failure (device gone)");
        }
        if (failAfter >= 0 && failAfter-- == 0) {
            failed = true;
            throw new IOException("simulated power failure (device gone)");
        }
    }

    @Override
    public synchronized Handle open(Path file, boolean create) throws IOException {
        FileState f = files.get(file);
        if (f == null) {
            if (!create) {
                throw new java.nio.file.NoSuchFileException(file.toString());
            }
            f = new FileState();
            files.put(file, f);
        }
        return new MemHandle(file, f, generation);
    }

    @Override
    public synchronized boolean exists(Path file) {
        if (files.containsKey(file)) {
            return true;
        }
        for (Path p : files.keySet()) {
            if (p.startsWith(file)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized void delete(Path file) {
        files.remove(file);
    }

    @Override
    public void createDirectories(Path dir) {
        // directories are implicit
    }

    @Override
    public synchronized List<Path> list(Path dir) {
        List<Path> out = new ArrayList<>();
        for (Path p : files.keySet()) {
            if (dir.equals(p.getParent())) {
                out.add(p);
            }
        }
        out.sort(null);
        return out;
    }

    @Override
    public synchronized void replace(Path target, byte[] bytes) throws IOException {
        countOp();
        FileState f = new FileState();
        f.current = bytes.clone();
        f.durable = bytes.clone();
        f.length = bytes.length;
        files.put(target, f);
    }

    @Override
    public synchronized Closeable lock(Path lockFile) {
        if (!locks.add(lockFile)) {
            throw new StoreLockedException(
                    "store " + lockFile.getParent() + " is already open (in-memory lock " + lockFile + ")");
        }
        int gen = generation;
        return () -> {
            synchronized (FaultInjectingFileIO.this) {
                if (gen == generation) {
                    locks.remove(lockFile);
                }
            }
        };
    }

    private final class MemHandle implements Handle {
        private final Path path;
        private final FileState f;
        private final int gen;

        MemHandle(Path path, FileState f, int gen) {
            this.path = path;
            this.f = f;
            this.gen = gen;
        }

        private void live() throws IOException {
            if (gen != generation) {
                throw new IOException("handle of " + path + " from before the crash");
            }
        }

        @Override
        public int read(ByteBuffer dst, long pos) throws IOException {
            synchronized (FaultInjectingFileIO.this) {
                live();
                if (pos >= f.length) {
                    return 0;
                }
                int n = (int) Math.min(dst.remaining(), f.length - pos);
                dst.put(f.current, (int) pos, n);
                return n;
            }
        }

        @Override
        public void write(ByteBuffer src, long pos) throws IOException {
            synchronized (FaultInjectingFileIO.this) {
                live();
                countOp();
                int n = src.remaining();
                long end = pos + n;
                if (end > f.length && totalBytes() + (end - f.length) > spaceLimit) {
                    throw new IOException("No space left on device (simulated ENOSPC writing " + path + ")");
                }
                byte[] bytes = new byte[n];
                src.get(bytes);
                if (end > f.current.length) {
                    f.current = java.util.Arrays.copyOf(f.current, (int) Math.max(end, f.current.length * 2L));
                }
                System.arraycopy(bytes, 0, f.current, (int) pos, n);
                f.length = (int) Math.max(f.length, end);
                f.pending.add(new Write(pos, bytes));
            }
        }

        @Override
        public long size() throws IOException {
            synchronized (FaultInjectingFileIO.this) {
                live();
                return f.length;
            }
        }

        @Override
        public void truncate(long size) throws IOException {
            synchronized (FaultInjectingFileIO.this) {
                live();
                countOp();
                f.length = (int) Math.min(f.length, size);
                java.util.Arrays.fill(f.current, f.length, f.current.length, (byte) 0);
                f.durable = java.util.Arrays.copyOf(f.current, f.length);
                f.pending.clear();
            }
        }

        @Override
        public void force() throws IOException {
            synchronized (FaultInjectingFileIO.this) {
                live();
                countOp();
                f.durable = java.util.Arrays.copyOf(f.current, f.length);
                f.pending.clear();
            }
        }

        @Override
        public String name() {
            return path.toString();
        }

        @Override
        public void close() {
            // nothing to release
        }
    }
}
