package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.core.stats.RecoveryStats;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** {@code qs recover DIR}: run restart recovery now (what any open does) and report what it did. */
@Command(
        name = "recover",
        mixinStandardHelpOptions = true,
        header = "Run restart recovery now and report what it did.",
        description = {
            "Run restart recovery: repair torn pages from the double-write file, redo the log from the last",
            "checkpoint, roll back uncommitted transactions, checkpoint; then close. Any open does the same;",
            "this command does it on purpose and reports what was done."
        },
        footer = {"", "Examples:", "  qs recover ./db", "  qs recover --json ./db"})
final class RecoverCommand implements Callable<Integer> {
    @Mixin
    StoreDir dir;

    @Mixin
    JsonFlag json;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        RecoveryStats r;
        try (Store store = Store.open(dir.path())) {
            r = store.recoveryStats();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("logRecordsScanned", r.logRecordsScanned());
        m.put("redoApplied", r.redoApplied());
        m.put("losersUndone", r.losersUndone());
        m.put("tornPagesRestored", r.tornPagesRestored());
        PrintWriter out = spec.commandLine().getOut();
        if (json.on()) {
            out.println(Json.object(m));
        } else {
            out.printf(
                    "recovered %s: %d log records scanned, %d redone, %d uncommitted transaction(s) rolled back,"
                            + " %d torn page(s) restored%n",
                    dir.path(),
                    r.logRecordsScanned(),
                    r.redoApplied(),
                    r.losersUndone(),
                    r.tornPagesRestored().size());
        }
        return ExitCodes.OK;
    }
}
