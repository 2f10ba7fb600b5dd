package dev.quickstore.jmh.store;

import dev.quickstore.core.Store;
import dev.quickstore.core.Transaction;
import dev.quickstore.jmh.BenchFiles;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * Multi-user throughput of the page server, 1 to 8 client processes (issue 12), measured in one run: a
 * server process over a store of counters (one per page: one per client and {@code shared} shared ones),
 * then for each client count N, N {@link ThroughputClient} processes for {@code seconds} each, every
 * transaction incrementing its client's own counter and, in {@code sharedPercent}% of them, a shared one.
 * Prints one row per N: commits per second (all clients), its ratio to one client, conflicts per commit,
 * invalidations per commit, and the median and 99th percentile commit latency (the worst client's).
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp jmh/target/benchmarks.jar \
 *     dev.quickstore.jmh.store.MultiClientThroughput [seconds=5] [clients=1,2,4,8] [sharedPercent=10]
 *     [optimistic|locking]</pre>
 *
 * Under locking a refused lock (deadlock, lock wait) counts as a conflict.
 */
public final class MultiClientThroughput {
    private MultiClientThroughput() {}

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        int[] counts = args.length > 1
                ? java.util.Arrays.stream(args[1].split(","))
                        .mapToInt(Integer::parseInt)
                        .toArray()
                : new int[] {1, 2, 4, 8};
        int sharedPercent = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        String cc = args.length > 3 ? args[3] : "optimistic";
        int shared = 4;
        int maxClients = java.util.Arrays.stream(counts).max().orElse(1);
        Path dir = Files.createTempDirectory("qs-multiclient-");
        Path db = dir.resolve("db");
        long[] off = new long[maxClients + shared];
        try (Store s = Store.create(db);
                Transaction tx = s.begin()) {
            for (int i = 0; i < off.length; i++) {
                long ref = tx.allocate(7000);
                tx.write(ref, 0, new byte[8]);
                off[i] = ref - s.arenaBase();
            }
            tx.commit();
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        Process server = new ProcessBuilder(List.of(
                        java,
                        "--enable-native-access=ALL-UNNAMED",
                        "-Xmx512m",
                        "-Dqs.server.cc=" + cc,
                        "-cp",
                        cp,
                        "dev.quickstore.server.PageServerMain",
                        db.toString(),
                        "127.0.0.1:0"))
                .redirectError(dir.resolve("server.log").toFile())
                .start();
        try {
            String line = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            if (line == null || !line.startsWith("listening ")) {
                throw new IllegalStateException("server did not start: " + Files.readString(dir.resolve("server.log")));
            }
            String uri = line.substring("listening ".length());
            String sharedOffsets =
                    LongStream.of(off).skip(maxClients).mapToObj(Long::toString).collect(Collectors.joining(","));
            System.out.printf(
                    "page server (%s), %d shared counters, %d%% of transactions also increment one; %.0f s per row;"
                            + " %d cores%n",
                    cc, shared, sharedPercent, seconds, Runtime.getRuntime().availableProcessors());
            System.out.println("clients  commits/s  /1 client  conflicts/commit  invalidations/commit  p50 us  p99 us");
            double base = 0;
            for (int n : counts) {
                List<Process> ps = new ArrayList<>();
                List<BufferedReader> outs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    Process p = new ProcessBuilder(List.of(
                                    java,
                                    "--enable-native-access=ALL-UNNAMED",
                                    "-Xmx256m",
                                    "-cp",
                                    cp,
                                    ThroughputClient.class.getName(),
                                    uri,
                                    db.resolve("server.secret").toString(),
                                    Double.toString(seconds),
                                    Long.toString(off[i]),
                                    sharedOffsets,
                                    Integer.toString(sharedPercent)))
                            .redirectError(ProcessBuilder.Redirect.INHERIT)
                            .start();
                    ps.add(p);
                    outs.add(new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)));
                }
                for (BufferedReader r : outs) {
                    String ready = r.readLine();
                    if (!"ready".equals(ready)) {
                        throw new IllegalStateException("a client did not connect: " + ready);
                    }
                }
                long commits = 0;
                long conflicts = 0;
                long invalidated = 0;
                long p50 = 0;
                long p99 = 0;
                for (BufferedReader r : outs) {
                    String res = r.readLine();
                    if (res == null) {
                        throw new IllegalStateException("a client ended without a result");
                    }
                    Map<String, Long> kv = new HashMap<>();
                    for (String w : res.split(" ")) {
                        String[] p = w.split("=");
                        kv.put(p[0], Long.parseLong(p[1]));
                    }
                    commits += kv.get("commits");
                    conflicts += kv.get("conflicts");
                    invalidated += kv.get("invalidated");
                    p50 = Math.max(p50, kv.get("p50us"));
                    p99 = Math.max(p99, kv.get("p99us"));
                }
                for (Process p : ps) {
                    p.waitFor(60, TimeUnit.SECONDS);
                }
                double rate = commits / seconds;
                if (base == 0) {
                    base = rate;
                }
                System.out.printf(
                        "%7d  %9.0f  %8.2fx  %16.3f  %20.3f  %6d  %6d%n",
                        n,
                        rate,
                        rate / base,
                        commits == 0 ? 0.0 : (double) conflicts / commits,
                        commits == 0 ? 0.0 : (double) invalidated / commits,
                        p50,
                        p99);
            }
        } finally {
            server.destroy();
            server.waitFor(60, TimeUnit.SECONDS);
            String log = Files.readString(dir.resolve("server.log"));
            log.lines().filter(l -> l.contains("stopped")).forEach(System.out::println);
            BenchFiles.deleteTree(dir);
        }
    }
}
