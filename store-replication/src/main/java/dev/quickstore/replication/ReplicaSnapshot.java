package dev.quickstore.replication;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * A replica's snapshot: a copy of its store's files taken at a replicated CHECKPOINT entry (log index {@code
 * index} of term {@code term}), in the directory {@code qs-snapshot.TERM_INDEX} of the Ratis state machine
 * directory, with a manifest written last. A lagging or new replica restores its store from the latest complete
 * snapshot (its own, or one the leader sent it through Ratis's snapshot installation) and then applies the log
 * entries after it.
 *
 * <p>The manifest, {@value #MANIFEST} (format version 1, UTF-8 lines):
 *
 * <pre>
 *   qs-replica-snapshot 1
 *   CRC32C SIZE PATH        one line per file of the store: CRC32C of its bytes (8 hex digits), its size in
 *                           bytes (decimal) and its path relative to the snapshot directory ('/'-separated)
 *   end CRC32C              CRC32C of every byte of the manifest before this line
 * </pre>
 *
 * A snapshot without a manifest, with a manifest that fails its checksum, or with a file whose size or CRC32C
 * differs from its line is not complete: it is ignored (an older one, or the seed, is used instead) and {@link
 * #verify} names the file.
 */
public record ReplicaSnapshot(Path dir, long term, long index) {
    public static final String PREFIX = "qs-snapshot.";
    public static final String MANIFEST = "MANIFEST.qs";
    static final String HEADER = "qs-replica-snapshot 1";
    private static final Pattern NAME = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)_(\\d+)");

    /** The snapshot directory's name for a term and index. */
    public static String name(long term, long index) {
        return PREFIX + term + "_" + index;
    }

    /**
     * Copies the files of {@code store} (except those {@code skip} rejects, by their relative path) to a new
     * snapshot directory in {@code smDir}: into a temporary directory first, the manifest last, then renamed.
     */
    public static ReplicaSnapshot write(Path store, Predicate<String> skip, Path smDir, long term, long index)
            throws IOException {
        Path dst = smDir.resolve(name(term, index));
        Path tmp = smDir.resolve(name(term, index) + ".tmp");
        deleteTree(tmp);
        Files.createDirectories(tmp);
        StringBuilder manifest = new StringBuilder(HEADER).append('\n');
        for (String rel : files(store, skip)) {
            Path to = tmp.resolve(rel);
            Files.createDirectories(to.getParent());
            Files.copy(store.resolve(rel), to, StandardCopyOption.COPY_ATTRIBUTES);
            manifest.append(String.format("%08x", crc(to)))
                    .append(' ')
                    .append(Files.size(to))
                    .append(' ')
                    .append(rel)
                    .append('\n');
        }
        byte[] body = manifest.toString().getBytes(StandardCharsets.UTF_8);
        CRC32C c = new CRC32C();
        c.update(body);
        manifest.append("end ")
                .append(String.format("%08x", (int) c.getValue()))
                .append('\n');
        Files.writeString(tmp.resolve(MANIFEST), manifest.toString(), StandardCharsets.UTF_8);
        deleteTree(dst);
        Files.move(tmp, dst, StandardCopyOption.ATOMIC_MOVE);
        return new ReplicaSnapshot(dst, term, index);
    }

    /** The regular files under {@code root} as sorted '/'-separated relative paths, except those skipped. */
    static List<String> files(Path root, Predicate<String> skip) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (!Files.isRegularFile(p)) {
                    continue;
                }
                String rel = root.relativize(p).toString().replace('\\', '/');
                if (!skip.test(rel)) {
                    out.add(rel);
                }
            }
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    /** The files of this snapshot that restore a store (every file the manifest names), as absolute paths. */
    public List<Path> storeFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String[] line : manifestLines()) {
            out.add(dir.resolve(line[2]));
        }
        return out;
    }

    /**
     * Checks the manifest's checksum and every file's size and CRC32C.
     *
     * @throws IOException naming the snapshot and the file that does not match
     */
    public void verify() throws IOException {
        for (String[] line : manifestLines()) {
            Path f = dir.resolve(line[2]);
            if (!Files.isRegularFile(f)) {
                throw new IOException("snapshot " + dir + ": file " + line[2] + " is missing");
            }
            if (Files.size(f) != Long.parseLong(line[1])) {
                throw new IOException("snapshot " + dir + ": file " + line[2] + " has " + Files.size(f)
                        + " bytes, the manifest says " + line[1]);
            }
            String crc = String.format("%08x", crc(f));
            if (!crc.equals(line[0])) {
                throw new IOException("snapshot " + dir + ": file " + line[2] + " has CRC32C " + crc
                        + ", the manifest says " + line[0]);
            }
        }
    }

    private List<String[]> manifestLines() throws IOException {
        Path m = dir.resolve(MANIFEST);
        if (!Files.isRegularFile(m)) {
            throw new IOException("snapshot " + dir + " has no " + MANIFEST + " (incomplete)");
        }
        String text = Files.readString(m, StandardCharsets.UTF_8);
        int endAt = text.lastIndexOf("end ");
        if (!text.startsWith(HEADER + "\n") || endAt < 0 || !text.endsWith("\n")) {
            throw new IOException("snapshot " + dir + ": " + MANIFEST + " is not a version 1 manifest");
        }
        CRC32C c = new CRC32C();
        c.update(text.substring(0, endAt).getBytes(StandardCharsets.UTF_8));
        String stored = text.substring(endAt + 4, text.length() - 1);
        if (!stored.equals(String.format("%08x", (int) c.getValue()))) {
            throw new IOException("snapshot " + dir + ": " + MANIFEST + " checksum " + stored + ", computed "
                    + String.format("%08x", (int) c.getValue()));
        }
        List<String[]> out = new ArrayList<>();
        for (String l : text.substring(HEADER.length() + 1, endAt).split("\n")) {
            if (l.isEmpty()) {
                continue;
            }
            String[] f = l.split(" ", 3);
            if (f.length != 3 || f[2].startsWith("/") || f[2].contains("..")) {
                throw new IOException("snapshot " + dir + ": " + MANIFEST + " line '" + l + "' is malformed");
            }
            out.add(f);
        }
        return out;
    }

    /** The complete snapshot of the highest index in {@code smDir}, or null if there is none. */
    public static ReplicaSnapshot latest(Path smDir) throws IOException {
        if (!Files.isDirectory(smDir)) {
            return null;
        }
        List<ReplicaSnapshot> all = all(smDir);
        for (int i = all.size() - 1; i >= 0; i--) {
            try {
                all.get(i).verify();
                return all.get(i);
            } catch (IOException e) {
                // incomplete or damaged: an older one (or the seed) is used instead
            }
        }
        return null;
    }

    /** The snapshot directories in {@code smDir}, lowest index first (complete or not). */
    static List<ReplicaSnapshot> all(Path smDir) throws IOException {
        List<ReplicaSnapshot> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(smDir)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Matcher m = NAME.matcher(p.getFileName().toString());
                if (m.matches() && Files.isDirectory(p)) {
                    out.add(new ReplicaSnapshot(p, Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
                }
            }
        }
        out.sort(Comparator.comparingLong(ReplicaSnapshot::index));
        return out;
    }

    /** Deletes the snapshots in {@code smDir} below {@code keep}'s index. */
    static void deleteOlder(Path smDir, ReplicaSnapshot keep) throws IOException {
        for (ReplicaSnapshot s : all(smDir)) {
            if (s.index() < keep.index()) {
                deleteTree(s.dir());
            }
        }
    }

    static int crc(Path f) throws IOException {
        CRC32C c = new CRC32C();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(f)) {
            for (int n = in.read(buf); n > 0; n = in.read(buf)) {
                c.update(buf, 0, n);
            }
        }
        return (int) c.getValue();
    }

    static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }

    @Override
    public String toString() {
        return dir + " (term " + term + ", index " + index + ")";
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
