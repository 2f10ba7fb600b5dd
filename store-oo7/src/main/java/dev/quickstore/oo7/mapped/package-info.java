/**
 * The OO7 database on the mapped persistent store: {@link dev.quickstore.oo7.mapped.MappedOo7Store}, whose
 * objects are the processor-generated implementations of the {@code dev.quickstore.oo7.schema} interfaces.
 */
package dev.quickstore.oo7.mapped;
