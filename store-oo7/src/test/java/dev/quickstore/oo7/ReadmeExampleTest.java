package dev.quickstore.oo7;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quickstore.api.Chars;
import dev.quickstore.api.Persistent;
import dev.quickstore.api.PersistentStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The API example of README.md, verbatim between the markers, so that the README's code compiles and runs. */
class ReadmeExampleTest {
    // README begin
    @Persistent
    public interface Part {
        int id();

        void id(int v);

        @Chars(10)
        String type();

        void type(String v);

        Part next();

        void next(Part p);

        List<Part> to(); // a live list of references; no setter
    }

    static int example(Path dir) throws Exception {
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
    // README end

    @TempDir
    Path tmp;

    @Test
    void theReadmeExampleRuns() throws Exception {
        assertEquals(3, example(tmp.resolve("db")));
    }
}
