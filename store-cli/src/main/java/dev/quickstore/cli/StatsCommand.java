package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.core.inspect.LogState;
import dev.quickstore.core.inspect.StoreInspector;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** {@code qs stats DIR}: counters of a store handle opened by this command, and the log on disk. */
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
            "log forces, conflicts, invalidations, locks)."
        },
        footer = {
            "",
            "Examples:",
            "  qs stats ./db",
            "  qs stats --json ./db | jq .recoveryRedoApplied",
            "  qs stats qs://127.0.0.1:7420 --secret ./db/server.secret"
        })
final class StatsCommand implements Callable<Integer> {
    @Mixin
    StoreDir dir;

    @Mixin
    JsonFlag json;

    @Mixin
    ServerOptions remote;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Map<String, Object> m;
        if (dir.isServer()) {
            try (dev.quickstore.core.remote.RemotePages r = dev.quickstore.core.remote.RemotePages.connect(
                    dir.raw(), remote.secret(spec.commandLine(), "stats", dir.raw()), remote.timeoutMs)) {
                m = new java.util.LinkedHashMap<>();
                for (var e : r.serverStatus().server().entrySet()) {
                    String v = e.getValue();
                    m.put(e.getKey(), v.matches("-?\\d{1,18}") ? (Object) Long.parseLong(v) : v);
                }
            }
            print(m);
            return ExitCodes.OK;
        }
        try (Store store = Store.open(dir.path())) {
            m = Json.MAPPER.convertValue(store.stats(), Json.MAP);
        }
        try (StoreInspector in = StoreInspector.open(dir.path())) {
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
