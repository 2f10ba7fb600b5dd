package dev.quickstore.mmu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Serial;
import java.nio.file.Files;
import java.nio.file.Path;

/** A control-plane operation on a {@link MappedArena} failed; the message names the cause and the fix. */
public final class ArenaException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    static final int ENOMEM = 12;

    private final int errno;

    ArenaException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    /** The errno of the failed system call, or 0. */
    public int errno() {
        return errno;
    }

    static ArenaException of(String operation, int errno) {
        if (errno == ENOMEM) {
            return new ArenaException(operation + " failed with ENOMEM: " + mapLimitAdvice(), errno);
        }
        return new ArenaException(operation + " failed: errno " + errno + " (" + name(errno) + ")", errno);
    }

    /** The documented ENOMEM message: names the sysctl and its current value. */
    static String mapLimitAdvice() {
        return "the process reached the kernel limit on memory mappings (sysctl vm.max_map_count = "
                + maxMapCount() + "); every protection island of the arena costs a mapping: call reprotectAll() or "
                + "evict frames to coalesce protection runs, or raise the limit (sysctl -w vm.max_map_count=...)";
    }

    /** The current vm.max_map_count ("unknown" if unreadable). */
    static String maxMapCount() {
        // Files.readString() returned only the first byte of this procfs file here (JDK 25, kernel 6.18);
        // a line reader reads it whole.
        try (BufferedReader r = Files.newBufferedReader(Path.of("/proc/sys/vm/max_map_count"))) {
            String line = r.readLine();
            return line == null ? "unknown" : line.strip();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static String name(int errno) {
        return switch (errno) {
            case 1 -> "EPERM";
            case 2 -> "ENOENT";
            case 5 -> "EIO";
            case 9 -> "EBADF";
            case 13 -> "EACCES";
            case 16 -> "EBUSY: a frame in the range is resident";
            case 22 -> "EINVAL";
            case 24 -> "EMFILE";
            case 28 -> "ENOSPC";
            case 34 -> "ERANGE: frame range outside the arena";
            default -> "see errno(3)";
        };
    }
}
