package dev.quickstore.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares a persistent type: an interface of record-style accessors ({@code T name()} and optionally
 * {@code void name(T)}). The annotation processor {@code dev.quickstore.processor.PersistentProcessor}
 * (module {@code store-processor}, listed in maven-compiler-plugin {@code annotationProcessorPaths}) generates
 * {@code <Name>$Impl}, which keeps each field at a fixed offset in the object. Field types: primitives,
 * {@code String} with {@link Chars} (fixed length, in the object), {@code String}/{@code CharSequence} and
 * {@code byte[]} (variable length, out of line), another {@code @Persistent} interface (an 8-byte virtual
 * address) and {@code java.util.List} of one (an out-of-line reference array). See docs/object-api.md.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Persistent {}
