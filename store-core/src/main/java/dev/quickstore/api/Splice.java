package dev.quickstore.api;

import java.util.Objects;

/**
 * A text with one range replaced, as a {@link CharSequence} view that copies nothing until asked: the characters
 * of {@code text} before {@code start}, then {@code replacement}, then those of {@code text} from {@code end}
 * ({@link StringBuilder#replace} without the builder). Any {@code CharSequence} setter accepts it like any other
 * text.
 *
 * <p>What it adds is that the edit stays visible as an edit: a generated setter that receives a splice of the
 * text it holds now (the view its getter returned) stores it in place, moving the tail of the stored bytes by
 * the length difference and writing the replacement over the range, instead of decoding the whole text to
 * the heap and encoding it back. This is QuickStore's update model applied to text: the application changes
 * the object directly in the mapped page and commit diffs the page against its pre-image (White and DeWitt 1994,
 * section 3.6). OO7 T5 replaces a four-character prefix of a 2,000-character document this way (issue 13).
 * Elsewhere (another store, a text that does not fit its slot) the splice is read as a {@code CharSequence}:
 * {@link #toString()} copies each part in bulk ({@link CharSequence#getChars}).
 *
 * <p>Like the view over a stored text it usually wraps, a splice is valid while {@code text} and {@code
 * replacement} do not change. {@code equals} is identity, as for any {@code CharSequence}.
 */
public final class Splice implements CharSequence {
    private final CharSequence text;
    private final int start;
    private final int end;
    private final CharSequence replacement;
    private final int length;

    private Splice(CharSequence text, int start, int end, CharSequence replacement) {
        this.text = text;
        this.start = start;
        this.end = end;
        this.replacement = replacement;
        this.length = text.length() - (end - start) + replacement.length();
    }

    /**
     * {@code text} with the characters in {@code [start, end)} replaced by {@code replacement}.
     *
     * @throws IndexOutOfBoundsException unless {@code 0 <= start <= end <= text.length()}
     */
    public static Splice replace(CharSequence text, int start, int end, CharSequence replacement) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(replacement, "replacement");
        Objects.checkFromToIndex(start, end, text.length());
        return new Splice(text, start, end, replacement);
    }

    /** The text a range of which is replaced. */
    public CharSequence text() {
        return text;
    }

    /** The first replaced position of {@link #text()}. */
    public int start() {
        return start;
    }

    /** The position of {@link #text()} after the replaced range. */
    public int end() {
        return end;
    }

    /** What replaces the range. */
    public CharSequence replacement() {
        return replacement;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        Objects.checkIndex(index, length);
        if (index < start) {
            return text.charAt(index);
        }
        int r = index - start;
        int n = replacement.length();
        return r < n ? replacement.charAt(r) : text.charAt(end + r - n);
    }

    @Override
    public void getChars(int srcBegin, int srcEnd, char[] dst, int dstBegin) {
        Objects.checkFromToIndex(srcBegin, srcEnd, length);
        Objects.checkFromIndexSize(dstBegin, srcEnd - srcBegin, dst.length);
        int n = replacement.length();
        int d = dstBegin;
        // three parts in splice positions: [0, start) text, [start, start + n) replacement, then text from end
        int a = srcBegin;
        int b = Math.min(srcEnd, start);
        if (a < b) {
            text.getChars(a, b, dst, d);
            d += b - a;
        }
        a = Math.max(srcBegin, start);
        b = Math.min(srcEnd, start + n);
        if (a < b) {
            replacement.getChars(a - start, b - start, dst, d);
            d += b - a;
        }
        a = Math.max(srcBegin, start + n);
        if (a < srcEnd) {
            text.getChars(end + a - start - n, end + srcEnd - start - n, dst, d);
        }
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        Objects.checkFromToIndex(start, end, length);
        char[] c = new char[end - start];
        getChars(start, end, c, 0);
        return new String(c);
    }

    /** The spliced text, each part copied in bulk (a {@code String} part byte for byte, no widening). */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(length);
        append(b, text, 0, start);
        append(b, replacement, 0, replacement.length());
        append(b, text, end, text.length());
        return b.toString();
    }

    private static void append(StringBuilder b, CharSequence s, int from, int to) {
        if (from == to) {
            return;
        }
        if (s instanceof String str) {
            b.append(str, from, to); // StringBuilder copies a String's bytes
        } else {
            char[] c = new char[to - from]; // any other sequence in one bulk getChars, not a charAt per character
            s.getChars(from, to, c, 0);
            b.append(c);
        }
    }
}
