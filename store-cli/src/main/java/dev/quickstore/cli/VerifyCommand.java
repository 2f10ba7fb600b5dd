package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.core.error.StoreFormatException;
import dev.quickstore.core.inspect.StoreInspector;
import dev.quickstore.core.verify.VerifyReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs verify DIR}: checksums and structure; exit 0 when sound, 1 when a problem was found. */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        header = "Check a store's files and structures; exit 1 on any problem.",
        description = {
            "Check a store: (1) file level, read-only: every page's checksum, version, id and type, the",
            "control file and every log record; (2) unless --files-only and when (1) passed: open the store",
            "(taking its lock; recovery runs if it was not closed cleanly) and check slotted pages,",
            "allocation bitmaps, large objects and B+trees.",
            "Exit code 0 when sound, 1 when any problem was found (each listed with its page)."
        },
        footer = {
            "",
            "Examples:",
            "  qs verify ./db",
            "  qs verify --files-only ./db     never writes, works while another process has the store open",
            "  qs verify --json ./db | jq '.problems[]'"
        })
final class VerifyCommand implements Callable<Integer> {
    @Mixin
    StoreDir dir;

    @Option(names = "--files-only", description = "only the read-only file-level checks (no open, no lock)")
    boolean filesOnly;

    @Mixin
    JsonFlag json;

    @Option(names = "--quiet", description = "no progress output on stderr")
    boolean quiet;

    @Mixin
    ServerOptions remote;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (dir.isServer()) {
            return remote();
        }
        List<VerifyReport.Problem> problems = new ArrayList<>();
        long filePages;
        Progress progress = new Progress(spec.commandLine().getErr(), "verify: checking pages", quiet || json.on());
        try (progress;
                StoreInspector in = StoreInspector.open(dir.path())) {
            long total =
                    (in.fileBytes() + in.header().pageSize() - 1) / in.header().pageSize();
            filePages = total;
            problems.addAll(in.checkFiles(done -> progress.update(done, total, "pages")));
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("store", dir.path().toString());
        result.put("filePagesChecked", filePages);
        String structure;
        if (filesOnly) {
            structure = "skipped (--files-only)";
        } else if (!problems.isEmpty()) {
            structure = "skipped (file-level problems)";
        } else {
            try (Store store = Store.open(dir.path())) {
                VerifyReport r = store.verify();
                problems.addAll(r.problems());
                result.put("pagesChecked", r.pagesChecked());
                result.put("objects", r.objects());
                result.put("indexEntries", r.indexEntries());
                structure = "checked";
            } catch (StoreFormatException e) {
                problems.add(new VerifyReport.Problem(e.pageId(), "open failed: " + e.getMessage()));
                structure = "failed to open";
            }
        }
        result.put("structure", structure);
        result.put("ok", problems.isEmpty());
        result.put(
                "problems",
                problems.stream().map(VerifyReport.Problem::toString).toList());
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(Json.object(result));
        } else {
            out.println((problems.isEmpty() ? "OK" : problems.size() + " problem(s)") + ": " + filePages
                    + " file pages checked, structure " + structure
                    + (result.containsKey("objects")
                            ? " (" + result.get("pagesChecked") + " pages, " + result.get("objects") + " objects, "
                                    + result.get("indexEntries") + " index entries)"
                            : ""));
            for (VerifyReport.Problem p : problems) {
                out.println("  " + p);
            }
        }
        return problems.isEmpty() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }

    /** The server checks its store ({@code Store.verify()} under its latch) and sends the report. */
    private int remote() throws java.io.IOException {
        if (filesOnly) {
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "qs verify " + dir.raw() + ": --files-only needs the store's files (a directory)");
        }
        java.nio.file.Path secret = remote.secret(spec.commandLine(), "verify", dir.raw());
        VerifyReport r;
        try (dev.quickstore.core.remote.RemotePages c =
                dev.quickstore.core.remote.RemotePages.connect(dir.raw(), secret, remote.timeoutMs)) {
            r = c.verifyAtServer();
        }
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("server", dir.raw());
        result.put("structure", "checked by the server");
        result.put("pagesChecked", r.pagesChecked());
        result.put("objects", r.objects());
        result.put("indexEntries", r.indexEntries());
        result.put("ok", r.ok());
        result.put(
                "problems",
                r.problems().stream().map(VerifyReport.Problem::toString).toList());
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(Json.object(result));
        } else {
            out.println((r.ok() ? "OK" : r.problems().size() + " problem(s)") + ": checked by the server "
                    + dir.raw() + " (" + r.pagesChecked() + " pages, " + r.objects() + " objects, "
                    + r.indexEntries() + " index entries)");
            for (VerifyReport.Problem p : r.problems()) {
                out.println("  " + p);
            }
        }
        return r.ok() ? ExitCodes.OK : ExitCodes.CHECK_FAILED;
    }
}
