package dev.quickstore.api;

/** An element of {@link Holder}'s collections. */
@Persistent
public interface Leaf {
    int v();

    void v(int v);
}
