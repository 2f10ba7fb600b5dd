package dev.quickstore.core;

import dev.quickstore.core.error.StoreNotWritableException;
import dev.quickstore.core.inspect.StoreInspector;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child of {@code MisuseMatrixTest.aReadOnlyStoreDirectoryIsRefusedForUpdatesByNameAndStillInspected}, run
 * with its store directory {@code args[0]} bind-mounted read-only: reports on stdout whether the directory is
 * writable, what opening the store for updates did, and what the read-only file checks found.
 */
public final class ReadOnlyDirectoryChild {
    private ReadOnlyDirectoryChild() {}

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        System.out.println("writable " + Files.isWritable(db));
        try (Store s = Store.open(db)) {
            System.out.println("opened " + s);
        } catch (StoreNotWritableException e) {
            System.out.println("refused " + e.getMessage());
        } catch (Exception e) {
            System.out.println("other " + e);
        }
        try (StoreInspector in = StoreInspector.open(db)) {
            System.out.println("files " + in.checkFiles(done -> {}).size() + " problems, roots " + in.roots());
        }
    }
}
