package dev.quickstore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The manifest of a backup, {@value #FILE} in the backup directory (format documented in docs/cli.md):
 *
 * <pre>{@code
 * {"format": "quickstore-backup", "version": 1, "created": "...", "source": "...",
 *  "creationId": "...", "pageSize": 8192, "checkpointLsn": 123,
 *  "files": [{"path": "volume.qs", "bytes": 131072, "sha256": "..."}, ...]}
 * }</pre>
 *
 * It is written last, so a backup directory without it is incomplete.
 */
final class BackupManifest {
    static final String FILE = "qs-backup.json";
    static final String FORMAT = "quickstore-backup";
    static final int VERSION = 1;

    record Entry(String path, long bytes, String sha256) {}

    private BackupManifest() {}

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Copies {@code from} to {@code to} (new file), forces it, and returns its entry; reports bytes copied. */
    static Entry copy(Path from, Path to, String rel, LongConsumer bytesCopied) throws IOException {
        MessageDigest md = sha256();
        long n = 0;
        byte[] buf = new byte[1 << 16];
        Files.createDirectories(to.toAbsolutePath().getParent());
        try (InputStream in = new DigestInputStream(Files.newInputStream(from), md);
                OutputStream out = Files.newOutputStream(to, StandardOpenOption.CREATE_NEW)) {
            for (int r; (r = in.read(buf)) > 0; ) {
                out.write(buf, 0, r);
                n += r;
                bytesCopied.accept(r);
            }
        }
        try (FileChannel ch = FileChannel.open(to, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        return new Entry(rel, n, HexFormat.of().formatHex(md.digest()));
    }

    static String hash(Path file, LongConsumer bytesRead) throws IOException {
        MessageDigest md = sha256();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), md)) {
            for (int r; (r = in.read(buf)) > 0; ) {
                bytesRead.accept(r);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    static void write(Path backup, Map<String, Object> meta, List<Entry> files) throws IOException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", FORMAT);
        m.put("version", VERSION);
        m.putAll(meta);
        m.put("files", files);
        Path tmp = backup.resolve(FILE + ".tmp");
        Files.writeString(tmp, Json.object(m));
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, backup.resolve(FILE), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Reads and checks the manifest's format and version; returns it with its file entries. */
    static JsonNode read(Path backup, List<Entry> files) throws IOException {
        Path f = backup.resolve(FILE);
        if (!Files.exists(f)) {
            throw new NoSuchFileException(
                    f.toString(), null, "no backup manifest (not a backup directory, or an incomplete backup)");
        }
        return decode(f.toString(), Files.readAllBytes(f), files);
    }

    /**
     * Decodes and checks a manifest's bytes ({@code name} for messages): JSON, format, version, file entries
     * that stay inside the backup directory, a volume among them.
     *
     * @throws BackupException naming the manifest and what is wrong
     */
    static JsonNode decode(String name, byte[] bytes, List<Entry> files) {
        JsonNode m;
        try {
            m = Json.MAPPER.readTree(bytes);
        } catch (IOException e) {
            throw new BackupException(name + ": not a readable backup manifest: " + e.getMessage());
        }
        if (m == null
                || !FORMAT.equals(m.path("format").asText())
                || m.path("version").asInt() != VERSION) {
            throw new BackupException(name + ": format " + (m == null ? "none" : m.path("format")) + " version "
                    + (m == null ? "none" : m.path("version")) + ", expected \"" + FORMAT + "\" version " + VERSION);
        }
        List<Entry> out = new ArrayList<>();
        for (JsonNode e : m.path("files")) {
            String path = e.path("path").asText();
            Path p;
            try {
                p = Path.of(path);
            } catch (java.nio.file.InvalidPathException x) {
                throw new BackupException(name + ": file entry '" + path + "' is not a path: " + x.getReason());
            }
            if (path.isEmpty() || p.isAbsolute() || p.normalize().startsWith("..")) {
                throw new BackupException(name + ": file entry '" + path + "' escapes the backup directory");
            }
            out.add(new Entry(path, e.path("bytes").asLong(), e.path("sha256").asText()));
        }
        if (out.stream().noneMatch(e -> e.path().equals("volume.qs"))) {
            throw new BackupException(name + ": the manifest lists no volume.qs");
        }
        files.addAll(out);
        return m;
    }
}
