package dev.quickstore.oo7.mapped;

import dev.quickstore.api.ObjectPadding;
import dev.quickstore.api.ObjectTransaction;
import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Store;
import dev.quickstore.core.options.FramesMode;
import dev.quickstore.core.options.StoreOptions;
import dev.quickstore.core.volume.VolumeFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where a {@link MappedOo7Store} lives and how it is opened again: an embedded store in {@code dir} (perhaps a
 * temporary directory, deleted at close) with its storage-manager options, or a page server's client ({@code
 * serverUri}, {@code serverSecret}). Every opening - the first, and each of {@link MappedOo7Store#makeCold()} -
 * uses the same values, so the store's name, size and cold runs follow from them alone.
 *
 * <p>Invariant: a client ({@code serverUri != null}) has no directory and is never temporary.
 *
 * @param options storage-manager options of every opening; null: {@link StoreOptions#defaults()} read at each
 *     opening
 */
record StoreOpening(
        Path dir,
        boolean temporary,
        boolean dropCaches,
        StoreOptions options,
        ObjectPadding padding,
        String serverUri,
        Path serverSecret) {

    StoreOpening {
        assert !(temporary && serverUri != null) : "a client is never temporary";
    }

    /** An embedded store in {@code dir}. */
    static StoreOpening embedded(
            Path dir, boolean temporary, boolean dropCaches, StoreOptions options, ObjectPadding padding) {
        return new StoreOpening(dir, temporary, dropCaches, options, padding, null, null);
    }

    /** A client of the page server at {@code uri}. */
    static StoreOpening client(String uri, Path secretFile, ObjectPadding padding) {
        return new StoreOpening(null, false, false, null, padding, uri, secretFile);
    }

    boolean isClient() {
        return serverUri != null;
    }

    /** The options in effect: the given ones, else the defaults read now. */
    StoreOptions effectiveOptions() {
        return options != null ? options : StoreOptions.defaults();
    }

    /** Creates the embedded store: catalog of the OO7 types and the indexes, committed. */
    PersistentStore create() throws IOException {
        PersistentStore db = PersistentStore.create(dir, effectiveOptions(), MappedOo7Store.TYPES);
        boolean ok = false;
        try (ObjectTransaction t = db.begin()) {
            Oo7Indexes.create(t.storeTransaction());
            t.commit();
            ok = true;
        } finally {
            if (!ok) {
                db.close();
            }
        }
        return db;
    }

    /** Opens the store (running recovery if needed), or connects to the server (an empty client cache). */
    PersistentStore open() throws IOException {
        return serverUri != null
                ? PersistentStore.connect(serverUri, serverSecret, MappedOo7Store.TYPES)
                : PersistentStore.open(dir, effectiveOptions(), MappedOo7Store.TYPES);
    }

    /** Before a cold reopening: drops the OS page cache if asked and possible; whether it did. */
    boolean dropOsCacheForCold() {
        return serverUri == null && dropCaches && ColdRun.dropOsCache();
    }

    /** See {@link MappedOo7Store#name()}. */
    String name() {
        if (serverUri != null) {
            return padding.isNone() ? "qs-cs" : "qs-b-cs";
        }
        if (effectiveOptions().frames() == FramesMode.SOFTWARE) {
            return "e"; // software persistence: E / EPVM 3.0 (docs/software-mode.md)
        }
        String scheme = switch (effectiveOptions().writeDetection()) {
            case PAGE_PROTECTION -> "";
            case CARD_MARKING -> "-cards";
            case OBJECT_MARKING -> "-objects";
            case REMEMBERED_SETS -> "-remsets";
            case SCANNING -> "-scan";
            case KERNEL_TRACKING -> "-kernel";
        };
        return (padding.isNone() ? "qs" : "qs-b") + scheme;
    }

    /** See {@link MappedOo7Store#databasePages()}. */
    long databasePages(PersistentStore db) throws IOException {
        if (serverUri != null) {
            return db.storageManager().pageCount();
        }
        return VolumeFile.readHeader(dir).pageCount();
    }

    /** See {@link MappedOo7Store#preadNanosOfResidentPages()}. */
    long preadNanosOfResidentPages(PersistentStore db) {
        if (serverUri != null) {
            return -1; // no volume here: the pages come over the connection
        }
        Store s = db.storageManager();
        return ColdRun.preadNanos(VolumeFile.volumePath(dir), s.residentPages(), s.pageSize());
    }

    /** The server's URI or the store's directory, for messages. */
    Object location() {
        return serverUri != null ? serverUri : dir;
    }

    /** Closes {@code db} (if open) and deletes a temporary store's directory. */
    void close(PersistentStore db) throws IOException {
        if (db != null) {
            db.close();
        }
        if (temporary) {
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
