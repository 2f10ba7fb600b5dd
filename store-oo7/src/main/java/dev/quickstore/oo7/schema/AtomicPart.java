package dev.quickstore.oo7.schema;

import dev.quickstore.api.Persistent;
import java.util.List;

/**
 * An OO7 atomic part: the unit out of which a composite part is built. Its {@code buildDate} is indexed
 * (see {@link dev.quickstore.oo7.Oo7Store#updateBuildDate}); {@code x} and {@code y} are the attributes T2
 * updates.
 */
@Persistent
public interface AtomicPart extends DesignObj {
    int x();

    void x(int x);

    int y();

    void y(int y);

    /** The id of the document of this part's composite part (the join attribute of Q8). */
    int docId();

    /** Outgoing connections ({@code NumConnPerAtomic} of them; connection 0 forms the ring). */
    List<Connection> to();

    /** Incoming connections (the inverse of {@link #to()}). */
    List<Connection> from();

    /** The composite part this atomic part belongs to. */
    CompositePart partOf();
}
