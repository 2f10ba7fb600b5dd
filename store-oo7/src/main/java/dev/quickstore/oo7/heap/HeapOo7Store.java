package dev.quickstore.oo7.heap;

import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.heap.HeapObjects.HeapAtomicPart;
import dev.quickstore.oo7.heap.HeapObjects.HeapBaseAssembly;
import dev.quickstore.oo7.heap.HeapObjects.HeapComplexAssembly;
import dev.quickstore.oo7.heap.HeapObjects.HeapCompositePart;
import dev.quickstore.oo7.heap.HeapObjects.HeapConnection;
import dev.quickstore.oo7.heap.HeapObjects.HeapDocument;
import dev.quickstore.oo7.heap.HeapObjects.HeapManual;
import dev.quickstore.oo7.heap.HeapObjects.HeapModule;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The OO7 database as plain Java objects: the transient baseline of design notes section 8.
 *
 * <p>Indexes are {@link HashMap}s for unique keys and a {@link TreeMap} keyed by {@code (buildDate, id)} for
 * the atomic-part build-date index (the B+-tree of OO7). Transactions are no-ops: updates are visible at once
 * and {@link #abort()} is unsupported. There are no caches to drop ({@link #supportsCold()} is false) and no
 * counters. Not thread-safe.
 */
public final class HeapOo7Store implements Oo7Store {
    private final TreeMap<Integer, Module> modules = new TreeMap<>();
    private final TreeMap<Integer, AtomicPart> atomicById = new TreeMap<>();
    private final TreeMap<Long, AtomicPart> atomicByDate = new TreeMap<>();
    private final TreeMap<Integer, CompositePart> compositeById = new TreeMap<>();
    private final HashMap<String, Document> documentByTitle = new HashMap<>();
    private final HashMap<Integer, Document> documentById = new HashMap<>();
    private final HashMap<Integer, BaseAssembly> baseAssemblyById = new HashMap<>();
    private boolean inTransaction;

    @Override
    public String name() {
        return "heap";
    }

    // ------------------------------------------------------------------------------------------- factory

    @Override
    public Module createModule(int id, String type, int buildDate, Object near) {
        HeapModule m = new HeapModule(id, type, buildDate);
        putUnique(modules, id, m, "module");
        return m;
    }

    @Override
    public Manual createManual(int id, String title, CharSequence text, Module mod, Object near) {
        return new HeapManual(id, title, text, mod);
    }

    @Override
    public ComplexAssembly createComplexAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        return new HeapComplexAssembly(id, type, buildDate, module, superAssembly);
    }

    @Override
    public BaseAssembly createBaseAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near) {
        HeapBaseAssembly ba = new HeapBaseAssembly(id, type, buildDate, module, superAssembly);
        putUnique(baseAssemblyById, id, ba, "base assembly");
        return ba;
    }

    @Override
    public CompositePart createCompositePart(int id, String type, int buildDate, Object near) {
        HeapCompositePart cp = new HeapCompositePart(id, type, buildDate);
        putUnique(compositeById, id, cp, "composite part");
        return cp;
    }

    @Override
    public Document createDocument(int id, String title, CharSequence text, CompositePart part, Object near) {
        HeapDocument d = new HeapDocument(id, title, text, part);
        putUnique(documentById, id, d, "document");
        putUnique(documentByTitle, title, d, "document title");
        return d;
    }

    @Override
    public AtomicPart createAtomicPart(
            int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf, Object near) {
        HeapAtomicPart p = new HeapAtomicPart(id, type, buildDate, x, y, docId, partOf);
        putUnique(atomicById, id, p, "atomic part");
        atomicByDate.put(dateKey(buildDate, id), p);
        return p;
    }

    @Override
    public Connection createConnection(String type, int length, AtomicPart from, AtomicPart to, Object near) {
        return new HeapConnection(type, length, from, to);
    }

    // ------------------------------------------------------------------------------------------ deletion

    @Override
    public void deleteConnection(Connection connection) {
        // Nothing indexes connections; the garbage collector reclaims them.
    }

    @Override
    public void deleteAtomicPart(AtomicPart part) {
        removeExisting(atomicById, part.id(), part);
        removeExisting(atomicByDate, dateKey(part.buildDate(), part.id()), part);
    }

    @Override
    public void deleteDocument(Document document) {
        removeExisting(documentById, document.id(), document);
        removeExisting(documentByTitle, document.title(), document);
    }

    @Override
    public void deleteCompositePart(CompositePart part) {
        removeExisting(compositeById, part.id(), part);
    }

    // ------------------------------------------------------------------------------------------- indexes

    @Override
    public List<Module> modules() {
        return Collections.unmodifiableList(new ArrayList<>(modules.values()));
    }

    @Override
    public Module moduleById(int id) {
        return modules.get(id);
    }

    @Override
    public AtomicPart atomicPartById(int id) {
        return atomicById.get(id);
    }

    @Override
    public void scanAtomicPartsByBuildDate(int lo, int hi, Consumer<? super AtomicPart> action) {
        if (lo > hi) {
            return;
        }
        NavigableMap<Long, AtomicPart> range =
                atomicByDate.subMap(dateKey(lo, Integer.MIN_VALUE), true, dateKey(hi, Integer.MAX_VALUE), true);
        range.values().forEach(action);
    }

    @Override
    public void updateBuildDate(AtomicPart part, int buildDate) {
        HeapAtomicPart p = (HeapAtomicPart) part;
        removeExisting(atomicByDate, dateKey(p.buildDate, p.id()), p);
        p.buildDate = buildDate;
        atomicByDate.put(dateKey(buildDate, p.id()), p);
    }

    @Override
    public void forEachAtomicPart(Consumer<? super AtomicPart> action) {
        atomicById.values().forEach(action);
    }

    @Override
    public CompositePart compositePartById(int id) {
        return compositeById.get(id);
    }

    @Override
    public void forEachCompositePart(Consumer<? super CompositePart> action) {
        compositeById.values().forEach(action);
    }

    @Override
    public Document documentByTitle(String title) {
        return documentByTitle.get(title);
    }

    @Override
    public Document documentById(int id) {
        return documentById.get(id);
    }

    @Override
    public BaseAssembly baseAssemblyById(int id) {
        return baseAssemblyById.get(id);
    }

    // -------------------------------------------------------------------------------------- transactions

    @Override
    public void begin() {
        if (inTransaction) {
            throw new IllegalStateException("transaction already active");
        }
        inTransaction = true;
    }

    @Override
    public void commit() {
        if (!inTransaction) {
            throw new IllegalStateException("no active transaction");
        }
        inTransaction = false;
    }

    /** Ends the transaction and throws: the heap store keeps no undo information. */
    @Override
    public void abort() {
        inTransaction = false;
        throw new UnsupportedOperationException("the heap store cannot undo updates");
    }

    // --------------------------------------------------------------------------------- benchmark protocol

    @Override
    public boolean supportsCold() {
        return false;
    }

    /** Nothing to drop: every object is always in memory. */
    @Override
    public void makeCold() {}

    @Override
    public Map<String, Long> counters() {
        return Map.of();
    }

    @Override
    public void close() {}

    // ----------------------------------------------------------------------------------------- helpers

    /** Build-date index key: date in the high half, id (sign-flipped so negative ids sort first) low. */
    private static long dateKey(int buildDate, int id) {
        return ((long) buildDate << 32) | ((id ^ Integer.MIN_VALUE) & 0xFFFF_FFFFL);
    }

    private static <K, V> void putUnique(Map<K, V> index, K key, V value, String what) {
        if (index.putIfAbsent(key, value) != null) {
            throw new IllegalArgumentException("duplicate " + what + " key " + key);
        }
    }

    private static <K, V> void removeExisting(Map<K, V> index, K key, V value) {
        if (!index.remove(key, value)) {
            throw new IllegalStateException("index has no entry " + key + " -> " + value);
        }
    }
}
