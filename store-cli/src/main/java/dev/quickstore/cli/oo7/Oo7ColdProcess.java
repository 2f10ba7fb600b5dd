package dev.quickstore.cli.oo7;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.cli.ExitCodes;
import dev.quickstore.cli.Json;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.Oo7Result;
import dev.quickstore.oo7.Oo7Runner;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.mapped.ColdRun;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import dev.quickstore.peers.Peers;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The fresh-process cold protocol of {@code qs oo7 run --cold process}: White and DeWitt 1994 section 5.2
 * measure cold times "when no data was cached in memory at either the client or server". Closing and reopening
 * the store inside the measuring JVM (the in-process mode) empties the store's arena and buffer pool, but the
 * JVM keeps its JIT-compiled code, its class metadata and whatever else it cached; here every cold operation
 * runs in a JVM started for it on the built store (the CLI re-executes itself with the hidden {@code qs oo7
 * cold-op} command), so the operation pays for class loading, interpretation and the first faults of a new
 * process, as an application started cold would.
 *
 * <p>Per run the parent, with the store closed, syncs and drops the OS page cache when asked to and allowed
 * ({@code --drop-caches}, root, {@code /proc/sys/vm/drop_caches} writable) and records whether it did: when it
 * did not, the volume's pages come from the page cache and the times are "cold JVM, warm OS". The child opens
 * the store (recovery and the catalog are not timed), times the operation and its commit exactly as the
 * in-process driver does ({@link Oo7Runner#measureOnce}) and prints one JSON line on stdout; its stderr
 * passes through. Operations run in the order of the in-process rounds, so the database evolves the same way
 * (T2 swaps twice, SM1 then SM2); SM1's inserted ids travel to the SM2 process ({@link
 * Oo7Operations#pendingInserts()}). The random operations (T7, Q1, Q4, SM1) of run {@code r}, operation
 * {@code i} draw from a generator seeded with {@code seed + 1000 * r + i}, so their counts vary between runs
 * (marked as such in the table). Each child has a watchdog: it is killed after {@link #TIMEOUT_MINUTES}.
 *
 * <p>Peers (Eclipse Store, lmdb, MVStore: {@link dev.quickstore.peers.Peers}) run the same way: the child opens
 * the peer over the directory the parent built (opening, which loads what the peer loads at start, is not
 * timed), with the system's JDK 25 flags ({@code SystemUnderTest.jvmFlags()}).
 */
final class Oo7ColdProcess {
    static final long TIMEOUT_MINUTES = 30;

    /**
     * The cold results of one system.
     *
     * @param results one cold {@link Oo7Result} per operation, with every run's times
     * @param runs child processes run
     * @param dropped runs before which the OS page cache was dropped
     */
    record Outcome(List<Oo7Result> results, int runs, int dropped) {
        String pageCacheText() {
            if (dropped == runs) {
                return "OS page cache dropped before every run";
            }
            if (dropped == 0) {
                return "page cache not dropped (the volume's pages may come from the OS page cache;"
                        + " --drop-caches as root drops it)";
            }
            return "OS page cache dropped before " + dropped + " of " + runs + " runs";
        }
    }

    private final SystemUnderTest system;
    private final Path dir;
    private final Oo7Config config;
    private final long seed;
    private final Oo7Operations.Parameters params;
    private final Map<String, String> storeOptions;
    private final boolean dropCaches;
    private final PrintWriter err;

    Oo7ColdProcess(
            SystemUnderTest system,
            Path dir,
            Oo7Config config,
            long seed,
            Oo7Operations.Parameters params,
            Map<String, String> storeOptions,
            boolean dropCaches,
            PrintWriter err) {
        this.system = system;
        this.dir = dir;
        this.config = config;
        this.seed = seed;
        this.params = params;
        this.storeOptions = storeOptions;
        this.dropCaches = dropCaches;
        this.err = err;
    }

    /** Runs {@code reps} rounds of {@code operations}, each operation in its own JVM; the store must be closed. */
    Outcome run(List<Oo7Operation> operations, int reps) throws IOException, InterruptedException {
        int n = operations.size();
        long[][] opNanos = new long[n][reps];
        long[][] commitNanos = new long[n][reps];
        int[][] counts = new int[n][reps];
        List<List<Map<String, Long>>> counters = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            counters.add(new ArrayList<>());
        }
        List<Integer> pending = List.of();
        int dropped = 0;
        for (int r = 0; r < reps; r++) {
            for (int i = 0; i < n; i++) {
                Oo7Operation op = operations.get(i);
                boolean drop = dropCaches && ColdRun.dropOsCache();
                dropped += drop ? 1 : 0;
                JsonNode result = child(op, seed + 1000L * r + i, pending);
                counts[i][r] = result.get("count").asInt();
                opNanos[i][r] = result.get("opNs").asLong();
                commitNanos[i][r] = result.get("commitNs").asLong();
                Map<String, Long> c = new LinkedHashMap<>();
                result.get("counters")
                        .properties()
                        .forEach(e -> c.put(e.getKey(), e.getValue().asLong()));
                counters.get(i).add(c);
                List<Integer> next = new ArrayList<>();
                result.get("pending").forEach(v -> next.add(v.asInt()));
                pending = next;
                err.printf(
                        Locale.ROOT,
                        "cold %s %s run %d/%d (fresh JVM%s): %d in %.3f ms, commit %.3f ms%n",
                        system.label(),
                        op,
                        r + 1,
                        reps,
                        drop ? ", page cache dropped" : "",
                        counts[i][r],
                        opNanos[i][r] / 1e6,
                        commitNanos[i][r] / 1e6);
                err.flush();
            }
        }
        List<Oo7Result> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int[] c = counts[i];
            results.add(new Oo7Result(
                    operations.get(i),
                    Oo7Result.Phase.COLD,
                    c[reps - 1],
                    Arrays.stream(c).allMatch(v -> v == c[0]),
                    opNanos[i],
                    commitNanos[i],
                    medians(counters.get(i))));
        }
        return new Outcome(results, n * reps, dropped);
    }

    private static Map<String, Long> medians(List<Map<String, Long>> runs) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String k : runs.get(0).keySet()) {
            long[] v =
                    runs.stream().mapToLong(r -> r.getOrDefault(k, 0L)).sorted().toArray();
            int h = v.length / 2;
            m.put(k, v.length % 2 == 1 ? v[h] : (v[h - 1] + v[h]) / 2);
        }
        return m;
    }

    /** The command line that re-executes this CLI in a new JVM: same java, class path and relevant options. */
    List<String> command(Oo7Operation op, long opSeed, List<Integer> pending) {
        // the child reads them as StoreOptions.defaults() does: system properties set at its launch
        List<String> properties = new ArrayList<>(system.jvmFlags());
        storeOptions.forEach((k, v) -> properties.add("-D" + k + "=" + v));
        List<String> cmd = new ArrayList<>(QsJvm.command(
                List.of("-Xmx", "-Xms", "--add-opens", "--add-exports", "--sun-misc-unsafe-memory-access"),
                properties,
                List.of()));
        cmd.addAll(List.of(
                "oo7",
                "cold-op",
                "--system",
                system.label(),
                "--size",
                config.name(),
                "--op-seed",
                Long.toString(opSeed),
                "--op",
                op.name(),
                "--t2",
                params.t2Update().name().toLowerCase(Locale.ROOT),
                "--q4",
                Integer.toString(params.q4Lookups()),
                "--sm1",
                Integer.toString(params.sm1Size())));
        if (!pending.isEmpty()) {
            cmd.add("--pending");
            cmd.add(String.join(",", pending.stream().map(String::valueOf).toList()));
        }
        cmd.add(dir.toString());
        return cmd;
    }

    private JsonNode child(Oo7Operation op, long opSeed, List<Integer> pending)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command(op, opSeed, pending))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        p.getOutputStream().close();
        byte[] stdout;
        try (InputStream in = p.getInputStream()) {
            // the child prints one short line at its end; a hung child is killed by the watchdog below
            Thread watchdog = Thread.ofVirtual().start(() -> {
                try {
                    if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                }
            });
            stdout = in.readAllBytes();
            watchdog.interrupt();
        }
        int code = p.waitFor();
        String text = new String(stdout, StandardCharsets.UTF_8).strip();
        if (code != 0) {
            throw new IllegalStateException("cold " + system.label() + " " + op + " in a fresh JVM failed with exit "
                    + code + " (stdout: '" + text + "')");
        }
        String last = text.lines().reduce((a, b) -> b).orElse("");
        try {
            return Json.MAPPER.readTree(last);
        } catch (IOException e) {
            throw new IllegalStateException(
                    "cold " + system.label() + " " + op + ": the child printed no result line: '" + text + "'", e);
        }
    }

    /** {@code qs oo7 cold-op}: the child of {@link Oo7ColdProcess} (hidden; not for direct use). */
    @Command(
            name = "cold-op",
            hidden = true,
            mixinStandardHelpOptions = true,
            description = "Open the OO7 store in DIR, run one operation cold, print its measurement as one JSON line.")
    static final class ColdOp implements Callable<Integer> {
        @Option(names = "--system", defaultValue = "qs", converter = SystemConverter.class)
        SystemUnderTest system;

        @Option(names = "--size", required = true)
        String size;

        @Option(names = "--op-seed", required = true)
        long opSeed;

        @Option(names = "--op", required = true)
        String op;

        @Option(names = "--t2", defaultValue = "swap")
        String t2;

        @Option(names = "--q4", defaultValue = "10")
        int q4;

        @Option(names = "--sm1", defaultValue = "5")
        int sm1;

        @Option(names = "--pending", split = ",")
        List<Integer> pending;

        @picocli.CommandLine.Parameters(index = "0", paramLabel = "DIR")
        Path dir;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            if (!system.mapped() && !system.peer()) {
                throw new IllegalArgumentException("--system " + system.label() + " has no cold runs");
            }
            Oo7Operation operation = Oo7Command.parse(Oo7Operation.class, "--op", op);
            Oo7Operations.Parameters params =
                    new Oo7Operations.Parameters(Oo7Command.parse(Oo7Operations.T2Update.class, "--t2", t2), q4, sm1);
            Oo7Result r;
            List<Integer> after;
            try (Oo7Store store = system.peer()
                    ? Peers.open(system.label(), dir)
                    : MappedOo7Store.open(dir, false, system.storeOptions(Map.of()), system.padding())) {
                Oo7Operations ops = new Oo7Operations(store, Oo7Config.named(size), opSeed, params);
                if (pending != null) {
                    ops.pendingInserts(pending);
                }
                r = Oo7Runner.measureOnce(ops, operation);
                after = ops.pendingInserts();
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            Map<String, Object> line = new LinkedHashMap<>();
            line.put("count", r.count());
            line.put("opNs", r.opNanos()[0]);
            line.put("commitNs", r.commitNanos()[0]);
            line.put("counters", r.counters());
            line.put("pending", after);
            PrintWriter out = spec.commandLine().getOut();
            out.println(Json.MAPPER
                    .writer()
                    .without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(line));
            out.flush();
            return ExitCodes.OK;
        }
    }
}
