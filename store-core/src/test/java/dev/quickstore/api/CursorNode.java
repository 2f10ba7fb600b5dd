package dev.quickstore.api;

/**
 * A graph node for the cursor tests ({@code CursorTest}): two ints, two self references and a string, laid out
 * as left 8, right 16, label 24, key 4, extra 32; {@link HeavyCursorNode} moves {@code extra}.
 */
@Persistent
public interface CursorNode {
    int key();

    void key(int k);

    int extra();

    void extra(int e);

    CursorNode left();

    void left(CursorNode n);

    CursorNode right();

    void right(CursorNode n);

    String label();

    void label(String s);
}
