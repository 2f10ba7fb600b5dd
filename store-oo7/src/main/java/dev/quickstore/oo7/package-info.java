/**
 * The OO7 benchmark (Carey, DeWitt and Naughton, 1993) as QuickStore was judged by it (White and DeWitt
 * 1994, sections 4-5): schema, database builder, traversals T1-T10, queries Q1-Q8 and structural
 * modifications SM1/SM2, run side by side on the mapped store and on plain Java heap objects.
 *
 * <p>Not built yet: this module is the home of the OO7 issue; see docs/architecture.md.
 */
package dev.quickstore.oo7;
