package dev.quickstore.peers.eclipsestore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.oo7.schema.AtomicPart;
import dev.quickstore.peers.PeerOo7Contract;
import dev.quickstore.peers.Peers;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** OO7 small on Eclipse Store: the peer contract, and what is particular to Eclipse Store. */
class EclipseStoreOo7StoreTest extends PeerOo7Contract {
    @Override
    protected Oo7Store open(Path dir) {
        return Peers.open("eclipsestore", dir);
    }

    @Test
    void aCommitIsForcedToTheDeviceAndMakeColdReloadsTheGraph() {
        Oo7Store peer = buildPeer(tmp.resolve("sync"));
        Map<String, Long> before = peer.counters();
        assertEquals(2187, ops(peer).run(Oo7Operation.T2A));
        Map<String, Long> after = peer.counters();
        // one fdatasync of the data file and one of the transactions file (directories are known by now)
        assertTrue(after.get("syncs") - before.get("syncs") >= 2, before + " -> " + after);
        // T2A stores the 2,187 updated root parts (x, y swapped) and nothing else
        long stored = after.get("storedBytes") - before.get("storedBytes");
        assertTrue(stored >= 2187 * 8L && stored < 2187 * 200L, "T2A stored " + stored + " bytes");
        assertEquals(43_740, ops(peer).run(Oo7Operation.T1));
        // (syncs may still grow: background housekeeping moves data between files and forces them)
        assertEquals(after.get("storedBytes"), peer.counters().get("storedBytes"), "a read-only op stores nothing");

        AtomicPart hot = tx(peer, () -> peer.atomicPartById(1));
        assertSame(hot, tx(peer, () -> peer.atomicPartById(1)), "one instance per stored object while hot");
        peer.makeCold();
        AtomicPart cold = tx(peer, () -> peer.atomicPartById(1));
        assertNotSame(hot, cold, "makeCold dropped the loaded graph; part 1 came from the files again");
        assertEquals(hot.x(), cold.x());
        assertEquals(hot.buildDate(), cold.buildDate());
    }

    @Test
    void oneStoreAtATimePerJvm() {
        openTracked(tmp.resolve("first"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> open(tmp.resolve("second")));
        assertTrue(e.getMessage().contains("first") && e.getMessage().contains("still open"), e.getMessage());
    }
}
