package dev.quickstore.oo7.schema;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;

/**
 * An OO7 document: the documentation of one composite part. {@code title} is a {@code char[40]} of the
 * form {@code "Composite Part %08d"}; {@code id} equals the composite part's id.
 */
@Persistent
public interface Document {
    /** Length of the persistent {@code title} field in characters. */
    int TITLE_LENGTH = 40;

    /** The title, at most {@value #TITLE_LENGTH} characters. */
    @Chars(TITLE_LENGTH)
    String title();

    int id();

    /** The text; implementations may return a view that is valid until the next write of the text. */
    CharSequence text();

    /**
     * Replaces the text (T5). The text may grow: T5 replaces {@code "I am"} by {@code "This is"}, three
     * characters longer than the original {@code DocumentSize - 1} characters.
     */
    void text(CharSequence text);

    CompositePart part();
}
