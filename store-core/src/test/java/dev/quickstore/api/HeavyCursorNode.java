package dev.quickstore.api;

/**
 * A subtype of {@link CursorNode} whose own 8-byte field moves the inherited {@code extra} from offset 32 to 40:
 * a cursor over {@code CursorNode} must not read a subtype object at its supertype's offsets.
 */
@Persistent
public interface HeavyCursorNode extends CursorNode {
    long weight();

    void weight(long w);
}
