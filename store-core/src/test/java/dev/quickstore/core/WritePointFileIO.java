package dev.quickstore.core;

import dev.quickstore.core.error.StoreLockedException;
import dev.quickstore.core.volume.FileIO;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * An in-memory {@link FileIO} that numbers every storage operation the store issues (a <em>point</em>: write,
 * fsync, truncate, atomic replace, delete, read) and can inject one fault at one point. It models a disk under
 * an operating-system page cache, after H2's {@code FilePathReorderWrites} and Lucene's {@code
 * MockDirectoryWrapper}: a write reaches the page cache ({@code current}, what reads see) at once and the disk
 * ({@code durable}) only at the next fsync of its file; at a power cut the writes since that fsync may be lost,
 * any subset of them, and the ones that survive are applied in the order they were issued (the page cache
 * holds the newest bytes, so a lost earlier write never overwrites a later one). Truncate, delete, create and
 * {@link #replace} are durable when they return (the {@link FileIO} contract).
 *
 * <p>Faults ({@link Fault}), at point {@code faultAt}:
 *
 * <ul>
 *   <li>{@code TORN}: only a sector-granular (512 B) prefix of the write reaches the disk, every earlier write
 *       does, then the machine dies;
 *   <li>{@code LOST}: the machine dies right after the write; the write and a seeded subset of the earlier
 *       unsynced writes are lost;
 *   <li>{@code REORDER}: the write is lost but the store runs on until it asks for the next fsync (or truncate)
 *       of that file; there the machine dies with every other write, later ones included, on disk;
 *   <li>{@code ENOSPC} / {@code EIO}: the operation fails with the kernel's message ("No space left on device",
 *       "Input/output error") and nothing of it happens; an EIO on fsync also drops the file's unsynced writes
 *       from the disk for good while reads still see them (Linux after a failed writeback: PostgreSQL's
 *       "fsyncgate"), so a store that retries the fsync and believes it gets a success over lost data;
 *   <li>{@code CRASH}: the machine dies instead of the fsync, truncate, replace or delete (a seeded subset of
 *       the unsynced writes reached the disk).
 * </ul>
 *
 * <p>After a death every operation fails; {@link #materialize} writes the disk's contents as real files, to be
 * opened (recovered) with the real file layer.
 */
final class WritePointFileIO implements FileIO {
    enum Kind {
        WRITE,
        FSYNC,
        TRUNCATE,
        REPLACE,
        DELETE,
        READ
    }

    enum Fault {
        TORN,
        LOST,
        REORDER,
        ENOSPC,
        EIO,
        CRASH
    }

    /** One storage operation: its number, kind, file (relative to the store directory), offset and length. */
    record Point(int index, Kind kind, String file, long offset, long length) {
        /** The file's role: volume, log, doublewrite, control, placement, or the name itself. */
        String fileKind() {
            return fileKindOf(file);
        }

        boolean sameOperation(Point o) {
            return kind == o.kind && file.equals(o.file) && offset == o.offset && length == o.length;
        }

        @Override
        public String toString() {
            return "#" + index + " " + kind + " " + file + " @" + offset + "+" + length;
        }
    }

    static String fileKindOf(String file) {
        if (file.startsWith("log")) {
            return "log";
        }
        return switch (file) {
            case "volume.qs" -> "volume";
            case "doublewrite.qs" -> "doublewrite";
            case "control.qs" -> "control";
            case "placement.qs" -> "placement";
            default -> file;
        };
    }

    /** Thrown into the store at the instant the machine dies: the workload stops there. */
    static final class PowerCut extends Error {
        private static final long serialVersionUID = 1L;

        PowerCut(String message) {
            super(message, null, false, false);
        }
    }

    private static final class Write {
        final long pos;
        final byte[] bytes;
        final boolean lost; // REORDER: this write never reaches the disk

        Write(long pos, byte[] bytes, boolean lost) {
            this.pos = pos;
            this.bytes = bytes;
            this.lost = lost;
        }
    }

    private static final class FileState {
        byte[] current = new byte[0];
        int length;
        byte[] durable = new byte[0]; // capacity; the disk's file is durable[0, durableLength)
        int durableLength;
        final List<Write> pending = new ArrayList<>();

        /** Puts {@code n} bytes of a write on the disk. */
        void apply(long pos, byte[] bytes, int n) {
            int end = (int) (pos + n);
            if (end > durable.length) {
                durable = Arrays.copyOf(durable, Math.max(end, durable.length * 2));
            }
            System.arraycopy(bytes, 0, durable, (int) pos, n);
            durableLength = Math.max(durableLength, end);
        }

        byte[] disk() {
            return Arrays.copyOf(durable, durableLength);
        }
    }

    private final Path root;
    private final TreeMap<Path, FileState> files = new TreeMap<>();
    private final Set<Path> locks = new HashSet<>();
    private final SplittableRandom rnd;
    private final int faultAt;
    private final Fault fault;
    final List<Point> points = new ArrayList<>();

    /** Set when the fault was injected (ENOSPC, EIO) or the machine died. */
    Point injectedAt;

    /** REORDER: the file whose lost write waits for that file's next fsync. */
    private Path reorderFile;

    /** REORDER: writes issued after the lost one that reach the disk (0: the fault degenerated to LOST). */
    int reorderedPast;

    private boolean dead;
    private int generation;

    /**
     * @param root the store directory (points name files relative to it)
     * @param faultAt the point to inject at, or -1 to only record
     */
    WritePointFileIO(Path root, int faultAt, Fault fault, long seed) {
        this.root = root;
        this.faultAt = faultAt;
        this.fault = fault;
        this.rnd = new SplittableRandom(seed);
    }

    boolean dead() {
        return dead;
    }

    private Point point(Kind kind, Path file, long offset, long length) throws IOException {
        if (dead) {
            throw new IOException("the machine is dead (" + kind + " of " + file + ")");
        }
        Point p = new Point(points.size(), kind, root.relativize(file).toString(), offset, length);
        points.add(p);
        return p;
    }

    private boolean faultHere(Point p) {
        return p.index == faultAt;
    }

    /** Power cut: builds every file's disk image; {@code keep} decides the fate of each unsynced write. */
    private void die(String why, boolean keepAllPending) {
        for (FileState f : files.values()) {
            for (Write w : f.pending) {
                if (!w.lost && (keepAllPending || rnd.nextBoolean())) {
                    f.apply(w.pos, w.bytes, w.bytes.length);
                }
            }
            f.pending.clear();
            f.current = f.disk();
            f.length = f.durableLength;
        }
        dead = true;
        locks.clear();
        generation++;
        throw new PowerCut(why);
    }

    /** Ends a run that did not die at its fault: a power cut (unsynced writes lost) or a clean process exit. */
    synchronized void end(boolean processExit) {
        if (dead) {
            return;
        }
        try {
            if (processExit) {
                die("process exit", true);
            } else {
                for (FileState f : files.values()) {
                    f.pending.clear(); // power cut: every unsynced write is lost
                }
                die("power cut at the end", true);
            }
        } catch (PowerCut expected) {
            // the store is not running: nobody to stop
        }
    }

    /** Writes the disk's files under {@code dir} (which takes the place of the store directory). */
    synchronized void materialize(Path dir) throws IOException {
        for (var e : files.entrySet()) {
            Path target = dir.resolve(root.relativize(e.getKey()).toString());
            Files.createDirectories(target.getParent());
            Files.write(target, e.getValue().disk());
        }
    }

    private static IOException kernelError(Fault f) {
        return new IOException(f == Fault.ENOSPC ? "No space left on device" : "Input/output error");
    }

    @Override
    public synchronized Handle open(Path file, boolean create) throws IOException {
        if (dead) {
            throw new IOException("the machine is dead (open " + file + ")");
        }
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
    public synchronized void delete(Path file) throws IOException {
        Point p = point(Kind.DELETE, file, 0, 0);
        if (faultHere(p)) {
            injectedAt = p;
            if (fault == Fault.CRASH) {
                die("power cut instead of " + p, false);
            }
            throw kernelError(fault);
        }
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
        Point p = point(Kind.REPLACE, target, 0, bytes.length);
        if (faultHere(p)) {
            injectedAt = p;
            if (fault == Fault.CRASH) {
                die("power cut instead of " + p, false);
            }
            throw kernelError(fault); // the temp file was not completed: the target is unchanged
        }
        FileState f = new FileState();
        f.current = bytes.clone();
        f.length = bytes.length;
        f.apply(0, bytes, bytes.length);
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
            synchronized (WritePointFileIO.this) {
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
            if (dead || gen != generation) {
                throw new IOException("handle of " + path + " from before the crash");
            }
        }

        @Override
        public int read(ByteBuffer dst, long pos) throws IOException {
            synchronized (WritePointFileIO.this) {
                live();
                Point p = point(Kind.READ, path, pos, dst.remaining());
                if (faultHere(p)) {
                    injectedAt = p;
                    throw kernelError(Fault.EIO);
                }
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
            synchronized (WritePointFileIO.this) {
                live();
                int n = src.remaining();
                Point p = point(Kind.WRITE, path, pos, n);
                boolean lost = false;
                if (faultHere(p)) {
                    injectedAt = p;
                    switch (fault) {
                        case ENOSPC, EIO -> throw kernelError(fault);
                        case TORN -> {
                            byte[] bytes = new byte[n];
                            src.get(bytes);
                            for (FileState other : files.values()) { // the page cache wrote out everything earlier
                                for (Write w : other.pending) {
                                    other.apply(w.pos, w.bytes, w.bytes.length);
                                }
                                other.pending.clear();
                            }
                            // sector boundaries strictly inside the write: the disk stopped at one of them
                            long first = (pos / 512 + 1) * 512;
                            long cuts = first < pos + n ? (pos + n - 1 - first) / 512 + 1 : 0;
                            long cut = cuts == 0 ? pos : first + 512 * rnd.nextLong(cuts);
                            f.apply(pos, bytes, (int) (cut - pos));
                            die("power cut tearing " + p + " after " + (cut - pos) + " bytes", true);
                        }
                        case LOST -> {
                            f.pending.add(new Write(pos, new byte[0], true));
                            die("power cut right after " + p + " (lost)", false);
                        }
                        case REORDER -> {
                            lost = true;
                            reorderFile = path;
                        }
                        default -> throw new IllegalStateException(fault + " at a write");
                    }
                }
                byte[] bytes = new byte[n];
                src.get(bytes);
                long end = pos + n;
                if (end > f.current.length) {
                    f.current = Arrays.copyOf(f.current, (int) Math.max(end, f.current.length * 2L));
                }
                System.arraycopy(bytes, 0, f.current, (int) pos, n);
                f.length = (int) Math.max(f.length, end);
                if (reorderFile != null && !lost) {
                    reorderedPast++;
                }
                f.pending.add(new Write(pos, bytes, lost));
            }
        }

        @Override
        public long size() throws IOException {
            synchronized (WritePointFileIO.this) {
                live();
                return f.length;
            }
        }

        /** An fsync-like point: the fault, or the end of a REORDER window. */
        private boolean syncPoint(Point p) throws IOException {
            if (reorderFile != null && reorderFile.equals(path)) {
                die(
                        "power cut at " + p + ": the lost write's fsync never ran, " + reorderedPast
                                + " later writes reached the disk",
                        true);
            }
            if (!faultHere(p)) {
                return false;
            }
            injectedAt = p;
            if (fault == Fault.CRASH) {
                die("power cut instead of " + p, false);
            }
            if (p.kind == Kind.FSYNC) {
                f.pending.clear(); // EIO on fsync: the unsynced pages are gone from the disk; reads still see them
            }
            throw kernelError(fault);
        }

        @Override
        public void truncate(long size) throws IOException {
            synchronized (WritePointFileIO.this) {
                live();
                Point p = point(Kind.TRUNCATE, path, size, 0);
                syncPoint(p);
                // RealFileIO truncates and forces the file with its metadata: everything written is durable
                for (Write w : f.pending) {
                    if (!w.lost) {
                        f.apply(w.pos, w.bytes, w.bytes.length);
                    }
                }
                f.pending.clear();
                f.length = (int) Math.min(f.length, size);
                Arrays.fill(f.current, f.length, f.current.length, (byte) 0);
                // the file's size is durable: bytes past it are gone, bytes before it that never reached the
                // disk read as zeros
                if (f.durableLength > f.length) {
                    Arrays.fill(f.durable, f.length, f.durableLength, (byte) 0);
                }
                if (f.length > f.durable.length) {
                    f.durable = Arrays.copyOf(f.durable, f.length);
                }
                f.durableLength = f.length;
            }
        }

        @Override
        public void force() throws IOException {
            synchronized (WritePointFileIO.this) {
                live();
                Point p = point(Kind.FSYNC, path, 0, f.length);
                syncPoint(p);
                for (Write w : f.pending) {
                    if (!w.lost) {
                        f.apply(w.pos, w.bytes, w.bytes.length);
                    }
                }
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
