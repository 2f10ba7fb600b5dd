package com.example.documents;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;

/** A document of a small archive: looked up by title through a B+tree index, its text kept inline. */
@Persistent
public interface Document {
    @Chars(40)
    String title();

    void title(String v);

    @Chars(200)
    String text();

    void text(String v);

    int revision();

    void revision(int v);
}
