package dev.quickstore.cli.oo7;

import dev.quickstore.cli.ExitCodes;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.oo7.Oo7Config;
import dev.quickstore.oo7.mapped.MappedOo7Store;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code qs oo7 build}: an OO7 database built into a new store directory, for {@code qs oo7 run --store}. */
@Command(
        name = "build",
        mixinStandardHelpOptions = true,
        header = "Build an OO7 database into a new mapped store in DIR.",
        description = {
            "Build an OO7 database into a new persistent store in DIR (for qs oo7 run --store DIR).",
        },
        footer = {
            "",
            "Examples:",
            "  qs oo7 build --size small /tmp/oo7-small",
            "  qs oo7 build --system qs-b /tmp/oo7-small-b     objects padded as in the paper's QS-B"
        })
final class Oo7BuildCommand implements Callable<Integer> {
    @Option(
            names = "--system",
            defaultValue = "qs",
            converter = SystemConverter.class,
            description = "qs, qs-cards, qs-objects, qs-remsets, qs-scan, qs-kernel (same layout as qs; that write"
                    + " detection when run), qs-b for objects padded"
                    + " to an OID-based layout, or e (software persistence: references stored as OIDs)"
                    + " (default: ${DEFAULT-VALUE})")
    SystemUnderTest system;

    @Option(
            names = "--size",
            defaultValue = "small",
            description = "small, medium or large (default: ${DEFAULT-VALUE})")
    String size;

    @Option(
            names = "--seed",
            defaultValue = "42",
            description = "random seed of the builder (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(
            names = "--pool-pages",
            defaultValue = "262144",
            description = "buffer pool of the build in pages (default: ${DEFAULT-VALUE} = 2 GiB; frames are"
                    + " taken as the database grows, so small and medium use less). A pool smaller than the"
                    + " database makes the build write pages back one steal at a time")
    int poolPages;

    @picocli.CommandLine.Parameters(index = "0", paramLabel = "DIR", description = "directory of the new store")
    Path dir;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Oo7Config config = Oo7Config.named(size);
        if (!system.mapped()) {
            throw new IllegalArgumentException("--system " + system.label() + ": qs oo7 build builds a mapped store"
                    + " (qs, qs-cards, qs-objects, qs-remsets, qs-scan, qs-kernel, qs-b); qs oo7 run builds "
                    + (system.peer() ? "the peers" : "the heap")
                    + " itself");
        }
        long nanos;
        if (poolPages < 16) {
            throw new IllegalArgumentException("--pool-pages " + poolPages + ": at least 16");
        }
        StoreOptions options = system.storeOptions(Map.of()).withBufferPoolPages(poolPages);
        try (MappedOo7Store store = MappedOo7Store.create(dir, false, options, system.padding())) {
            nanos = Oo7Command.build(store, config, seed, err);
            Properties p = new Properties();
            p.setProperty("size", config.name());
            p.setProperty("seed", Long.toString(seed));
            p.setProperty("system", system.label());
            try (Writer w = Files.newBufferedWriter(dir.resolve(Oo7Command.DESCRIPTION_FILE), StandardCharsets.UTF_8)) {
                p.store(w, "OO7 database built by qs oo7 build");
            }
        }
        long pages = VolumeFile.readHeader(dir).pageCount();
        out.printf(
                Locale.ROOT,
                "OO7 %s built in %s in %.1f ms (seed %d, %s, database %d pages = %.1f MiB)%n",
                config.name(),
                dir,
                nanos / 1e6,
                seed,
                system.label(),
                pages,
                pages * 8192 / 1048576.0);
        return ExitCodes.OK;
    }
}
