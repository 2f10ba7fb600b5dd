package dev.quickstore.jmh.objects;

import dev.quickstore.api.Persistent;

/** Persistent binary tree node (key INT at 4, left REF at 8, right REF at 16; 24 bytes). */
@Persistent
public interface PTree {
    int key();

    void key(int k);

    PTree left();

    void left(PTree n);

    PTree right();

    void right(PTree n);
}
