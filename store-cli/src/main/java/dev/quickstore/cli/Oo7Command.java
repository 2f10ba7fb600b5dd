package dev.quickstore.cli;

import dev.quickstore.oo7.Oo7Benchmark;
import dev.quickstore.oo7.Oo7Builder;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Operations;
import dev.quickstore.oo7.heap.HeapOo7Store;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs oo7 ...}: the OO7 benchmark driver (Carey, DeWitt, Naughton 1993; QuickStore paper sections 4-5). */
@Command(
        name = "oo7",
        mixinStandardHelpOptions = true,
        description =
                "The OO7 benchmark: build a database and run its traversals, queries and structural modifications.",
        subcommands = {Oo7Command.Run.class})
final class Oo7Command implements Runnable {
    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    static <E extends Enum<E>> E parse(Class<E> type, String option, String value) {
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": unknown value '" + value + "'; expected one of "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    /** The systems OO7 can run on; the mapped store joins when the persistent object API lands. */
    enum SystemUnderTest {
        /** The OO7 model as plain Java heap objects: the transient baseline. */
        heap
    }

    @Command(
            name = "run",
            mixinStandardHelpOptions = true,
            description = {
                "Build an OO7 database and run the benchmark operations; print a table of medians and spread.",
                "Hot protocol: warm-up rounds, then measured rounds, in one process."
            },
            footer = {
                "",
                "Examples:",
                "  qs oo7 run                                   small database, default operations",
                "  qs oo7 run --size medium --reps 3",
                "  qs oo7 run --ops T1,T6,Q5,T8 --csv oo7.csv --json oo7.json"
            })
    static final class Run implements Callable<Integer> {
        @Option(
                names = "--system",
                defaultValue = "heap",
                description = "system to measure: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE})")
        SystemUnderTest system;

        @Option(
                names = "--size",
                defaultValue = "small",
                description = "small, medium or large (default: ${DEFAULT-VALUE})")
        String size;

        @Option(
                names = "--seed",
                defaultValue = "42",
                description = "random seed of the builder (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--reps", defaultValue = "5", description = "measured rounds (default: ${DEFAULT-VALUE})")
        int reps;

        @Option(names = "--warmup", defaultValue = "3", description = "warm-up rounds (default: ${DEFAULT-VALUE})")
        int warmup;

        @Option(
                names = "--ops",
                split = ",",
                paramLabel = "OP",
                description = "operations to run, e.g. T1,T6,Q5 (default: all that apply to the size)")
        List<String> ops;

        @Option(
                names = "--t2",
                defaultValue = "swap",
                description = "T2 update: swap (OO7) or increment (QuickStore) x and y (default: ${DEFAULT-VALUE})")
        String t2;

        @Option(names = "--q4", defaultValue = "10", description = "Q4 lookups (default: ${DEFAULT-VALUE})")
        int q4;

        @Option(
                names = "--sm1",
                defaultValue = "5",
                description = "SM1 composite parts inserted (default: ${DEFAULT-VALUE})")
        int sm1;

        @Option(names = "--csv", paramLabel = "FILE", description = "also write the results as CSV to FILE")
        Path csv;

        @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON to FILE")
        Path json;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            Oo7Config config = Oo7Config.named(size);
            Oo7Operations.Parameters params =
                    new Oo7Operations.Parameters(parse(Oo7Operations.T2Update.class, "--t2", t2), q4, sm1);
            List<Oo7Operation> operations = ops == null
                    ? Oo7Benchmark.defaultOperations(config)
                    : ops.stream()
                            .map(s -> parse(Oo7Operation.class, "--ops", s))
                            .toList();
            Oo7Benchmark.Options options = new Oo7Benchmark.Options(operations, reps, warmup);
            try (HeapOo7Store store = new HeapOo7Store()) {
                long t0 = System.nanoTime();
                new Oo7Builder(config, seed).build(store, (phase, done, total) -> {
                    if (done == total || done % Math.max(1, total / 10) == 0) {
                        err.printf(
                                Locale.ROOT,
                                "\rbuilding OO7 %s on %s: %s %d/%d   ",
                                config.name(),
                                system,
                                phase,
                                done,
                                total);
                        err.flush();
                    }
                });
                err.println();
                out.printf(
                        Locale.ROOT,
                        "OO7 %s on %s: built in %.1f ms (seed %d, %d warm-up + %d measured rounds)%n",
                        config.name(),
                        store.name(),
                        (System.nanoTime() - t0) / 1e6,
                        seed,
                        warmup,
                        reps);
                List<Oo7Benchmark.Result> results =
                        Oo7Benchmark.run(new Oo7Operations(store, config, seed, params), options);
                out.print(Oo7Benchmark.table(results));
                if (csv != null) {
                    Files.writeString(csv, Oo7Benchmark.csv(store.name(), config, results), StandardCharsets.UTF_8);
                }
                if (json != null) {
                    Files.writeString(
                            json, Oo7Benchmark.json(store.name(), config, seed, results), StandardCharsets.UTF_8);
                }
            }
            return ExitCodes.OK;
        }
    }
}
