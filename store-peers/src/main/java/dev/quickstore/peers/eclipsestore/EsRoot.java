package dev.quickstore.peers.eclipsestore;

import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Module;
import java.util.HashMap;
import java.util.TreeMap;
import org.eclipse.serializer.reference.Lazy;

/**
 * The root of the OO7 object graph in Eclipse Store: the modules (each with its assembly hierarchy) and the
 * indexes an Eclipse Store application keeps in its graph, as JDK maps: {@link TreeMap}s where OO7 scans in
 * key order (atomic parts by id and by build date, composite parts by id), {@link HashMap}s for exact-match
 * lookups. Every index is behind a {@link Lazy} reference, so that starting the storage loads the modules and
 * their hierarchy but no index until an operation uses it. Eclipse Store stores a JDK map as one record of
 * all its entries: a commit that changes an index stores the whole map again.
 */
final class EsRoot {
    final TreeMap<Integer, Module> modules = new TreeMap<>();
    final Lazy<TreeMap<Integer, AtomicPart>> atomicById = Lazy.Reference(new TreeMap<>());
    /** Key: build date in the high half, id (sign-flipped) in the low half, as the heap store's. */
    final Lazy<TreeMap<Long, AtomicPart>> atomicByDate = Lazy.Reference(new TreeMap<>());

    final Lazy<TreeMap<Integer, CompositePart>> compositeById = Lazy.Reference(new TreeMap<>());
    final Lazy<HashMap<String, Document>> documentByTitle = Lazy.Reference(new HashMap<>());
    final Lazy<HashMap<Integer, Document>> documentById = Lazy.Reference(new HashMap<>());
    final Lazy<HashMap<Integer, BaseAssembly>> baseAssemblyById = Lazy.Reference(new HashMap<>());
}
