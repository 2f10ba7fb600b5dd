package dev.quickstore.oo7;

import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.oo7.schema.BaseAssembly;
import dev.quickstore.oo7.schema.ComplexAssembly;
import dev.quickstore.oo7.schema.CompositePart;
import dev.quickstore.oo7.schema.Connection;
import dev.quickstore.oo7.schema.Document;
import dev.quickstore.oo7.schema.Manual;
import dev.quickstore.oo7.schema.Module;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What an object store must provide to hold an OO7 database: this is the whole contract between the OO7
 * code (builder {@link Oo7Builder}, operations {@link Oo7Operations}, driver {@link Oo7Runner}) and a
 * store. The Java-heap baseline is {@link dev.quickstore.oo7.heap.HeapOo7Store}; the mapped persistent store
 * implements the same interface so both run exactly the same OO7 code paths.
 *
 * <h2>Objects</h2>
 *
 * Factory methods create objects, set their creation-time attributes and register them in the indexes. They
 * never wire relationships other than the ones passed as arguments (a new atomic part knows its composite, a
 * new connection its two ends); inverse relationships and collection membership are added by the OO7 code
 * through the live {@link List}s of the schema, so both stores see identical mutation sequences.
 *
 * <p>Every factory method takes a clustering hint {@code near}: a previously created object of this store
 * (or {@code null}) close to which the new object should be placed. The builder passes the composite part
 * for everything in a composite-part cluster (its document, atomic parts and connections, as in OO7 and in
 * White and DeWitt 1994 section 5.2, where a cluster occupies a little less than one page) and the module
 * for the assembly hierarchy; the manual is a large object and gets {@code null}. Stores may ignore hints.
 *
 * <h2>Indexes</h2>
 *
 * Atomic part by id (unique) and by {@code buildDate} (duplicates, range scan, maintained by
 * {@link #updateBuildDate}), composite part by id, document by title and by id, base assembly by id, module by
 * id (design notes section 6 calls this the module-name index; the OO7 schema of section 6 gives a module
 * no name attribute, so the key is its id).
 *
 * <h2>Transactions, cold runs and counters</h2>
 *
 * OO7 code brackets every operation with {@link #begin()} and {@link #commit()}. {@link #makeCold()} is the
 * cold-run hook of White and DeWitt 1994 section 5.2 ("no data cached in memory at either the client or
 * server"); {@link #counters()} exposes cumulative store counters (page faults, pages read, log bytes, ...)
 * that the driver reports per operation as differences.
 */
public interface Oo7Store extends AutoCloseable {

    /** A short name for reports, e.g. {@code "heap"}. */
    String name();

    /**
     * Nanoseconds to read every page resident now from the store's volume with one {@code pread} each, into a
     * buffer (no checksum, no translation), or -1 when the system has no volume (the heap). Called right after
     * a cold operation, it is the I/O part of that operation, the same pages from the same OS page cache
     * state, so cold - hot - pread is the cost of fault handling (design notes section 8).
     */
    default long preadNanosOfResidentPages() {
        return -1;
    }

    // ----------------------------------------------------------------------------------------- factory

    /** Creates a module and registers it in the module index. */
    Module createModule(int id, String type, int buildDate, Object near);

    /** Creates a module's manual, a large object of {@code text.length()} characters. */
    Manual createManual(int id, String title, CharSequence text, Module mod, Object near);

    /** Creates a complex assembly; {@code superAssembly} is {@code null} for a design root. */
    ComplexAssembly createComplexAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near);

    /** Creates a base assembly and registers it in the base-assembly index. */
    BaseAssembly createBaseAssembly(
            int id, String type, int buildDate, Module module, ComplexAssembly superAssembly, Object near);

    /** Creates a composite part and registers it in the composite-part index. */
    CompositePart createCompositePart(int id, String type, int buildDate, Object near);

    /** Creates a document and registers it in the title and id indexes. */
    Document createDocument(int id, String title, CharSequence text, CompositePart part, Object near);

    /** Creates an atomic part and registers it in the id and build-date indexes. */
    AtomicPart createAtomicPart(
            int id, String type, int buildDate, int x, int y, int docId, CompositePart partOf, Object near);

    /** Creates a connection; the caller adds it to {@code from.to()} and {@code to.from()}. */
    Connection createConnection(String type, int length, AtomicPart from, AtomicPart to, Object near);

    // ---------------------------------------------------------------------------------------- deletion
    // The caller has already removed every reference to the object from other objects' relationships.

    void deleteConnection(Connection connection);

    /** Deletes an atomic part and removes it from the id and build-date indexes. */
    void deleteAtomicPart(AtomicPart part);

    /** Deletes a document and removes it from the title and id indexes. */
    void deleteDocument(Document document);

    /** Deletes a composite part and removes it from the composite-part index. */
    void deleteCompositePart(CompositePart part);

    // ----------------------------------------------------------------------------------------- indexes

    /** All modules in id order (read-only). */
    List<Module> modules();

    /** The module with this id, or {@code null}. */
    Module moduleById(int id);

    /** The atomic part with this id, or {@code null}. */
    AtomicPart atomicPartById(int id);

    /**
     * Calls {@code action} for every atomic part whose build date lies in {@code [lo, hi]}, in ascending
     * build-date order (ties in ascending id order), using the build-date index (OO7 Q2, Q3).
     */
    void scanAtomicPartsByBuildDate(int lo, int hi, Consumer<? super AtomicPart> action);

    /** Sets an atomic part's (indexed) build date and updates the build-date index (OO7 T3). */
    void updateBuildDate(AtomicPart part, int buildDate);

    /** Calls {@code action} for every atomic part in ascending id order (the extent scan of OO7 Q7). */
    void forEachAtomicPart(Consumer<? super AtomicPart> action);

    /** The composite part with this id, or {@code null}. */
    CompositePart compositePartById(int id);

    /** Calls {@code action} for every composite part in ascending id order. */
    void forEachCompositePart(Consumer<? super CompositePart> action);

    /** The document with this title, or {@code null}. */
    Document documentByTitle(String title);

    /** The document with this id, or {@code null}. */
    Document documentById(int id);

    /** The base assembly with this id, or {@code null}. */
    BaseAssembly baseAssemblyById(int id);

    // ------------------------------------------------------------------------------------ transactions

    /** Starts a transaction; OO7 code runs every operation and every build step inside one. */
    void begin();

    /** Commits the current transaction (a persistent store makes its updates durable). */
    void commit();

    /** Aborts the current transaction, undoing its updates; a store that cannot undo throws. */
    void abort();

    // ---------------------------------------------------------------------------- benchmark protocol

    /** Whether {@link #makeCold()} can actually empty the store's and the operating system's caches. */
    boolean supportsCold();

    /** Drops every cached page so that the next operation runs cold; outside any transaction. */
    void makeCold();

    /**
     * A snapshot of cumulative counters (e.g. {@code faults}, {@code pagesRead}, {@code logBytes}), in a
     * stable order; empty when the store counts nothing. The driver reports per-operation differences.
     */
    Map<String, Long> counters();

    /** Releases the store's resources; no exception beyond unchecked ones. */
    @Override
    void close();
}
