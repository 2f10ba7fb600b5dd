package dev.quickstore.api;

import java.util.Collection;
import java.util.List;
import java.util.Set;

/** One collection field of each kind (the collection tests). */
@Persistent
public interface Holder {
    int id();

    void id(int v);

    List<Leaf> list();

    Set<Leaf> set();

    Collection<Leaf> bag();
}
