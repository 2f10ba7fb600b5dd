package dev.quickstore.core.buffer;

import dev.quickstore.core.software.SwizzlingFrames;
import java.lang.foreign.MemorySegment;

/**
 * The buffer pool's {@link PageFrames} seam over software persistence's frames ({@code FramesMode.SOFTWARE}):
 * every call goes to {@link SwizzlingFrames} (explicit reads into one frame region, pre-images and write-back in
 * disk form, referrers unswizzled at eviction; docs/software-mode.md). A separate class only because the seam is
 * internal to store-core while {@code core.software} is exported to the accessors generated for the mode.
 */
public final class SoftwareFrames implements PageFrames {
    private final SwizzlingFrames frames;

    public SoftwareFrames(SwizzlingFrames frames) {
        this.frames = frames;
    }

    public SwizzlingFrames swizzling() {
        return frames;
    }

    @Override
    public int pageSize() {
        return frames.pageSize();
    }

    @Override
    public int capacity() {
        return frames.capacity();
    }

    @Override
    public int residentCount() {
        return frames.residentCount();
    }

    @Override
    public MemorySegment resident(long pageId) {
        return frames.resident(pageId);
    }

    @Override
    public MemorySegment install(long pageId, MemorySegment image) {
        return frames.install(pageId, image);
    }

    @Override
    public void evict(long pageId) {
        frames.evict(pageId);
    }

    @Override
    public void markDirty(long pageId) {
        frames.markDirty(pageId);
    }

    @Override
    public boolean isDirty(long pageId) {
        return frames.isDirty(pageId);
    }

    @Override
    public MemorySegment preImage(long pageId) {
        return frames.preImage(pageId);
    }

    @Override
    public void clearDirty(long pageId) {
        frames.clearDirty(pageId);
    }

    @Override
    public long[] dirtyPages() {
        return frames.dirtyPages();
    }

    @Override
    public MemorySegment stableImage(long pageId, MemorySegment buffer) {
        return frames.stableImage(pageId, buffer);
    }

    @Override
    public void restoring(long pageId) {
        frames.restoring(pageId);
    }

    @Override
    public long[] residentPages() {
        return frames.residentPages();
    }

    @Override
    public MemorySegment toDisk(MemorySegment copy) {
        return frames.toDisk(copy);
    }

    @Override
    public void close() {
        frames.close();
    }
}
