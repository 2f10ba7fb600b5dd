package dev.quickstore.oo7.schema;

/**
 * An information-bearing OO7 connection between two atomic parts of the same composite part: {@code type}
 * ({@code char[10]}), {@code length}, {@code from} and {@code to}.
 */
public interface Connection {
    /** The type string, at most {@value DesignObj#TYPE_LENGTH} characters. */
    String type();

    int length();

    AtomicPart from();

    AtomicPart to();
}
