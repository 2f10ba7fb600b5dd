package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.core.inspect.LogState;
import dev.quickstore.core.inspect.StoreInspector;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code qs stats DIR}: counters of a store handle opened by this command, and the log on disk; {@code qs stats
 * qs://...}: a page server's; {@code qs stats --pid PID [DIR]}: the live counters of the stores open in another
 * JVM, through their MXBeans ({@link AttachedStores}).
 */
@Command(
        name = "stats",
        mixinStandardHelpOptions = true,
        header = "Open a store and show the counters of that handle.",
        description = {
            "Open the store (taking its lock; recovery runs if needed) and show the counters of that handle:",
            "buffer pool size, page reads and write-backs, steals, checkpoints, transactions, redo log",
            "volume, what recovery did; and the log on disk. Counters of another process are not visible:",
            "stats cannot attach to a store that is open elsewhere (exit 4).",
            "For a page server's address (qs://HOST:PORT --secret FILE): the running server's counters, those",
            "of its store handle (store*: the same counters, live) and of its protocol (pages served, commits,",
            "log forces, conflicts, invalidations, locks).",
            "With --pid PID: attach to that JVM (the JDK's Attach API and its local JMX agent) and show the live",
            "counters of every store open there (or only DIR's): the same counters, plus commits, aborts,",
            "pool frames used and free, evictions and the fault path's counters. --json prints an array."
        },
        footer = {
            "",
            "Examples:",
            "  qs stats ./db",
            "  qs stats --json ./db | jq .recoveryRedoApplied",
            "  qs stats qs://127.0.0.1:7420 --secret ./db/server.secret",
            "  qs stats --pid 12345",
            "  qs stats --pid 12345 ./db --json"
        })
final class StatsCommand implements Callable<Integer> {
    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "DIR",
            description = "store directory, or qs://HOST:PORT; with --pid: only this store of that process")
    String dirArg;

    @Option(
            names = "--pid",
            paramLabel = "PID",
            description = "read the stores open in this JVM (Attach API, JMX) instead of opening one")
    Long pid;

    @Mixin
    JsonFlag json;

    @Mixin
    ServerOptions remote;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (pid != null) {
            List<Map<String, Object>> stores = AttachedStores.read(pid, dirArg);
            PrintWriter out = spec.commandLine().getOut();
            if (json.on()) {
                out.println(Json.object(stores));
            } else {
                for (int i = 0; i < stores.size(); i++) {
                    if (i > 0) {
                        out.println();
                    }
                    Text.print(out, stores.get(i));
                }
            }
            return ExitCodes.OK;
        }
        if (dirArg == null) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "qs stats needs DIR, qs://HOST:PORT or --pid PID");
        }
        Map<String, Object> m;
        if (dirArg.startsWith("qs://")) {
            try (dev.quickstore.core.remote.RemotePages r = dev.quickstore.core.remote.RemotePages.connect(
                    dirArg, remote.secret(spec.commandLine(), "stats", dirArg), remote.timeoutMs)) {
                m = new java.util.LinkedHashMap<>();
                for (var e : r.serverStatus().server().entrySet()) {
                    String v = e.getValue();
                    m.put(e.getKey(), v.matches("-?\\d{1,18}") ? (Object) Long.parseLong(v) : v);
                }
            }
            print(m);
            return ExitCodes.OK;
        }
        Path dir = Path.of(dirArg);
        try (Store store = Store.open(dir)) {
            m = Json.MAPPER.convertValue(store.stats(), Json.MAP);
        }
        try (StoreInspector in = StoreInspector.open(dir)) {
            LogState log = in.logState();
            m.put("logSegments", log.segments().size());
            m.put(
                    "logBytesOnDisk",
                    log.segments().stream().mapToLong(LogState.Segment::bytes).sum());
            m.put("checkpointLsn", log.checkpointLsn());
        }
        print(m);
        return ExitCodes.OK;
    }

    private void print(Map<String, Object> m) {
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(Json.object(m));
        } else {
            Text.print(out, m);
        }
    }
}
