package dev.quickstore.peers.mvstore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quickstore.oo7.Oo7Operation;
import dev.quickstore.oo7.Oo7Store;
import dev.quickstore.peers.PeerOo7Contract;
import dev.quickstore.peers.Peers;
import java.nio.file.Path;
import java.util.Map;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.IntegerDataType;
import org.h2.mvstore.type.StringDataType;
import org.junit.jupiter.api.Test;

/** The peer contract on H2's MVStore, plus the MVStore peer's own checks. */
class MvStoreOo7StoreTest extends PeerOo7Contract {
    @Override
    protected Oo7Store open(Path dir) {
        return Peers.open("mvstore", dir);
    }

    @Test
    void onlyCommitsThatWroteAreSynced() {
        Oo7Store store = buildPeer(tmp.resolve("sync"));
        Map<String, Long> before = store.counters();
        assertEquals(43_740, ops(store).run(Oo7Operation.T1));
        Map<String, Long> afterRead = store.counters();
        assertEquals(before.get("commits") + 1, afterRead.get("commits"));
        assertEquals(before.get("syncs"), afterRead.get("syncs"), "a read-only transaction writes no chunk");
        assertEquals(2_187, ops(store).run(Oo7Operation.T2A));
        assertEquals(afterRead.get("syncs") + 1, store.counters().get("syncs"), "an update is synced");
    }

    @Test
    void anotherFormatVersionIsRefused() {
        Path dir = tmp.resolve("format");
        openTracked(dir).close();
        Path file = dir.resolve("oo7.mv.db");
        MVStore raw = MVStore.open(file.toString());
        raw.openMap(
                        "meta",
                        new MVMap.Builder<String, Integer>()
                                .keyType(StringDataType.INSTANCE)
                                .valueType(IntegerDataType.INSTANCE))
                .put("format", MvStoreOo7Store.FORMAT_VERSION + 1);
        raw.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MvStoreOo7Store.open(dir));
        assertTrue(e.getMessage().contains("format version " + (MvStoreOo7Store.FORMAT_VERSION + 1)), e.getMessage());
        assertTrue(e.getMessage().contains("oo7.mv.db"), e.getMessage());
    }
}
