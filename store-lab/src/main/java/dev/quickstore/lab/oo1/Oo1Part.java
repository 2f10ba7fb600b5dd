package dev.quickstore.lab.oo1;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;
import java.util.List;

/**
 * An OO1 part (Cattell and Skeen 1992): a unique {@code id}, a {@code type} ({@code char[10]}), coordinates
 * {@code x} and {@code y}, a {@code build} date, and its outgoing connections (three in the built database).
 */
@Persistent
public interface Oo1Part {
    /** Length of the {@code type} field in characters. */
    int TYPE_LENGTH = 10;

    int id();

    @Chars(TYPE_LENGTH)
    String type();

    int x();

    int y();

    long build();

    /** The connections from this part to others. */
    List<Oo1Connection> to();
}
