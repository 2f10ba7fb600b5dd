package dev.quickstore.peers.eclipsestore;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.RandomAccess;

/**
 * A live view of a persisted {@link ArrayList} that reports every structural change of the list to the open
 * store's unit of work ({@link EclipseStoreOo7Store#changed(Object)}), so that the commit stores the list
 * itself (Eclipse Store persists an {@code ArrayList} as one record of references: a changed list is stored
 * again, its unchanged elements are not). Reads go straight to the backing list.
 *
 * <p>The OO7 schema hands out relationships as live {@link java.util.List}s that the store-agnostic OO7 code
 * mutates; an Eclipse Store application would call {@code store(list)} after changing a list, and this view
 * remembers that call for it (the "unit of work" pattern of object-relational mappers, Fowler, Patterns of
 * Enterprise Application Architecture, 2002).
 */
final class TrackedList<E> extends AbstractList<E> implements RandomAccess {
    private final ArrayList<E> backing;

    TrackedList(ArrayList<E> backing) {
        this.backing = backing;
    }

    @Override
    public E get(int index) {
        return backing.get(index);
    }

    @Override
    public int size() {
        return backing.size();
    }

    @Override
    public E set(int index, E element) {
        EclipseStoreOo7Store.changed(backing);
        return backing.set(index, element);
    }

    @Override
    public boolean add(E element) {
        EclipseStoreOo7Store.changed(backing);
        modCount++;
        return backing.add(element);
    }

    @Override
    public void add(int index, E element) {
        EclipseStoreOo7Store.changed(backing);
        modCount++;
        backing.add(index, element);
    }

    @Override
    public E remove(int index) {
        EclipseStoreOo7Store.changed(backing);
        modCount++;
        return backing.remove(index);
    }
}
