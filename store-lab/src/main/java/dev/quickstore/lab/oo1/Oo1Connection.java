package dev.quickstore.lab.oo1;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;

/** An OO1 connection from one part to another, with a {@code type} ({@code char[10]}) and a {@code length}. */
@Persistent
public interface Oo1Connection {
    @Chars(Oo1Part.TYPE_LENGTH)
    String type();

    int length();

    Oo1Part from();

    Oo1Part to();
}
