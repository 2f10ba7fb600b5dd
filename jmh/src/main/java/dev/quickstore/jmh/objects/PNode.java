package dev.quickstore.jmh.objects;

import dev.quickstore.api.Persistent;

/** Persistent linked-list node (value INT at 4, next REF at 8; 16 bytes). */
@Persistent
public interface PNode {
    int value();

    void value(int v);

    PNode next();

    void next(PNode n);
}
