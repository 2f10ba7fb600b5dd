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
 * @param loadNs load phase (eager: read and swizzle everything; lazy: find the root)
 * @param firstNs the first traversal (lazy: with loading and swizzling; all: with the updates)
 * @param restNs the other traversals (visits only: the per-visit cost V plus the work w)
 * @param saveNs unswizzling and writing back
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
        long pagesRead,
        long pagesWritten,
        String results,
        int passes) {
    public long totalNs() {
        return loadNs + firstNs + restNs + saveNs;
    }

    /** Nanoseconds per visit of the traversals after the first (NaN with a single traversal). */
    public double restPerVisitNs() {
        long v = visits - visits / passes;
        return v <= 0 ? Double.NaN : (double) restNs / v;
    }

    /** This measurement with the phase times replaced (the fastest of repetitions). */
    Measurement withTimes(long load, long first, long rest, long save) {
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
                pagesRead,
                pagesWritten,
                results,
                passes);
    }
}
