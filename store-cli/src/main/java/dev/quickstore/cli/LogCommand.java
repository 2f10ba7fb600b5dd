package dev.quickstore.cli;

import dev.quickstore.core.inspect.LogEntry;
import dev.quickstore.core.inspect.StoreInspector;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs log DIR}: write-ahead log records with LSN, type, transaction, page and byte ranges. */
@Command(
        name = "log",
        mixinStandardHelpOptions = true,
        header = "List write-ahead log records, from the kept log's start or --from.",
        description = {
            "List write-ahead log records from the start of the kept log (or --from) to its end:",
            "LSN, type, transaction, previous LSN, page and changed byte ranges (offset+length).",
            "Read-only; a torn tail ends the listing, durable damage exits 3."
        },
        footer = {
            "",
            "Examples:",
            "  qs log ./db",
            "  qs log ./db --page 16 --limit 10",
            "  qs log ./db --type commit,checkpoint",
            "  qs log --json ./db | jq '.[] | select(.type==\"REDO\") | .pageId'"
        })
final class LogCommand implements Callable<Integer> {
    @Mixin
    StoreDir store;

    @Option(names = "--from", paramLabel = "LSN", defaultValue = "0", description = "first LSN to show")
    long from;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "1000",
            description = "at most N records (default: ${DEFAULT-VALUE}, 0 = all)")
    long limit;

    @Option(names = "--page", paramLabel = "ID", description = "only records of this page")
    Long page;

    @Option(
            names = "--type",
            split = ",",
            paramLabel = "TYPE",
            description = "only these types: update, redo, clr, commit, end, checkpoint, new_page")
    List<String> types;

    @Mixin
    JsonFlag json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    private static final List<String> TYPES =
            List.of("UPDATE", "REDO", "CLR", "COMMIT", "END", "CHECKPOINT", "NEW_PAGE");

    @Override
    public Integer call() throws Exception {
        List<String> wanted = null;
        if (types != null) {
            wanted = new ArrayList<>();
            for (String t : types) {
                String u = t.trim().toUpperCase(Locale.ROOT);
                if (!TYPES.contains(u)) {
                    throw new IllegalArgumentException("--type: unknown record type '" + t + "'; expected one of "
                            + TYPES.toString().toLowerCase(Locale.ROOT));
                }
                wanted.add(u);
            }
        }
        List<String> filter = wanted;
        List<LogEntry> entries = new ArrayList<>();
        try (StoreInspector in = StoreInspector.open(store.path())) {
            in.log(from, e -> {
                if ((page == null || e.pageId() == page) && (filter == null || filter.contains(e.type()))) {
                    entries.add(e);
                }
                return limit <= 0 || entries.size() < limit;
            });
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(Json.object(entries));
            return ExitCodes.OK;
        }
        out.printf("%-12s %-10s %-6s %-12s %-6s %s%n", "lsn", "type", "txn", "prevLsn", "page", "details");
        for (LogEntry e : entries) {
            out.printf(
                    "%-12d %-10s %-6d %-12d %-6s %s%n",
                    e.lsn(),
                    e.type(),
                    e.txnId(),
                    e.prevLsn(),
                    e.pageId() < 0 ? "-" : String.valueOf(e.pageId()),
                    details(e));
        }
        out.printf("%d record(s)%n", entries.size());
        return ExitCodes.OK;
    }

    private static String details(LogEntry e) {
        if (e.checkpoint() != null) {
            LogEntry.Checkpoint c = e.checkpoint();
            return "redoStart " + c.redoStartLsn() + ", nextTxn " + c.nextTxnId() + ", active "
                    + (c.activeTxnId() == 0 ? "none" : c.activeTxnId()) + ", dirty pages " + c.dirtyPages();
        }
        String m = e.moves().isEmpty()
                ? ""
                : "moves "
                        + e.moves().stream()
                                .map(x -> x.src() + "->" + x.dst() + "+" + x.length())
                                .collect(Collectors.joining(" "))
                        + (e.ranges().isEmpty() ? "" : ", ");
        if (e.ranges().isEmpty()) {
            return m;
        }
        String r = e.ranges().stream()
                .limit(8)
                .map(x -> x.offset() + "+" + x.length())
                .collect(Collectors.joining(" "));
        return m + "ranges " + r
                + (e.ranges().size() > 8 ? " ... (" + e.ranges().size() + ")" : "")
                + (e.undoNextLsn() != 0 ? ", undoNext " + e.undoNextLsn() : "");
    }
}
