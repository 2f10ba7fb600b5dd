package dev.quickstore.oo7.schema;

import dev.quickstore.api.Persistent;

/**
 * An OO7 manual: the large object of a module ({@code ManualSize} bytes: 100K small, 1M medium/large).
 */
@Persistent
public interface Manual {
    String title();

    int id();

    /** The text; a mapped store may return a view over its pages (T8 scans it character by character). */
    CharSequence text();

    /** The text length in characters ({@code text().length()}). */
    int textLen();

    /** The module this manual belongs to. */
    Module mod();
}
