package dev.quickstore.oo7.schema;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;

/**
 * An information-bearing OO7 connection between two atomic parts of the same composite part: {@code type}
 * ({@code char[10]}), {@code length}, {@code from} and {@code to}.
 */
@Persistent
public interface Connection {
    /** The type string, at most {@value DesignObj#TYPE_LENGTH} characters. */
    @Chars(DesignObj.TYPE_LENGTH)
    String type();

    int length();

    AtomicPart from();

    AtomicPart to();
}
