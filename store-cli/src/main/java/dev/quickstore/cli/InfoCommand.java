package dev.quickstore.cli;

import dev.quickstore.core.inspect.StoreInspector;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** {@code qs info DIR}: what a store is, read-only (files as on disk: no lock, no recovery). */
@Command(
        name = "info",
        mixinStandardHelpOptions = true,
        header = "Show a store's header, space usage, roots, indexes and log state.",
        description = {
            "Show a store's volume header, space usage, named roots, indexes and log state.",
            "Read-only: reads the files as they are on disk (no lock, no recovery).",
            "Given a page server's address (qs://host:port) instead of DIR, connects to it (--secret) and shows",
            "what the server says of its store and the header page it serves."
        },
        footer = {
            "",
            "Examples:",
            "  qs info ./db",
            "  qs info --json ./db | jq .pageSize",
            "  qs info --json ./db | jq .log.clean",
            "  qs info qs://127.0.0.1:7420 --secret ./db/server.secret"
        })
final class InfoCommand implements Callable<Integer> {
    @Mixin
    StoreDir store;

    @Mixin
    JsonFlag json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    ServerOptions remote;

    @Override
    public Integer call() throws Exception {
        Map<String, Object> info = new LinkedHashMap<>();
        if (store.isServer()) {
            remote(info);
        } else {
            local(info);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(Json.object(info));
        } else {
            Text.print(out, info);
        }
        return ExitCodes.OK;
    }

    /** Asks a page server: the handshake's facts and page 0, faulted in over the connection. */
    private void remote(Map<String, Object> info) throws java.io.IOException {
        java.nio.file.Path secret = remote.secret(spec.commandLine(), "info", store.raw());
        try (dev.quickstore.core.remote.RemotePages r =
                dev.quickstore.core.remote.RemotePages.connect(store.raw(), secret, remote.timeoutMs)) {
            VolumeHeader h = r.header();
            info.put("server", store.raw());
            info.put("session", r.sessionId());
            info.put("formatVersion", h.formatVersion());
            info.put("pageSize", h.pageSize());
            info.put("creationId", h.creationId().toString());
            info.put("preferredArenaBase", String.format("0x%x", h.preferredArenaBase()));
            info.put("pageCount", r.pageCount());
            info.put("extentPages", h.extentPages());
            info.put("created", Instant.ofEpochMilli(h.createdMillis()).toString());
            info.put("clientArenaAtPreferredBase", r.atPreferredBase());
            info.put("pagesFaultedIn", r.counters().readFaults());
        }
    }

    private void local(Map<String, Object> info) throws Exception {
        try (StoreInspector in = StoreInspector.open(store.path())) {
            VolumeHeader h = in.header();
            info.put("store", store.path().toString());
            info.put("volume", VolumeFile.volumePath(store.path()).toString());
            info.put("formatVersion", h.formatVersion());
            info.put("pageSize", h.pageSize());
            info.put("creationId", h.creationId().toString());
            info.put("preferredArenaBase", String.format("0x%x", h.preferredArenaBase()));
            info.put("pageCount", h.pageCount());
            info.put("fileBytes", in.fileBytes());
            info.put("extentPages", h.extentPages());
            info.put("created", Instant.ofEpochMilli(h.createdMillis()).toString());
            for (InfoSection s : InfoSection.ALL) {
                info.put(s.name(), s.describe(in));
            }
        }
    }
}
