package dev.quickstore.cli.oo7;

import dev.quickstore.cli.ExitCodes;
import dev.quickstore.core.remote.PageLockException;
import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.ServerStatus;
import dev.quickstore.core.remote.TransactionConflictException;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.Oo7MultiUser;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code qs oo7 multiuser}: the OO7 multi-user workload ({@link Oo7MultiUser}) with N client processes against a
 * page server, for each concurrency control of the server: throughput, commit latency percentiles, abort rate
 * and callbacks per commit (QuickStore on ESM: White and DeWitt 1994 section 1; the OO7 multi-user variant).
 */
@Command(
        name = "multiuser",
        mixinStandardHelpOptions = true,
        header = "OO7 multi-user: client processes against a page server.",
        description = {
            "Builds an OO7 database with one module per client plus a shared one (into a temporary store), serves it"
                    + " with qs serve in a child process for each --cc, and runs every --clients count: that many"
                    + " client processes (a fresh JVM each, connected with PersistentStore.connect), started"
                    + " together, each running transactions for --seconds: a traversal of a random base assembly"
                    + " of its private module, or of the shared one (--shared-percent); reads (T1, T6) or updates"
                    + " (T2A, T2B; --update-percent). A transaction that conflicts (optimistic) or is refused a"
                    + " lock (deadlock or lock timeout) is aborted and retried.",
            "Prints one row per run: committed transactions per second (all clients), aborts and the abort rate"
                    + " (aborts per attempt), commit latency percentiles (the commit call: ship, validate or"
                    + " release, force the server's log), pages invalidated per commit (callbacks; optimistic"
                    + " only) and the server's deadlocks and lock timeouts."
        },
        footer = {
            "",
            "Examples:",
            "  qs oo7 multiuser                                  1,2,4,8 clients, both concurrency controls, 10 s each",
            "  qs oo7 multiuser --clients 1,4 --cc optimistic --seconds 5 --shared-percent 50"
        })
public final class Oo7MultiUserCommand implements Callable<Integer> {
    @Option(
            names = "--clients",
            split = ",",
            paramLabel = "N",
            defaultValue = "1,2,4,8",
            description = "client process counts, one run each (default: ${DEFAULT-VALUE})")
    List<Integer> clients;

    @Option(
            names = "--cc",
            split = ",",
            paramLabel = "CC",
            defaultValue = "optimistic,locking",
            description = "the server's concurrency controls to measure (default: ${DEFAULT-VALUE})")
    List<String> ccs;

    @Option(
            names = "--seconds",
            defaultValue = "10",
            description = "measured seconds per run (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = "small or medium modules (default: ${DEFAULT-VALUE})")
    String size;

    @Option(
            names = "--shared-percent",
            defaultValue = "20",
            description = "transactions on the shared module (default: ${DEFAULT-VALUE})")
    int sharedPercent;

    @Option(
            names = "--update-percent",
            defaultValue = "50",
            description = "update transactions, T2A or T2B (default: ${DEFAULT-VALUE})")
    int updatePercent;

    @Option(names = "--seed", defaultValue = "42", description = "random seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the rows as JSON to FILE")
    Path json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** One run's figures. */
    record Row(
            String cc,
            int clients,
            double seconds,
            long commits,
            long aborts,
            long p50Micros,
            long p90Micros,
            long p99Micros,
            double callbacksPerCommit,
            long deadlocks,
            long lockTimeouts) {
        double throughput() {
            return commits / seconds;
        }

        double abortRate() {
            return commits + aborts == 0 ? 0 : aborts / (double) (commits + aborts);
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (clients.isEmpty() || clients.stream().anyMatch(n -> n < 1 || n > 64)) {
            throw new IllegalArgumentException("--clients " + clients + ": counts in 1..64");
        }
        for (String cc : ccs) {
            if (!cc.equals("optimistic") && !cc.equals("locking")) {
                throw new IllegalArgumentException("--cc: unknown value '" + cc + "'; expected optimistic or locking");
            }
        }
        if (seconds < 1) {
            throw new IllegalArgumentException("--seconds " + seconds + ": at least 1");
        }
        Oo7Config base = Oo7Config.named(size);
        if (base.numModules() != 1) {
            throw new IllegalArgumentException("--size " + size + ": small or medium (one module per client)");
        }
        int max = clients.stream().mapToInt(Integer::intValue).max().orElseThrow();
        Oo7Config config = Oo7MultiUser.config(base, max);
        Path tmp = Files.createTempDirectory("qs-oo7-multiuser-");
        Thread cleanup = new Thread(
                () -> {
                    try {
                        Oo7Command.deleteTree(tmp);
                    } catch (IOException e) {
                        System.err.println("qs: could not remove " + tmp + ": " + e.getMessage());
                    }
                },
                "qs-oo7-multiuser-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            Path dir = tmp.resolve("db");
            long t0 = System.nanoTime();
            try (MappedOo7Store m = MappedOo7Store.create(dir, false)) {
                Oo7Command.build(m, config, seed, err);
            }
            long pages = VolumeFile.readHeader(dir).pageCount();
            out.printf(
                    Locale.ROOT,
                    "OO7 %s with %d modules (1 shared, %d private) built in %.1f s: %d pages = %.1f MiB (temporary)%n",
                    config.name(),
                    config.numModules(),
                    max,
                    (System.nanoTime() - t0) / 1e9,
                    pages,
                    pages * 8192 / 1048576.0);
            out.printf(
                    Locale.ROOT,
                    "%d s per run; %d%% of transactions on the shared module; %d%% updates (T2A, T2B), the rest"
                            + " reads (T1, T6); client processes started together%n",
                    seconds,
                    sharedPercent,
                    updatePercent);
            out.println(header());
            out.flush();
            List<Row> rows = new ArrayList<>();
            for (String cc : ccs) {
                try (ServerProcess server = ServerProcess.start(dir, cc)) {
                    for (int n : clients) {
                        Row r = run(server, cc, n, tmp, err);
                        rows.add(r);
                        out.println(format(r));
                        out.flush();
                    }
                }
            }
            if (json != null) {
                Files.writeString(json, json(config, rows), StandardCharsets.UTF_8);
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook removes the store itself
            }
            Oo7Command.deleteTree(tmp);
        }
        return ExitCodes.OK;
    }

    static String header() {
        return String.format(
                Locale.ROOT,
                "%-10s %7s %10s %7s %6s %9s %9s %9s %10s %9s %8s",
                "cc",
                "clients",
                "commits/s",
                "aborts",
                "abort%",
                "p50 ms",
                "p90 ms",
                "p99 ms",
                "callbacks",
                "deadlocks",
                "timeouts");
    }

    static String format(Row r) {
        return String.format(
                Locale.ROOT,
                "%-10s %7d %10.1f %7d %6.1f %9.2f %9.2f %9.2f %10.2f %9d %8d",
                r.cc(),
                r.clients(),
                r.throughput(),
                r.aborts(),
                100 * r.abortRate(),
                r.p50Micros() / 1000.0,
                r.p90Micros() / 1000.0,
                r.p99Micros() / 1000.0,
                r.callbacksPerCommit(),
                r.deadlocks(),
                r.lockTimeouts());
    }

    private Row run(ServerProcess server, String cc, int n, Path tmp, PrintWriter err) throws Exception {
        Path go = tmp.resolve("go-" + cc + "-" + n);
        List<Process> procs = new ArrayList<>();
        List<BufferedReader> outs = new ArrayList<>();
        try {
            for (int c = 0; c < n; c++) {
                List<String> cmd = QsJvm.command(
                        List.of("-Dqs."),
                        List.of("-Xmx512m"),
                        List.of(
                                "oo7",
                                "multiuser-client",
                                server.uri(),
                                server.secret().toString(),
                                "--client",
                                Integer.toString(c),
                                "--seconds",
                                Integer.toString(seconds),
                                "--shared-percent",
                                Integer.toString(sharedPercent),
                                "--update-percent",
                                Integer.toString(updatePercent),
                                "--seed",
                                Long.toString(seed),
                                "--go",
                                go.toString()));
                Process p = new ProcessBuilder(cmd)
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
                procs.add(p);
                outs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
            }
            for (int c = 0; c < n; c++) {
                String line = outs.get(c).readLine();
                if (!"ready".equals(line)) {
                    throw new IOException(
                            "client " + c + " did not connect (said " + line + "); server log " + server.log());
                }
            }
            ServerStatus before;
            try (RemotePages admin = RemotePages.connect(server.uri(), server.secret(), 10_000)) {
                before = admin.serverStatus();
            }
            Files.createFile(go);
            long commits = 0;
            long aborts = 0;
            double secondsRun = 0;
            List<long[]> latencies = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                String line = outs.get(c).readLine();
                if (line == null || !line.startsWith("result ")) {
                    throw new IOException("client " + c + " failed (said " + line + "); server log " + server.log());
                }
                Map<String, String> kv = new LinkedHashMap<>();
                for (String w : line.substring(7).split(" ")) {
                    int eq = w.indexOf('=');
                    kv.put(w.substring(0, eq), w.substring(eq + 1));
                }
                commits += Long.parseLong(kv.get("commits"));
                aborts += Long.parseLong(kv.get("aborts"));
                secondsRun = Math.max(secondsRun, Double.parseDouble(kv.get("seconds")));
                String l = kv.get("commitMicros");
                latencies.add(
                        l.isEmpty()
                                ? new long[0]
                                : Arrays.stream(l.split(","))
                                        .mapToLong(Long::parseLong)
                                        .toArray());
            }
            for (Process p : procs) {
                if (!p.waitFor(60, TimeUnit.SECONDS)) {
                    throw new IOException("a client did not exit after its run");
                }
            }
            ServerStatus after;
            try (RemotePages admin = RemotePages.connect(server.uri(), server.secret(), 10_000)) {
                after = admin.serverStatus();
            }
            long[] all =
                    latencies.stream().flatMapToLong(Arrays::stream).sorted().toArray();
            long serverCommits = delta(before, after, "commits");
            return new Row(
                    cc,
                    n,
                    secondsRun,
                    commits,
                    aborts,
                    percentile(all, 50),
                    percentile(all, 90),
                    percentile(all, 99),
                    serverCommits == 0 ? 0 : delta(before, after, "pagesInvalidated") / (double) serverCommits,
                    delta(before, after, "deadlocks"),
                    delta(before, after, "lockTimeouts"));
        } finally {
            for (Process p : procs) {
                p.destroyForcibly();
            }
        }
    }

    private static long delta(ServerStatus before, ServerStatus after, String key) {
        return Long.parseLong(after.server().getOrDefault(key, "0"))
                - Long.parseLong(before.server().getOrDefault(key, "0"));
    }

    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private String json(Oo7Config config, List<Row> rows) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("benchmark", "oo7-multiuser");
        doc.put("size", config.name());
        doc.put("modules", config.numModules());
        doc.put("seconds", seconds);
        doc.put("sharedPercent", sharedPercent);
        doc.put("updatePercent", updatePercent);
        doc.put("seed", seed);
        List<Map<String, Object>> runs = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("cc", r.cc());
            m.put("clients", r.clients());
            m.put("seconds", r.seconds());
            m.put("commits", r.commits());
            m.put("aborts", r.aborts());
            m.put("commitsPerSecond", r.throughput());
            m.put("abortRate", r.abortRate());
            m.put("commitP50Micros", r.p50Micros());
            m.put("commitP90Micros", r.p90Micros());
            m.put("commitP99Micros", r.p99Micros());
            m.put("callbacksPerCommit", r.callbacksPerCommit());
            m.put("deadlocks", r.deadlocks());
            m.put("lockTimeouts", r.lockTimeouts());
            runs.add(m);
        }
        doc.put("runs", runs);
        return dev.quickstore.cli.Json.object(doc) + "\n";
    }

    /** Whether the running transaction of {@code store} was refused a page lock (deadlock or timeout). */
    static boolean lockRefused(MappedOo7Store store) {
        try {
            store.persistentStore().storageManager().checkPending();
            return false;
        } catch (PageLockException e) {
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** One client process of a run (started by {@code qs oo7 multiuser}; not for direct use). */
    @Command(
            name = "multiuser-client",
            hidden = true,
            description = "One client process of qs oo7 multiuser: connects, prints ready, waits for the GO file,"
                    + " runs the workload for the given seconds and prints one result line.")
    public static final class Client implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "qs://HOST:PORT")
        String uri;

        @Parameters(index = "1", paramLabel = "SECRET")
        Path secret;

        @Option(names = "--client", required = true)
        int client;

        @Option(names = "--seconds", required = true)
        int seconds;

        @Option(names = "--shared-percent", required = true)
        int sharedPercent;

        @Option(names = "--update-percent", required = true)
        int updatePercent;

        @Option(names = "--seed", required = true)
        long seed;

        @Option(names = "--go", required = true)
        Path go;

        @Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            try (MappedOo7Store store = MappedOo7Store.connect(uri, secret, dev.quickstore.api.ObjectPadding.NONE)) {
                Oo7MultiUser workload = new Oo7MultiUser(store, client, sharedPercent, updatePercent, seed);
                out.println("ready");
                out.flush();
                long wait = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (!Files.exists(go)) {
                    if (System.nanoTime() > wait) {
                        throw new IOException("no GO file " + go + " within 120 s");
                    }
                    Thread.sleep(1);
                }
                long start = System.nanoTime();
                long end = start + TimeUnit.SECONDS.toNanos(seconds);
                long commits = 0;
                long aborts = 0;
                long[] micros = new long[1024];
                while (System.nanoTime() < end) {
                    Oo7MultiUser.Choice c = workload.next();
                    for (; ; ) {
                        store.begin();
                        try {
                            workload.run(c);
                            long t0 = System.nanoTime();
                            store.commit();
                            if (commits == micros.length) {
                                micros = Arrays.copyOf(micros, micros.length * 2);
                            }
                            micros[(int) commits++] = (System.nanoTime() - t0) / 1000;
                            break;
                        } catch (TransactionConflictException | PageLockException e) {
                            aborts++;
                            if (e instanceof PageLockException) {
                                Thread.sleep(1 + (System.nanoTime() & 3)); // a deadlock victim backs off
                            }
                        } catch (RuntimeException e) {
                            // a refused lock doomed the transaction while the traversal went on over a
                            // refused page's zeros (a null reference, an empty list): the refusal decides
                            if (!lockRefused(store)) {
                                throw e;
                            }
                            aborts++;
                            Thread.sleep(1 + (System.nanoTime() & 3));
                        } finally {
                            if (store.inTransaction()) {
                                store.abort();
                            }
                        }
                        if (System.nanoTime() >= end) {
                            break;
                        }
                    }
                }
                double ran = (System.nanoTime() - start) / 1e9;
                StringBuilder l = new StringBuilder();
                for (int i = 0; i < commits; i++) {
                    l.append(i == 0 ? "" : ",").append(micros[i]);
                }
                out.printf(
                        Locale.ROOT,
                        "result commits=%d aborts=%d seconds=%.3f commitMicros=%s%n",
                        commits,
                        aborts,
                        ran,
                        l);
                out.flush();
            }
            return ExitCodes.OK;
        }
    }
}
