package dev.quickstore.api.internal;

import dev.quickstore.api.PersistentObject;

/**
 * The base of generated software-mode proxies ({@code <Name>$Soft}, docs/software-mode.md). The proxy's
 * {@code address} is the object's OID (its stored form: equality, index values, roots and reference fields
 * use it); the object's region offset is cached with the {@linkplain SoftView#epoch eviction count} it was
 * valid at and resolved again through the OID table (reading the page if it left the pool) when an eviction
 * happened since. White and DeWitt 1994, section 4.5.1: E kept OIDs in objects and swizzled local pointers;
 * the cached offset is this proxy's swizzled local pointer.
 */
public abstract class SoftObject extends PersistentObject {
    private long at;
    private long epoch;

    /** A proxy of {@code oid} whose region offset is resolved on first use. */
    protected SoftObject(Session session, long oid) {
        super(session, oid);
        this.epoch = Long.MIN_VALUE;
    }

    /** A proxy of {@code oid} resident at region offset {@code at} now. */
    protected SoftObject(Session session, long oid, long at) {
        super(session, oid);
        this.at = at;
        this.epoch = SoftView.epoch();
    }

    /** The object's region offset, valid until the next page read. */
    public final long at() {
        long e = SoftView.epoch();
        if (e != epoch) {
            at = SoftView.resolve(-1, address);
            epoch = SoftView.epoch(); // the resolution itself may have evicted a page
        }
        return at;
    }

    /** The region offset of field {@code offset}, after the software write barrier for it. */
    protected final long writable(long offset) {
        SoftView.markWrite(at() + offset);
        return at() + offset;
    }

    /** The OID (the stored form of a reference to this object). */
    public final long oid() {
        return address;
    }
}
