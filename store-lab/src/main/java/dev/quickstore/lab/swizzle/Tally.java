package dev.quickstore.lab.swizzle;

/**
 * What a Moss session did, counted as it ran (never assumed from the shape): the collection variables n, p, i, b of
 * Moss's Table 2 summed over the objects the scheme brought into use (swizzled, copied or, without swizzling, visited
 * in the first traversal), the session variables' counts (visits, objects modified), and the results of the work,
 * which must agree across schemes and with the heap model.
 */
public final class Tally {
    /** Objects brought into use (Moss's n). */
    public long objects;
    /** Their slots (n times Moss's p). */
    public long slots;
    /** Their initialized slots (n times Moss's i). */
    public long initialized;
    /** Their user bytes, slots included, headers excluded (n times Moss's b). */
    public long userBytes;
    /** Object visits (n times Moss's v). */
    public long visits;
    /** Objects modified (n times Moss's u). */
    public long updated;
    /** Null slots read by {@link Workload.Work#READ_SLOTS}. */
    public long nullSlots;
    /** Sum of the bytes or integers read. */
    public long sum;
    /** Sum of the visited objects' node numbers (the same objects visited, in any order). */
    public long nodeSum;

    public Tally() {}

    void object(int slots, int initialized, int bytes) {
        this.objects++;
        this.slots += slots;
        this.initialized += initialized;
        this.userBytes += (long) slots * TreeShape.SLOT_BYTES + bytes;
    }

    /** The results that every scheme must compute alike: visits, updates, null slots, sums. */
    public String results() {
        return "visits " + visits + ", updated " + updated + ", null slots " + nullSlots + ", sum " + sum
                + ", node sum " + nodeSum;
    }

    /** The collection counts: n, and the totals of p, i and b. */
    public String counts() {
        return "n " + objects + ", slots " + slots + ", initialized " + initialized + ", bytes " + userBytes;
    }
}
