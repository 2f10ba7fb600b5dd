package dev.quickstore.oo7;

import dev.quickstore.oo7.Oo7Report.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fault-handling tables of the OO7 report ({@link Oo7Report#sections}): the write faults of the updating
 * operations in the hot phase with their object work against the heap (issue #13: the write-fault share on its own
 * line), and the cold fault-handling overhead against the goal of design notes section 8. Times in milliseconds.
 */
public final class Oo7FaultTables {
    private Oo7FaultTables() {}

    /** The baseline system {@link #writeFaults} compares the object work with. */
    static final String HEAP = "heap";

    /**
     * The write faults of the updating operations in the hot phase, on their own line (issue #13: every operation's
     * object work against the heap, with the write-fault share of T2A-C apart): per mapped system and updating
     * operation that took write faults or made frames writable ahead, the operation's median time, its write
     * faults and the frames made writable ahead with them (ahead), the time inside the C fault handler (handler, ms:
     * the pre-images, the {@code mprotect}s and the write-ahead; the medians of the runs' counters), its share of the
     * operation, the object work (object = op - handler: the signals' delivery and return stay in it) and, when the
     * run has the {@value #HEAP} baseline, its time and the object work's ratio to it. Empty when no hot operation
     * took a write fault.
     */
    public static Table writeFaults(Map<String, List<Oo7Result>> bySystem) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "op", "system", "op ms", "writeFaults", "ahead", "handler", "of op", "object ms", "heap ms", "object/heap"
        });
        Map<Oo7Operation, Oo7Result> heap = new LinkedHashMap<>();
        bySystem.getOrDefault(HEAP, List.of()).stream()
                .filter(r -> r.phase() == Oo7Result.Phase.HOT)
                .forEach(r -> heap.put(r.operation(), r));
        bySystem.forEach((name, results) -> {
            for (Oo7Result r : results) {
                long faults = r.counters().getOrDefault("writeFaults", 0L);
                long ahead = r.counters().getOrDefault("writeAheadFrames", 0L);
                if (r.phase() != Oo7Result.Phase.HOT || !r.operation().updates() || faults + ahead == 0) {
                    continue;
                }
                double op = r.medianOpNanos() / 1e6;
                double handler = r.counters().getOrDefault("handlerNanos", 0L) / 1e6;
                double object = op - handler;
                Oo7Result h = heap.get(r.operation());
                double heapMs = h == null ? 0 : h.medianOpNanos() / 1e6;
                rows.add(new String[] {
                    r.operation().name(),
                    name,
                    String.format(Locale.ROOT, "%.3f", op),
                    Long.toString(faults),
                    Long.toString(ahead),
                    String.format(Locale.ROOT, "%.3f", handler),
                    op > 0 ? String.format(Locale.ROOT, "%.0f%%", 100 * handler / op) : "-",
                    String.format(Locale.ROOT, "%.3f", object),
                    h == null ? "-" : String.format(Locale.ROOT, "%.3f", heapMs),
                    h == null || heapMs <= 0 ? "-" : String.format(Locale.ROOT, "%.2fx", object / heapMs)
                });
            }
        });
        return new Table(rows, List.of());
    }

    /** The cold-overhead goal of design notes section 8: overhead at most this share of the cold time. */
    public static final double COLD_OVERHEAD_GOAL = 0.30;

    /**
     * The cold fault-handling overhead per mapped system and operation that ran cold and hot (design notes
     * section 8: "cold T1: fault handling overhead (cold - hot - time to read the same pages with pread) <= 30 %
     * of cold"): cold, hot and pread medians in ms, overhead = cold - hot - pread, and its share of cold. Empty
     * when no cold result carries {@link Oo7Runner#PREAD_US}. Where the overhead goes (docs/results.md, "Cold path
     * (issue 13)"): the faults taken (readFaults) and the frames read ahead with them (ahead), the operation
     * thread's minor page faults (minflt: fresh arena memory allocated under the reads, the application view's
     * first touch of a frame loaded by mprotect; none for a frame mapped by a minor-fault load, docs/native.md "Cold
     * loads by minor faults"), and the time inside the C fault handler (handler, in ms: pread, allocation, checksum,
     * mprotect or the minor fault's mapping; cold - hot - handler is the signals' delivery and return plus the Java
     * side), and the operation
     * thread's CPU time from begin to the end of the commit (cpu ms: user and kernel, without the time the thread
     * waited for a CPU, so it stays comparable on a loaded machine). The goal's verdict is the table's note; no
     * data rows if none applies.
     */
    public static Table coldOverhead(Map<String, List<Oo7Result>> bySystem) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {
            "op",
            "system",
            "cold ms",
            "hot ms",
            "pread ms",
            "readFaults",
            "ahead",
            "minflt",
            "handler",
            "cpu ms",
            "overhead ms",
            "of cold",
            "goal"
        });
        int[] verdicts = new int[2]; // met, not met
        bySystem.forEach((name, results) -> {
            Map<Oo7Operation, Oo7Result> hot = new LinkedHashMap<>();
            results.stream().filter(r -> r.phase() == Oo7Result.Phase.HOT).forEach(r -> hot.put(r.operation(), r));
            for (Oo7Result cold : results) {
                Long pread = cold.counters().get(Oo7Runner.PREAD_US);
                Oo7Result h = hot.get(cold.operation());
                if (cold.phase() != Oo7Result.Phase.COLD || pread == null || h == null) {
                    continue;
                }
                double c = cold.medianOpNanos() / 1e6;
                double hm = h.medianOpNanos() / 1e6;
                double p = pread / 1e3;
                double over = c - hm - p;
                rows.add(new String[] {
                    cold.operation().name(),
                    name,
                    String.format(Locale.ROOT, "%.3f", c),
                    String.format(Locale.ROOT, "%.3f", hm),
                    String.format(Locale.ROOT, "%.3f", p),
                    Long.toString(cold.counters().getOrDefault("readFaults", 0L)),
                    Long.toString(cold.counters().getOrDefault("readAheadFrames", 0L)),
                    Long.toString(cold.counters().getOrDefault("minorFaults", 0L)),
                    String.format(Locale.ROOT, "%.3f", cold.counters().getOrDefault("handlerNanos", 0L) / 1e6),
                    String.format(Locale.ROOT, "%.3f", cold.counters().getOrDefault("threadCpuNanos", 0L) / 1e6),
                    String.format(Locale.ROOT, "%.3f", over),
                    c > 0 ? String.format(Locale.ROOT, "%.0f%%", 100 * over / c) : "-",
                    c > 0 && over <= COLD_OVERHEAD_GOAL * c ? "met" : "not met"
                });
                verdicts[c > 0 && over <= COLD_OVERHEAD_GOAL * c ? 0 : 1]++;
            }
        });
        if (rows.size() == 1) {
            return new Table(rows, List.of());
        }
        return new Table(
                rows,
                List.of(String.format(
                        Locale.ROOT,
                        "goal: overhead <= %.0f%% of cold - %s (met by %d of %d operations)",
                        100 * COLD_OVERHEAD_GOAL,
                        verdicts[1] == 0 ? "MET" : "NOT MET",
                        verdicts[0],
                        verdicts[0] + verdicts[1])));
    }
}
