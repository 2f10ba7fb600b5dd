package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.core.inspect.LogState;
import dev.quickstore.core.inspect.StoreInspector;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** {@code qs checkpoint DIR}: open, checkpoint, close; the log is truncated to what recovery needs. */
@Command(
        name = "checkpoint",
        mixinStandardHelpOptions = true,
        header = "Take a checkpoint: write back dirty pages and truncate the log.",
        description = {
            "Open the store (taking its lock; recovery runs if needed), take a checkpoint (write back dirty",
            "pages, log a CHECKPOINT record, replace the control file, delete log segments no longer needed)",
            "and close it. Fails with exit 4 while another process has the store open."
        },
        footer = {"", "Examples:", "  qs checkpoint ./db"})
final class CheckpointCommand implements Callable<Integer> {
    @Mixin
    StoreDir dir;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try (Store store = Store.open(dir.path())) {
            store.checkpoint();
        }
        try (StoreInspector in = StoreInspector.open(dir.path())) {
            LogState s = in.logState();
            spec.commandLine()
                    .getOut()
                    .printf(
                            "checkpoint at LSN %d; log kept from LSN %d (%d segment(s))%n",
                            s.checkpointLsn(), s.logStartLsn(), s.segments().size());
        }
        return ExitCodes.OK;
    }
}
