package dev.quickstore.oo7.schema;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;

/**
 * The OO7 root class of every design object: {@code id}, {@code type} ({@code char[10]}, one of
 * {@code "type000"} .. {@code "type009"}) and {@code buildDate}.
 */
@Persistent
public interface DesignObj {
    /** Length of the persistent {@code type} field in characters. */
    int TYPE_LENGTH = 10;

    /** The object's id, unique within its kind. */
    int id();

    /** The type string, at most {@value #TYPE_LENGTH} characters. */
    @Chars(TYPE_LENGTH)
    String type();

    /** The build date (an integer "date" as in OO7). */
    int buildDate();
}
