package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.core.volume.VolumeHeader;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs create DIR}: a new, empty store. */
@Command(
        name = "create",
        mixinStandardHelpOptions = true,
        header = "Create a new, empty store in DIR.",
        description = "Create a new, empty store in DIR (the directory is created if needed).",
        footer = {"", "Examples:", "  qs create ./db", "  qs create --page-size 16384 /data/bigpages"})
final class CreateCommand implements Callable<Integer> {
    @Mixin
    StoreDir dir;

    @Option(
            names = "--page-size",
            paramLabel = "BYTES",
            defaultValue = "" + VolumeFile.DEFAULT_PAGE_SIZE,
            description = "page size, a power of two in 4096..65536 (default: ${DEFAULT-VALUE})")
    int pageSize;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        // a complete store: volume, log and control file, closed cleanly
        try (Store store = Store.create(dir.path(), pageSize, StoreOptions.defaults())) {
            store.checkpoint();
        }
        VolumeHeader h = VolumeFile.readHeader(dir.path());
        spec.commandLine()
                .getOut()
                .printf("created store %s (id %s, page size %d)%n", dir.path(), h.creationId(), h.pageSize());
        return ExitCodes.OK;
    }
}
