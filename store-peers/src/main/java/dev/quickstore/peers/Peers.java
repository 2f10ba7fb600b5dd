package dev.quickstore.peers;

import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.peers.eclipsestore.EclipseStoreOo7Store;
import java.nio.file.Path;
import java.util.List;

/** Opens an OO7 peer store by the name {@code qs oo7 run --system} uses for it. */
public final class Peers {
    /** The peers' system names, in report order. */
    public static final List<String> NAMES = List.of("eclipsestore", "lmdb", "mvstore");

    private Peers() {}

    /**
     * Opens (creating if empty) the peer called {@code name} over the directory {@code dir}.
     *
     * @throws IllegalArgumentException for a name not in {@link #NAMES}
     */
    public static Oo7Store open(String name, Path dir) {
        return switch (name) {
            case "eclipsestore" -> EclipseStoreOo7Store.open(dir);
            case "lmdb" -> dev.quickstore.peers.lmdb.LmdbOo7Store.open(dir);
            case "mvstore" -> dev.quickstore.peers.mvstore.MvStoreOo7Store.open(dir);
            default -> throw new IllegalArgumentException("unknown peer '" + name + "'; expected one of " + NAMES);
        };
    }
}
