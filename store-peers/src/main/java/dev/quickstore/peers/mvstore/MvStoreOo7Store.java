package dev.quickstore.peers.mvstore;

import dev.quickstore.oo7.Oo7Store;
import java.nio.file.Path;

/** Placeholder while the LMDB peer compiles. */
public abstract class MvStoreOo7Store implements Oo7Store {
    public static Oo7Store open(Path dir) {
        throw new UnsupportedOperationException(dir.toString());
    }
}
