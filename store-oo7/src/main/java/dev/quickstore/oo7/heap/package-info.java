/**
 * The transient baseline: an {@link dev.quickstore.oo7.Oo7Store} of plain Java-heap objects, against which
 * hot traversals through the mapped store are measured (design notes section 8).
 */
package dev.quickstore.oo7.heap;
