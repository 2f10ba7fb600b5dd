package dev.quickstore.core.software;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The residency check and in-place swizzle of software persistence: what E's generated code does in line
 * and what EPVM 3.0's functions do out of line (White and DeWitt 1994, section 4.5.1: "residency checks and
 * dereferences of swizzled pointers are done in-line and do not require a function call"; an unswizzled
 * pointer is dereferenced "by calling an EPVM function", which may call the storage manager to read the page).
 *
 * <p>The in-line part, {@link #deref}, is one load, one bit test and a not-taken branch when the word is
 * already swizzled (or null):
 *
 * <pre>
 * long w = region.get(JAVA_LONG, field);
 * if ((w &amp; Oid.OID_BIT) != 0) w = swizzler.resolve(field, w);   // EPVM: out of line
 * // w: the target's region offset (0 = null)
 * </pre>
 *
 * {@link #resolve} probes the {@link OidTable}; on a miss it has the page read (explicitly, through the buffer
 * pool: {@link PageAccess}), enters the object, and writes the swizzled pointer over the OID in place when
 * the word is a pointer word of a still-resident slotted page (and records it as a referrer of the target's
 * frame, so eviction can unswizzle it). Swizzling in place goes beyond EPVM 3.0, which swizzled only local
 * pointer variables because in-object swizzling "makes page replacement in the buffer pool difficult" (the
 * same section): here the referrer lists of {@link SwizzlingFrames} are what makes replacement work.
 *
 * <p>A returned region offset is valid until the next page read (which may evict); generated code uses it at
 * once. Not thread-safe (one transaction's thread, like the store latch).
 */
public final class Swizzler {
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG;

    /** What the swizzler asks of the storage manager (the store implements it over its buffer pool). */
    public interface PageAccess {
        /** Makes {@code pageId} resident (reading it if needed); returns its frame's region offset. */
        long read(long pageId);

        /** The running transaction's first write to {@code pageId}: capture its pre-image (fixForWrite). */
        void writing(long pageId);
    }

    private final SwizzlingFrames frames;
    private final MemorySegment region;
    private final PageAccess access;
    private long resolves;
    private long pageReads;
    private long swizzles;

    public Swizzler(SwizzlingFrames frames, PageAccess access) {
        this.frames = frames;
        this.region = frames.region();
        this.access = access;
    }

    public SwizzlingFrames frames() {
        return frames;
    }

    /** The frame region (object address = region offset). */
    public MemorySegment region() {
        return region;
    }

    /** The residency-checked dereference of the reference word at region offset {@code field}. */
    public long deref(long field) {
        long w = region.get(WORD, field);
        if ((w & Oid.OID_BIT) != 0) {
            w = resolve(field, w);
        }
        return w;
    }

    /**
     * The out-of-line half: the region offset of {@code oid}, read from the volume if its page is not resident;
     * the word at {@code field} (which held {@code oid}) is swizzled in place when it is a pointer word whose page
     * is still resident. {@code field} {@code -1}: resolve only (a root, an index entry, a proxy's OID).
     */
    public long resolve(long field, long oid) {
        resolves++;
        long at = frames.lookup(oid);
        long sourcePage = field < 0 ? -1 : frames.pageAt(field);
        if (at == SwizzlingFrames.NOT_RESIDENT) {
            long pageId = Oid.page(oid);
            long frame = frames.frameOffset(pageId);
            if (frame == SwizzlingFrames.NOT_RESIDENT) {
                frame = access.read(pageId); // may evict the page holding the field
                pageReads++;
            }
            at = frames.enter(oid, frame);
        }
        frames.referenced(at); // the clock's reference bit (not in the in-line path)
        if (field >= 0
                && frames.pageAt(field) == sourcePage
                && region.get(WORD, field) == oid
                && frames.isPointerWord(field)) {
            region.set(WORD, field, at);
            frames.swizzled(field, at);
            swizzles++;
        }
        return at;
    }

    /**
     * Software write detection (the generated setter's barrier): call before storing at region offset
     * {@code at}. A page already written in this transaction costs one byte load and a not-taken branch; the
     * first write to a page has the store capture its pre-image (in disk form).
     */
    public void markWrite(long at) {
        if (!frames.isFrameDirty(at)) {
            access.writing(frames.pageAt(at));
        }
    }

    /**
     * The OID of the object at byte {@code offset} of page {@code pageId} (read if not resident): how the object
     * API names an object the storage manager just allocated, or a blob it just wrote.
     */
    public long oidOf(long pageId, int offset) {
        long frame = frames.frameOffset(pageId);
        if (frame == SwizzlingFrames.NOT_RESIDENT) {
            frame = access.read(pageId);
            pageReads++;
        }
        return frames.oidAt(frame + offset);
    }

    /**
     * The eviction and restoration count of the frames ({@link SwizzlingFrames#epoch}): a region offset obtained while it had
     * some value is valid while it still has it.
     */
    public long epoch() {
        return frames.epoch();
    }

    /** OIDs resolved out of line (table probes) since this swizzler was made. */
    public long resolves() {
        return resolves;
    }

    /** Pages read by resolutions that missed the pool. */
    public long pageReads() {
        return pageReads;
    }

    /** Reference words swizzled in place. */
    public long swizzles() {
        return swizzles;
    }
}
