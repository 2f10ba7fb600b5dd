/**
 * OO1, Cattell's engineering database benchmark (Cattell and Skeen 1992), as Kakkad and Wilson ran it to
 * compare address-translation granularities in Texas (texas-kakkad-wilson-1999, section 6): a database of parts,
 * each with three connections to other parts (90 % of them to a part among the closest 1 % by id), and three
 * operations - lookup (1,000 random parts by id), traversal (depth-first over the connections, seven levels deep
 * from a random part: 3,280 visits with duplicates) and insert (100 parts with their connections, committed).
 * Texas runs its traversals in sets of 45: the first cold, 34 warm, the last 10 hot, each from a new random root,
 * and plots the CPU time of each (its Figures 3 and 4, large and small database).
 *
 * <p>Here the same database and operations run on the Java heap ({@link HeapOo1Database}) and on the mapped store
 * ({@link MappedOo1Database}: QuickStore's coarse-grained translation by page faults, where stored pointers are
 * virtual addresses and nothing is swizzled unless pages are relocated), through one interface ({@link
 * Oo1Database}) so that one copy of the operations' code runs on both ({@link Oo1Operations}); {@link
 * Oo1Benchmark} runs the traversal set and the other operations and reports per-traversal CPU time and pages read.
 * Texas mode ({@code Relocation.TEXAS}, docs/texas-mode.md) runs the same code with pointers swizzled at fault
 * time: with the B+tree index of ids (values converted on use) it is the paper's "smart-index" configuration,
 * with {@link MappedOo1Database.IdIndex#PART_ARRAY} (a persistent array of raw part references, {@link
 * PartArrayIndex}) its "all-raw" one; "all-smart" (every object reference converted on use) would need a
 * reference kind in the generated classes and is not built.
 */
package dev.quickstore.lab.oo1;
