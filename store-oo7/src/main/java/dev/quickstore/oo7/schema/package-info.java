/**
 * The OO7 schema (Carey, DeWitt and Naughton, "The OO7 Benchmark", SIGMOD 1993, section 3; White and
 * DeWitt 1994, section 4.1; design notes section 6) as plain Java interfaces.
 *
 * <p>The interfaces are deliberately free of any store machinery so that one body of OO7 code (builder,
 * traversals, queries, structural modifications in {@code dev.quickstore.oo7}) runs unchanged over the
 * transient Java-heap implementation and over the mapped persistent store, whose implementations will be
 * generated later.
 *
 * <h2>Conventions every implementation must follow</h2>
 *
 * <ul>
 *   <li>Accessors are record-style: {@code int x()} reads, {@code void x(int)} writes. Only attributes that
 *       OO7 code changes after creation have writers; identity attributes ({@code id}, {@code type}, titles)
 *       are fixed at creation by the {@link dev.quickstore.oo7.Oo7Store} factory methods.
 *   <li>Indexed attributes (an atomic part's {@code buildDate}) have no writer here: they are changed through
 *       {@link dev.quickstore.oo7.Oo7Store#updateBuildDate} so the store can keep its index consistent.
 *   <li>Fixed-length character fields ({@code type}: {@value DesignObj#TYPE_LENGTH} chars, document title:
 *       {@value Document#TITLE_LENGTH} chars) are exposed as {@link String}s no longer than that; the
 *       persistent layout stores {@code char[10]} / {@code char[40]}.
 *   <li>Long texts (document text, manual text) are exposed as {@link CharSequence} so that a mapped store
 *       can hand out a view over its pages without copying (T4 and T8 scan them character by character).
 *   <li>Relationships are live, mutable {@link java.util.List}s. Bags allow duplicates and set semantics is
 *       kept by the code that adds elements (the builder never adds an atomic part twice). Order is insertion
 *       order and is part of the database's deterministic shape.
 *   <li>Two references to the same stored object must be {@code equals} (with a matching {@code hashCode})
 *       even when a store hands out a fresh view object per navigation; OO7 code never compares with
 *       {@code ==} and keys transient sets by {@code id}.
 * </ul>
 */
package dev.quickstore.oo7.schema;
