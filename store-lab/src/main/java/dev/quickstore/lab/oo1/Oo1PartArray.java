package dev.quickstore.lab.oo1;

import dev.quickstore.api.Persistent;
import java.util.List;

/**
 * The "all-raw" index of OO1's parts (Kakkad and Wilson 1999, texas-kakkad-wilson-1999.txt section 5 and the
 * "all-raw" curves of Figures 3-4): a persistent array of references, part {@code id} at element {@code id - 1}.
 * Its elements are ordinary references (a {@code List} of a {@code @Persistent} type is a reference array whose
 * every element word is in its page's pointer map, docs/object-api.md "Reference array"), so in Texas mode the
 * fault path swizzles a whole 512-entry leaf when the leaf's page comes in and reserves a frame one step ahead for
 * the page of every part the leaf refers to - what the paper's raw index pays and its smart index avoids.
 */
@Persistent
public interface Oo1PartArray {
    /** The parts by id: element {@code id - 1} is part {@code id} (OO1's ids are dense, {@code 1..N}). */
    List<Oo1Part> parts();
}
