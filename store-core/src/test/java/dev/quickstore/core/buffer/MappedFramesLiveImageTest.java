package dev.quickstore.core.buffer;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.mmu.MappedArena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * Commit diffs a dirty page in place ({@link MappedFrames#liveImage}) and keeps the result only while the page is
 * still clean ({@link MappedFrames#cleanSinceCleared}): a store after the clean point must be seen, or commit would
 * log bytes of the next transaction.
 */
class MappedFramesLiveImageTest {
    static final int PS = MappedArena.DEFAULT_FRAME_SIZE;

    @Test
    void aStoreAfterTheCleanPointIsSeen() {
        MappedFrames frames = MappedFrames.open(null, PS, 8, 0, 8L * PS, 4, "live");
        try {
            MappedArena arena = frames.arena();
            arena.transaction(true);
            MemorySegment page = MemorySegment.ofArray(new long[PS / 8]);
            page.set(JAVA_LONG, 64, 7);
            frames.install(1, page);
            MemorySegment app = arena.view().asSlice(PS, PS); // identity placement: page 1 in frame 1
            app.set(JAVA_LONG, 64, 8); // write fault: DIRTY, pre-image taken
            assertEquals(1, frames.dirtyPages().length);
            frames.clearDirty(new long[] {1}, 0, 1); // commit's clean point
            MemorySegment live = frames.liveImage(1);
            assertNotNull(live, "identity placement: the page in place");
            assertEquals(8, live.get(JAVA_LONG, 64));
            assertTrue(frames.cleanSinceCleared(1), "no store since the clean point");
            app.set(JAVA_LONG, 64, 9); // the next transaction's store: a write fault first
            assertEquals(9, live.get(JAVA_LONG, 64), "the live bytes changed");
            assertFalse(frames.cleanSinceCleared(1), "so commit must not keep what it read");
            assertEquals(
                    8,
                    frames.stableImage(1, MemorySegment.ofArray(new long[PS / 8]))
                            .get(JAVA_LONG, 64),
                    "the stable image is the pre-image");
        } finally {
            frames.close();
        }
    }
}
