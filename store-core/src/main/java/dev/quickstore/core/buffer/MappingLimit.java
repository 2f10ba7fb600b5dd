package dev.quickstore.core.buffer;

import dev.quickstore.core.error.StoreException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The kernel's limit on memory mappings per process ({@code vm.max_map_count}, default 65,530): every island of
 * page protection in the arena is a mapping (design notes section 4, "VMA limit"), so a placement whose runs
 * cannot fit is refused at open, by name, instead of failing later inside the fault path.
 */
public final class MappingLimit {
    private MappingLimit() {}

    /** Kernel memory mappings kept free for the JVM and for protection islands of the buffer pool. */
    public static final long MAPPING_HEADROOM = 1024;

    /**
     * Refuses a placement whose protection islands cannot fit under {@code vm.max_map_count}: each relocated
     * run can split the arena's mapping twice in the identity half once its neighbours are resident. The
     * system property {@code qs.test.maxMapCount} overrides the limit (tests).
     */
    public static void check(Path dir, int runs) {
        long limit = Long.getLong("qs.test.maxMapCount", readProcLong("/proc/sys/vm/max_map_count"));
        if (limit <= 0) {
            return; // not Linux or unreadable: nothing to check against
        }
        long inUse = countMappings();
        long needed = 2L * runs + MAPPING_HEADROOM;
        if (inUse + needed > limit) {
            throw new StoreException(String.format(
                    "store %s: relocating %d runs of pages needs about %d kernel memory mappings (2 per run + %d"
                            + " headroom) but only %d of vm.max_map_count = %d are available (%d in use by the"
                            + " process); raise the sysctl vm.max_map_count or relocate fewer pages",
                    dir, runs, needed, MAPPING_HEADROOM, Math.max(0, limit - inUse), limit, inUse));
        }
    }

    private static long readProcLong(String file) {
        try {
            // (Files.readString trusts the size procfs reports and returned "6" for 65530)
            try (var in = java.nio.file.Files.newInputStream(java.nio.file.Path.of(file))) {
                return Long.parseLong(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim());
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static long countMappings() {
        try (var lines = java.nio.file.Files.lines(java.nio.file.Path.of("/proc/self/maps"))) {
            return lines.count();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
