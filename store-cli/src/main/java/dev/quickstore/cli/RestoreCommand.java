package dev.quickstore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quickstore.core.inspect.StoreInspector;
import dev.quickstore.core.volume.VolumeFile;
import dev.quickstore.core.volume.VolumeHeader;
import java.io.Closeable;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code qs restore BACKUP DIR}: verify a backup against its manifest, then copy it into DIR. */
@Command(
        name = "restore",
        mixinStandardHelpOptions = true,
        header = "Restore a backup made by 'qs backup', checking every file first.",
        description = {
            "Restore a backup made by 'qs backup': check every file against the manifest (size, SHA-256),",
            "then copy it into DIR. Refuses to replace an existing store unless --force; with --force the",
            "existing store's lock is taken first (so it cannot be open elsewhere) and its files replaced.",
            "A backup that does not match its manifest exits 3 and nothing is written."
        },
        footer = {
            "",
            "Examples:",
            "  qs restore /backups/db-2026-11-22 ./db2",
            "  qs restore --force /backups/db-2026-11-22 ./db"
        })
final class RestoreCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BACKUP", description = "backup directory (made by qs backup)")
    Path backup;

    @Parameters(index = "1", paramLabel = "DIR", description = "store directory to restore into")
    Path dir;

    @Option(names = "--force", description = "replace an existing store in DIR")
    boolean force;

    @Option(names = "--quiet", description = "no progress output on stderr")
    boolean quiet;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<BackupManifest.Entry> files = new ArrayList<>();
        JsonNode manifest = BackupManifest.read(backup, files);
        long total = files.stream().mapToLong(BackupManifest.Entry::bytes).sum();
        long[] done = {0};
        try (Progress check = new Progress(spec.commandLine().getErr(), "restore: checking backup", quiet)) {
            for (BackupManifest.Entry e : files) {
                Path f = backup.resolve(e.path());
                if (!Files.isRegularFile(f) || Files.size(f) != e.bytes()) {
                    throw new BackupException(f + ": missing or not " + e.bytes() + " bytes as the manifest says");
                }
                String h = BackupManifest.hash(f, n -> {
                    done[0] += n;
                    check.update(done[0], total, "bytes");
                });
                if (!h.equals(e.sha256())) {
                    throw new BackupException(f + ": SHA-256 " + h + " does not match the manifest's " + e.sha256()
                            + " (damaged backup)");
                }
            }
        }
        boolean exists = Files.exists(VolumeFile.volumePath(dir));
        if (exists && !force) {
            throw new FileAlreadyExistsException(
                    VolumeFile.volumePath(dir).toString(),
                    null,
                    "a store already exists there (use --force to replace it)");
        }
        Files.createDirectories(dir);
        Closeable lock = VolumeFile.lock(dir); // held while the files are replaced
        try {
            if (exists) {
                for (Path f : StoreInspector.storeFiles(dir)) {
                    Files.delete(dir.resolve(f));
                }
                for (String aux : StoreInspector.auxiliaryFiles()) {
                    if (!aux.equals("lock")) {
                        Files.deleteIfExists(dir.resolve(aux));
                    }
                }
            }
            try (Progress copy = new Progress(spec.commandLine().getErr(), "restore: copying", quiet)) {
                done[0] = 0;
                for (BackupManifest.Entry e : files) {
                    BackupManifest.Entry written =
                            BackupManifest.copy(backup.resolve(e.path()), dir.resolve(e.path()), e.path(), n -> {
                                done[0] += n;
                                copy.update(done[0], total, "bytes");
                            });
                    if (!written.sha256().equals(e.sha256())) {
                        throw new BackupException(dir.resolve(e.path()) + ": copy does not match the manifest");
                    }
                }
            }
        } finally {
            lock.close();
        }
        VolumeHeader h = VolumeFile.readHeader(dir);
        if (!h.creationId().toString().equals(manifest.path("creationId").asText())) {
            throw new BackupException("restored volume has creation id " + h.creationId() + ", the manifest says "
                    + manifest.path("creationId").asText());
        }
        spec.commandLine()
                .getOut()
                .printf(
                        "restored %s into %s: %d file(s), %d bytes (store %s, checkpoint LSN %d)%n",
                        backup,
                        dir,
                        files.size(),
                        total,
                        h.creationId(),
                        manifest.path("checkpointLsn").asLong());
        return ExitCodes.OK;
    }
}
