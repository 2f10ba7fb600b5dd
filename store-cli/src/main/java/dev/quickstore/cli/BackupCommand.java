package dev.quickstore.cli;

import dev.quickstore.core.Store;
import dev.quickstore.core.inspect.StoreInspector;
import dev.quickstore.core.volume.VolumeHeader;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code qs backup DIR TARGET}: a consistent copy, taken while no transaction can write. */
@Command(
        name = "backup",
        mixinStandardHelpOptions = true,
        header = "Copy a store consistently, with a checksummed manifest.",
        description = {
            "Copy a store consistently: open it (its lock keeps every other process out, so no transaction",
            "writes during the copy; recovery runs if needed), checkpoint, copy the volume, control file and",
            "log segments to TARGET with progress, then write the manifest " + BackupManifest.FILE,
            "(SHA-256 and size of every file) last. TARGET must not exist or be empty.",
            "Fails with exit 4 while another process has the store open."
        },
        footer = {
            "",
            "Examples:",
            "  qs backup ./db /backups/db-2026-11-22",
            "  qs restore /backups/db-2026-11-22 ./db2"
        })
final class BackupCommand implements Callable<Integer> {
    @Mixin
    StoreDir dir;

    @Parameters(index = "1", paramLabel = "TARGET", description = "backup directory (created)")
    Path target;

    @Option(names = "--quiet", description = "no progress output on stderr")
    boolean quiet;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (Files.exists(target)) {
            try (Stream<Path> s = Files.list(target)) {
                if (s.findAny().isPresent()) {
                    throw new FileAlreadyExistsException(target.toString(), null, "backup target is not empty");
                }
            }
        }
        VolumeHeader header;
        List<BackupManifest.Entry> entries = new ArrayList<>();
        long checkpointLsn;
        try (Store store = Store.open(dir.path())) {
            store.checkpoint();
            try (StoreInspector in = StoreInspector.open(dir.path())) {
                header = in.header();
                checkpointLsn = in.logState().checkpointLsn();
            }
            List<Path> files = StoreInspector.storeFiles(dir.path());
            long total = 0;
            for (Path f : files) {
                total += Files.size(dir.path().resolve(f));
            }
            Files.createDirectories(target);
            try (Progress progress = new Progress(spec.commandLine().getErr(), "backup: copying", quiet)) {
                long[] done = {0};
                long all = total;
                for (Path f : files) {
                    entries.add(BackupManifest.copy(dir.path().resolve(f), target.resolve(f), f.toString(), n -> {
                        done[0] += n;
                        progress.update(done[0], all, "bytes");
                    }));
                }
            }
        }
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("created", Instant.now().toString());
        meta.put("source", dir.path().toAbsolutePath().normalize().toString());
        meta.put("creationId", header.creationId().toString());
        meta.put("pageSize", header.pageSize());
        meta.put("checkpointLsn", checkpointLsn);
        BackupManifest.write(target, meta, entries);
        long bytes = entries.stream().mapToLong(BackupManifest.Entry::bytes).sum();
        spec.commandLine()
                .getOut()
                .printf(
                        "backed up %s to %s: %d file(s), %d bytes, checkpoint LSN %d%n",
                        dir.path(), target, entries.size(), bytes, checkpointLsn);
        return ExitCodes.OK;
    }
}
