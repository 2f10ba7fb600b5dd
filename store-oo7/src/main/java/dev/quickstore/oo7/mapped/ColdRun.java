package dev.quickstore.oo7.mapped;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The measuring side of a cold run (White and DeWitt 1994 section 5.2: "no data cached in memory at either
 * the client or the server"): emptying the operating system's page cache when the process may, and the
 * I/O-only baseline of a cold operation - the same pages read again with plain positional reads - against
 * which the fault path's overhead is reported (design notes section 8). {@link MappedOo7Store#makeCold()}
 * empties the store's own cache by reopening it; the admin shell's fresh-JVM cold runs drop the OS cache
 * through {@link #dropOsCache()} too.
 */
public final class ColdRun {
    private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private ColdRun() {}

    /** {@code sync; echo 1 > /proc/sys/vm/drop_caches}; false if not permitted (not root, read-only /proc). */
    public static boolean dropOsCache() {
        try {
            Process sync = new ProcessBuilder("sync").inheritIO().start();
            if (sync.waitFor() != 0) {
                return false;
            }
            Files.writeString(DROP_CACHES, "1\n");
            return true;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Reads {@code pages} of {@code volume} again with positional reads (one {@code pread} of a page each, in
     * page order) and returns the time taken: the I/O part of a cold operation that faulted those pages in.
     */
    static long preadNanos(Path volume, long[] pages, int pageSize) {
        long[] sorted = pages.clone();
        Arrays.sort(sorted);
        ByteBuffer buf = ByteBuffer.allocateDirect(pageSize);
        try (FileChannel ch = FileChannel.open(volume, StandardOpenOption.READ)) {
            long t0 = System.nanoTime();
            for (long p : sorted) {
                buf.clear();
                long pos = p * pageSize;
                while (buf.hasRemaining() && ch.read(buf, pos + buf.position()) > 0) {
                    // a short read continues where it stopped
                }
            }
            return System.nanoTime() - t0;
        } catch (IOException e) {
            throw new UncheckedIOException("re-reading the resident pages of " + volume, e);
        }
    }
}
