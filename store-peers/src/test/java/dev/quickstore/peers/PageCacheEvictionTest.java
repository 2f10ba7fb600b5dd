package dev.quickstore.peers;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PageCacheEviction} really drops a file's pages: residency is read with {@code mincore} (through
 * {@link MemorySegment#isLoaded()} of a fresh read-only mapping, which faults nothing in).
 */
class PageCacheEvictionTest {
    @TempDir
    Path tmp;

    private static boolean resident(Path file) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
                Arena arena = Arena.ofConfined()) {
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size(), arena).isLoaded();
        }
    }

    @Test
    void aReadFileIsResidentAndNotAfterEviction() throws IOException {
        Path file = tmp.resolve("data");
        byte[] bytes = new byte[1 << 20];
        java.util.Arrays.fill(bytes, (byte) 7);
        Files.write(file, bytes); // dirty pages: evict writes them first
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer buf = ByteBuffer.allocate(bytes.length);
            while (buf.hasRemaining() && ch.read(buf) > 0) {
                // read it all into the page cache
            }
        }
        assertTrue(resident(file), "just written and read: in the page cache");
        PageCacheEviction.evict(file);
        assertFalse(resident(file), "after posix_fadvise(DONTNEED)");
        assertTrue(Files.readAllBytes(file)[bytes.length - 1] == 7, "the data is still on disk");
    }

    @Test
    void aMissingFileIsNamedInTheError() {
        Path missing = tmp.resolve("missing.mdb");
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> PageCacheEviction.evict(missing));
        assertTrue(e.getMessage().contains("missing.mdb") && e.getMessage().contains("errno 2"), e.getMessage());
    }
}
