package dev.quickstore.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A fixed-length text field stored inside the object, like C's {@code char[n]} (OO7's {@code type char[10]},
 * {@code title char[40]}): {@code n} bytes of ISO-8859-1, zero-padded; the value is the text before the first
 * zero byte. Setting a longer text, or one with a character above U+00FF or U+0000, throws
 * {@link IllegalArgumentException}.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Chars {
    /** Length in bytes (= characters), 1..255. */
    int value();
}
