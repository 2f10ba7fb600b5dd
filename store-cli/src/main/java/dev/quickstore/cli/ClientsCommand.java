package dev.quickstore.cli;

import dev.quickstore.core.remote.RemotePages;
import dev.quickstore.core.remote.ServerStatus;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code qs clients qs://HOST:PORT --secret FILE}: a page server's counters and its connected clients. */
@Command(
        name = "clients",
        mixinStandardHelpOptions = true,
        header = "Show a page server's counters and its connected clients.",
        description = {
            "Connect to a page server (qs serve) as a client and show what it says: its store, pages served,",
            "commits and the log forces they took (group commit), conflicts, pages invalidated, and per",
            "connected client its session, address, name, since when, pages it caches (the callback table),",
            "commits and conflicts. This command's own session is listed too."
        },
        footer = {"", "Examples:", "  qs clients qs://127.0.0.1:7420 --secret ./db/server.secret"})
final class ClientsCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "qs://HOST:PORT", description = "the page server")
    String server;

    @Mixin
    ServerOptions remote;

    @Mixin
    JsonFlag json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!server.startsWith("qs://")) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "qs clients " + server + ": expected a page server's address, qs://HOST:PORT");
        }
        ServerStatus s;
        try (RemotePages r =
                RemotePages.connect(server, remote.secret(spec.commandLine(), "clients", server), remote.timeoutMs)) {
            s = r.serverStatus();
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            Map<String, Object> all = new LinkedHashMap<>(s.server());
            all.put("sessions", s.sessions());
            out.println(Json.object(all));
            return ExitCodes.OK;
        }
        Text.print(out, s.server());
        out.printf(
                "%-8s %-22s %-28s %-24s %7s %8s %9s%n",
                "session", "peer", "name", "since", "cached", "commits", "conflicts");
        for (Map<String, String> c : s.sessions()) {
            out.printf(
                    "%-8s %-22s %-28s %-24s %7s %8s %9s%n",
                    c.get("session"),
                    c.get("peer"),
                    c.get("name").replace('_', ' '),
                    c.get("since"),
                    c.get("cachedPages"),
                    c.get("commits"),
                    c.get("conflicts"));
        }
        return ExitCodes.OK;
    }
}
