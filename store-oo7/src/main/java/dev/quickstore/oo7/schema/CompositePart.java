package dev.quickstore.oo7.schema;

import dev.quickstore.api.Persistent;
import java.util.List;

/**
 * An OO7 composite part: a graph of atomic parts with a root part and a document.
 */
@Persistent
public interface CompositePart extends DesignObj {
    Document documentation();

    void documentation(Document document);

    /** Bag (duplicates allowed) of base assemblies that list this part among their private components. */
    List<BaseAssembly> usedInPriv();

    /** Bag (duplicates allowed) of base assemblies that list this part among their shared components. */
    List<BaseAssembly> usedInShar();

    /** The set of atomic parts of this composite (no duplicates; the root part comes first). */
    List<AtomicPart> parts();

    AtomicPart rootPart();

    void rootPart(AtomicPart root);
}
