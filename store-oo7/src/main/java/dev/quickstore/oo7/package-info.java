/**
 * The OO7 benchmark (Carey, DeWitt and Naughton, 1993) as QuickStore was judged by it (White and DeWitt
 * 1994, sections 4-5): schema, database builder, traversals T1-T10, queries Q1-Q8 and structural
 * modifications SM1/SM2, run side by side on the mapped store and on plain Java heap objects.
 *
 * <p>The contract a store must meet is {@link dev.quickstore.oo7.Oo7Store}; the schema is in {@code
 * dev.quickstore.oo7.schema}, the Java-heap baseline in {@code dev.quickstore.oo7.heap}. {@link
 * dev.quickstore.oo7.Oo7Builder} builds a database deterministically from a seed, {@link
 * dev.quickstore.oo7.Oo7Operations} runs the operations and {@link dev.quickstore.oo7.Oo7Digest} fingerprints
 * a database so that two stores can be shown to hold the same one.
 */
package dev.quickstore.oo7;
