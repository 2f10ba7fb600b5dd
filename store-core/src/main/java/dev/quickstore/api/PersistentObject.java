package dev.quickstore.api;

import dev.quickstore.api.internal.Session;

/**
 * Base class of every generated {@code <Name>$Impl}: a proxy for the persistent object at a virtual address.
 * Identity is the address: two proxies are {@linkplain #equals equal} when they denote the same object, in
 * any transaction. A proxy is cheap (two fields); following a reference makes a new one.
 */
public abstract class PersistentObject {
    /** The transaction the proxy was obtained in; checked when it is written or used as an argument. */
    protected final Session session;

    /** The object's virtual address in the arena (the stored form of a reference). */
    protected final long address;

    protected PersistentObject(Session session, long address) {
        this.session = session;
        this.address = address;
    }

    /** The virtual address of a persistent object (0 for null). */
    public static long addressOf(Object object) {
        if (object == null) {
            return 0;
        }
        if (object instanceof PersistentObject p) {
            return p.address;
        }
        throw new IllegalArgumentException(object.getClass().getName() + " is not a persistent object");
    }

    /** The transaction session a proxy belongs to (null for null); for the run time, not for applications. */
    public static Session sessionOf(PersistentObject object) {
        return object == null ? null : object.session;
    }

    @Override
    public final boolean equals(Object o) {
        return o instanceof PersistentObject p && p.address == address;
    }

    @Override
    public final int hashCode() {
        return Long.hashCode(address);
    }

    @Override
    public String toString() {
        Class<?>[] ifaces = getClass().getInterfaces();
        String name = ifaces.length > 0 ? ifaces[0].getSimpleName() : getClass().getSimpleName();
        return name + "@0x" + Long.toHexString(address);
    }
}
