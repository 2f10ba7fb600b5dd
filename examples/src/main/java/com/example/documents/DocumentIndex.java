package com.example.documents;

import dev.quickstore.api.PersistentStore;
import dev.quickstore.core.Index;
import dev.quickstore.core.index.KeyType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A persistent archive of documents with an index by title: load them in one transaction, then look one up
 * through the B+tree and update it in a second transaction, and read the update back after reopening.
 */
public class DocumentIndex {
    static final String BY_TITLE = "documents.title";

    /** Creates the archive in {@code dir} with {@code titles}, each with a short text. */
    public static void load(Path dir, List<String> titles) throws Exception {
        try (var db = PersistentStore.create(dir, Document.class);
                var tx = db.begin()) {
            Index byTitle = tx.storeTransaction().createIndex(BY_TITLE, KeyType.STRING, 40, true);
            for (String title : titles) {
                Document d = tx.create(Document.class);
                d.title(title);
                d.text("the text of " + title);
                d.revision(1);
                byTitle.insert(title, tx.addressOf(d)); // the index maps a title to the object's address
            }
            tx.commit();
        }
    }

    /** Finds a document by title and appends to its text, in one transaction; returns its new revision. */
    public static int revise(Path dir, String title, String addition) throws Exception {
        try (var db = PersistentStore.open(dir, Document.class);
                var tx = db.begin()) {
            long[] found = tx.storeTransaction().index(BY_TITLE).lookup(title);
            if (found.length == 0) {
                throw new IllegalArgumentException("no document titled " + title);
            }
            Document d = tx.get(found[0], Document.class);
            d.text(d.text() + addition);
            d.revision(d.revision() + 1);
            tx.commit();
            return d.revision();
        }
    }

    /** The text of the document titled {@code title}, read in a fresh transaction. */
    public static String text(Path dir, String title) throws Exception {
        try (var db = PersistentStore.open(dir, Document.class);
                var tx = db.begin()) {
            long[] found = tx.storeTransaction().index(BY_TITLE).lookup(title);
            return tx.get(found[0], Document.class).text();
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "documents-db");
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        load(dir, List.of("design notes", "recovery", "the fault path", "OO7 results"));
        int revision = revise(dir, "recovery", "; redo then undo");
        System.out.println("documents example: 'recovery' is at revision " + revision + ": " + text(dir, "recovery"));
    }
}
