package dev.quickstore.peers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;

/**
 * Drops one file's pages from the operating system's page cache without root: {@code fdatasync} (so no page
 * is dirty) and then {@code posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)} (POSIX.1-2001; Linux evicts the
 * file's clean, unmapped pages at once). The OO7 peers' cold runs use it on their database files after closing
 * the store, so the next operation reads from disk, as White and DeWitt 1994 section 5.2 asks ("no data cached
 * in memory"). The whole-system {@code /proc/sys/vm/drop_caches} that the mapped store's {@code ColdRun} uses
 * needs root; this needs only read access to the file. Pages still mapped by a process (an open LMDB
 * environment) are not dropped, so call it after closing the store. Called through FFM (the JVM needs {@code
 * --enable-native-access=ALL-UNNAMED}, as every QuickStore/J process has).
 */
@SuppressWarnings("restricted") // FFM downcalls to libc
public final class PageCacheEviction {
    private static final int O_RDONLY = 0;
    private static final int POSIX_FADV_DONTNEED = 4; // Linux, every architecture the store supports

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle OPEN = downcall(
            "open",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
            Linker.Option.captureCallState("errno"));
    private static final MethodHandle FDATASYNC = downcall(
            "fdatasync",
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
            Linker.Option.captureCallState("errno"));
    private static final MethodHandle FADVISE = downcall(
            "posix_fadvise",
            FunctionDescriptor.of(
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE =
            downcall("close", FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    private PageCacheEviction() {}

    private static MethodHandle downcall(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment fn =
                LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("libc has no " + name));
        return LINKER.downcallHandle(fn, fd, options);
    }

    /**
     * Writes {@code file}'s dirty pages and drops all its pages from the page cache.
     *
     * @throws UncheckedIOException naming the file and the failing call with its errno
     */
    public static void evict(Path file) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment path = arena.allocateFrom(file.toAbsolutePath().toString());
            int fd = (int) OPEN.invokeExact(state, path, O_RDONLY);
            if (fd < 0) {
                throw failure("open", file, (int) ERRNO.get(state, 0L));
            }
            try {
                if ((int) FDATASYNC.invokeExact(state, fd) != 0) {
                    throw failure("fdatasync", file, (int) ERRNO.get(state, 0L));
                }
                int rc = (int) FADVISE.invokeExact(fd, 0L, 0L, POSIX_FADV_DONTNEED);
                if (rc != 0) { // posix_fadvise returns the error number instead of setting errno
                    throw failure("posix_fadvise(POSIX_FADV_DONTNEED)", file, rc);
                }
            } finally {
                int ignored = (int) CLOSE.invokeExact(fd);
            }
        } catch (UncheckedIOException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("evicting " + file + " from the page cache", t);
        }
    }

    private static UncheckedIOException failure(String call, Path file, int errno) {
        return new UncheckedIOException(new IOException(call + " of " + file + " failed: errno " + errno));
    }
}
