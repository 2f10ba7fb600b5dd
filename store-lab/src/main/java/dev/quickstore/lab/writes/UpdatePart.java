package dev.quickstore.lab.writes;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;

/**
 * The part the write-detection experiments update: an OO1 part's fields (Hosking and Moss's benchmark database is
 * Cattell's OO1; their update operation "increments two scalar integer fields" of the parts it reaches) plus two
 * words of payload, 56 bytes in a slotted page with its type tag, so that an object is smaller than the smallest
 * card (128 bytes with 8 KiB pages) as the paper's parts are smaller than its cards.
 */
@Persistent
public interface UpdatePart {
    int TYPE_LENGTH = 10;

    int id();

    void id(int v);

    int x();

    void x(int v);

    int y();

    void y(int v);

    long build();

    void build(long v);

    @Chars(TYPE_LENGTH)
    String type();

    void type(String t);

    long payload();

    void payload(long v);
}
