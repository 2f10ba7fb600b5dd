package dev.quickstore.oo7.schema;

import dev.quickstore.api.Persistent;
import java.util.List;

/** An OO7 base assembly: a leaf of the assembly hierarchy, built from composite parts. */
@Persistent
public interface BaseAssembly extends Assembly {
    /** Bag (duplicates allowed) of {@code NumCompPerAssm} private composite parts from the same module. */
    List<CompositePart> componentsPriv();

    /** Bag (duplicates allowed) of {@code NumCompPerAssm} shared composite parts from any module. */
    List<CompositePart> componentsShar();
}
