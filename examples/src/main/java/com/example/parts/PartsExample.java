package com.example.parts;

import dev.quickstore.api.PersistentStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

public class PartsExample {
    public static int example(Path dir) throws Exception {
        try (var db = PersistentStore.create(dir, Part.class)) { // registers Part in the schema catalog
            try (var tx = db.begin()) {
                Part a = tx.create(Part.class);
                Part b = tx.create(Part.class, a); // clustering hint: near a
                a.id(1);
                a.type("bolt");
                a.next(b);
                b.id(2);
                b.to().add(a);
                tx.root("first", a);
                tx.commit(); // page diffs into the WAL
            }
        }
        try (var db = PersistentStore.open(dir, Part.class); // checks Part against the catalog
                var tx = db.begin()) {
            Part a = tx.root("first", Part.class); // pages fault in as they are touched
            return a.next().to().get(0).id() + a.next().id(); // 1 + 2
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args.length > 0 ? args[0] : "parts-db");
        deleteStore(dir); // the example creates its store anew on every run
        System.out.println("parts example: " + example(dir));
    }

    static void deleteStore(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
