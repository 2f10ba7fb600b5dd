package dev.quickstore.core.buffer;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Pure-Java {@link PageFrames}: {@code capacity} frames and as many pre-image slots in two shared
 * off-heap segments ({@link Arena#ofShared()}); pre-image slot i belongs to frame i. Write detection
 * is explicit ({@link #markDirty}), exactly where store-native's write fault will capture the pre-image.
 */
public final class OffHeapFrames implements PageFrames {
    private final Arena arena = Arena.ofShared();
    private final int pageSize;
    private final int capacity;
    private final MemorySegment frames;
    private final MemorySegment preImages;
    private final Map<Long, Integer> slotOf = new HashMap<>();
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    private final TreeSet<Long> dirty = new TreeSet<>();

    public OffHeapFrames(int pageSize, int capacity) {
        this.pageSize = pageSize;
        this.capacity = capacity;
        this.frames = arena.allocate((long) pageSize * capacity, 4096);
        this.preImages = arena.allocate((long) pageSize * capacity, 4096);
        for (int i = 0; i < capacity; i++) {
            freeSlots.add(i);
        }
    }

    @Override
    public int pageSize() {
        return pageSize;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public int residentCount() {
        return slotOf.size();
    }

    private MemorySegment frame(int slot) {
        return frames.asSlice((long) slot * pageSize, pageSize);
    }

    @Override
    public MemorySegment resident(long pageId) {
        Integer s = slotOf.get(pageId);
        return s == null ? null : frame(s);
    }

    @Override
    public MemorySegment install(long pageId, MemorySegment image) {
        if (slotOf.containsKey(pageId)) {
            throw new IllegalStateException("page " + pageId + " already resident");
        }
        Integer s = freeSlots.poll();
        if (s == null) {
            throw new IllegalStateException("no free frame (capacity " + capacity + "); evict first");
        }
        slotOf.put(pageId, s);
        MemorySegment f = frame(s);
        f.copyFrom(image);
        return f;
    }

    @Override
    public void evict(long pageId) {
        if (dirty.contains(pageId)) {
            throw new IllegalStateException("page " + pageId + " is dirty; log it before evicting");
        }
        Integer s = slotOf.remove(pageId);
        if (s != null) {
            freeSlots.add(s);
        }
    }

    private MemorySegment pre(long pageId) {
        Integer s = slotOf.get(pageId);
        if (s == null) {
            throw new IllegalStateException("page " + pageId + " not resident");
        }
        return preImages.asSlice((long) s * pageSize, pageSize);
    }

    @Override
    public void markDirty(long pageId) {
        if (dirty.add(pageId)) {
            pre(pageId).copyFrom(resident(pageId));
        }
    }

    @Override
    public boolean isDirty(long pageId) {
        return dirty.contains(pageId);
    }

    @Override
    public MemorySegment preImage(long pageId) {
        return dirty.contains(pageId) ? pre(pageId) : null;
    }

    @Override
    public void clearDirty(long pageId) {
        dirty.remove(pageId);
    }

    @Override
    public long[] dirtyPages() {
        return dirty.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public MemorySegment stableImage(long pageId, MemorySegment buffer) {
        return resident(pageId); // only the store writes these frames, under its latch
    }

    @Override
    public long[] residentPages() {
        return slotOf.keySet().stream().mapToLong(Long::longValue).sorted().toArray();
    }

    @Override
    public void close() {
        arena.close();
    }
}
