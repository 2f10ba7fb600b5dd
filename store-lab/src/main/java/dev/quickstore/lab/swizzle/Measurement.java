package dev.quickstore.lab.swizzle;

/**
 * One session's measurement: the counts of Moss's variables as they were measured (n, and the totals of p, i, b;
 * visits; objects updated), the phases' elapsed times in nanoseconds, and the page traffic.
 *
 * @param strategy the scheme, or null for the heap model
 * @param objects Moss's n
 * @param slots n times p
 * @param initialized n times i
 * @param userBytes n times b
 * @param visits n times v
 * @param updated n times u
 * @param loadNs load phase (eager: read and swizzle everything; lazy: find the root); in a create-work-save
 *     session the create phase; for the heap model, building it (Moss's NPC creation)
 * @param firstNs the first traversal (lazy: with loading and swizzling; all: with the updates)
 * @param restNs the other traversals (visits only: the per-visit cost V plus the work w)
 * @param saveNs the save phase: preparing and writing back
 * @param prepareNs the preparing part of the save phase (Moss's preparing: unswizzling, copying back, or making store
 *     objects of new ones); the rest of {@code saveNs} is writing
 * @param pagesRead pages read from the collection file
 * @param pagesWritten pages written back
 * @param results the results the work computed ({@link Tally#results})
 * @param passes traversals (each makes the same visits)
 */
public record Measurement(
        Strategy strategy,
        long objects,
        long slots,
        long initialized,
        long userBytes,
        long visits,
        long updated,
        long loadNs,
        long firstNs,
        long restNs,
        long saveNs,
        long prepareNs,
        long pagesRead,
        long pagesWritten,
        String results,
        int passes) {
    public long totalNs() {
        return loadNs + firstNs + restNs + saveNs;
    }

    /** The writing part of the save phase. */
    public long writeNs() {
        return saveNs - prepareNs;
    }

    /** Nanoseconds per visit of the traversals after the first (NaN with a single traversal). */
    public double restPerVisitNs() {
        long v = visits - visits / passes;
        return v <= 0 ? Double.NaN : (double) restNs / v;
    }

    /** This measurement with the phase times replaced (the fastest of repetitions). */
    Measurement withTimes(long load, long first, long rest, long save, long prepare) {
        return new Measurement(
                strategy,
                objects,
                slots,
                initialized,
                userBytes,
                visits,
                updated,
                load,
                first,
                rest,
                save,
                prepare,
                pagesRead,
                pagesWritten,
                results,
                passes);
    }
}
